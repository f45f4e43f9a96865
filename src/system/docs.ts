/**
 * The API docs page: Swagger UI from the swagger-ui-dist package, imported as files so that
 * `bun build --compile` embeds them and /docs works offline.
 */

import cssPath from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import bundlePath from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import { NotFound } from "../errors.ts";

// A Map, not an object literal: the name comes from the URL, and `ASSETS["constructor"]` must not find anything.
const ASSETS = new Map<string, { path: string; type: string }>([
  ["swagger-ui-bundle.js", { path: bundlePath, type: "text/javascript; charset=utf-8" }],
  ["swagger-ui.css", { path: cssPath, type: "text/css; charset=utf-8" }],
]);

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>hoot API</title><link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="docs"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#docs", deepLinking: true });</script>
</body></html>`;

/** The HTML page at /docs. */
export function docsPage(): Response {
  return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
}

/** An embedded Swagger UI file, or 404. */
export function docsAsset(name: string): Response {
  const asset = ASSETS.get(name);
  if (!asset) throw new NotFound("file");
  return new Response(Bun.file(asset.path), { headers: { "content-type": asset.type, "cache-control": "public, max-age=86400" } });
}
