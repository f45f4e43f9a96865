/** The console page: one self-contained document under a strict Content-Security-Policy, built from the committed sources. */
import { describe, expect, it, setDefaultTimeout } from "bun:test";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { ASSETS_FILE, buildConsoleAssets } from "../../scripts/build-console.ts";
import { serverForFile } from "../helpers/server.ts";

// Real servers, a real identity provider and (for the browser file) Chromium: slow machines need room.
setDefaultTimeout(30_000);

const file = serverForFile();

describe("the console page", () => {
  it("is one self-contained HTML page whose only script and stylesheet are allowed by hash", async () => {
    const res = await fetch(`${file.server.url}/console`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    const csp = res.headers.get("content-security-policy")!;
    const directives = Object.fromEntries(csp.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]));
    expect(directives).toEqual({
      "default-src": "'none'",
      "script-src": expect.stringMatching(/^'sha256-[A-Za-z0-9+/]{43}='$/),
      "style-src": expect.stringMatching(/^'sha256-[A-Za-z0-9+/]{43}='$/),
      "connect-src": "'self'",
      "img-src": "'self' data:",
      "base-uri": "'none'",
      "form-action": "'self'",
      "frame-ancestors": "'none'",
    });
    const scripts = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    expect(directives["script-src"]).toBe(sha(scripts[0]!));
    expect(directives["style-src"]).toBe(sha(styles[0]!));
    // Nothing is loaded from anywhere: no src= or href= attributes, no CDN.
    expect(html).not.toMatch(/<(script|link|img|iframe)[^>]*(src|href)=/i);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await fetch(`${file.server.url}/console/`)).status).toBe(200);
  });

  it("is not part of the API documentation", async () => {
    const spec = (await (await fetch(`${file.server.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths).filter((p) => p.startsWith("/console"))).toEqual([]);
    expect(Object.keys(spec.paths)).toContain("/api/auth/login/google/app");
  });

  it("is built from the committed sources (run `npm run console:build` after editing src/console/web)", async () => {
    expect(await buildConsoleAssets()).toBe(readFileSync(ASSETS_FILE, "utf8"));
  });
});
