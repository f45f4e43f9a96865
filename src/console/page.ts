/**
 * The console page and the sign-in result pages. The page is one self-contained HTML document: the Preact
 * bundle and the stylesheet (src/console/assets.gen.ts, built by scripts/build-console.ts) are inlined, so
 * nothing is fetched from anywhere else and the compiled binary carries it all.
 *
 * The Content-Security-Policy allows exactly that script and that stylesheet (by hash), network requests to
 * this origin only (the console API and the interact websocket), and nothing else: no other script, no
 * frames, no plugins, no <base>, forms posting only here, and no framing by other sites.
 */
import { createHash } from "node:crypto";
import { CONSOLE_SCRIPT, CONSOLE_STYLE } from "./assets.gen.ts";

const hash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

const MESSAGE_STYLE =
  "body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}a{font-weight:600}p.code{color:#666;font-size:.9rem}";

const BASE_HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

function policy(scriptHash: string | null, styleHash: string): string {
  return [
    "default-src 'none'",
    `script-src ${scriptHash ?? "'none'"}`,
    `style-src ${styleHash}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

// Built on the first request for the console, not at start-up (hashing and joining ~55 KB of assets).
const page = () => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>hoot console</title>
<style>${CONSOLE_STYLE}</style>
</head>
<body>
<div id="app"><noscript>The hoot console needs JavaScript.</noscript></div>
<script type="module">${CONSOLE_SCRIPT}</script>
</body>
</html>`;

/** Security headers of every console answer (pages and API). */
export const SECURITY_HEADERS = BASE_HEADERS;

let built: { html: string; policy: string } | null = null;

/** The console page. */
export function consolePage(): Response {
  // The Content-Security-Policy allows exactly the inlined script and stylesheet, by hash.
  built ??= { html: page(), policy: policy(hash(CONSOLE_SCRIPT), hash(CONSOLE_STYLE)) };
  return new Response(built.html, {
    headers: { ...BASE_HEADERS, "content-type": "text/html; charset=utf-8", "content-security-policy": built.policy, "cache-control": "no-cache" },
  });
}

let messagePolicy: string | null = null;

/** A plain page that explains why a sign-in did not work, and how to try again. */
export function messagePage(status: number, title: string, sentence: string, code: string, headers: Headers = new Headers()): Response {
  const body = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · hoot console</title><style>${MESSAGE_STYLE}</style></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(sentence)}</p>
<p><a href="/console">Back to the console sign-in</a></p>
<p class="code">Reason: <code>${escapeHtml(code)}</code></p>
</main>
</body>
</html>`;
  for (const [k, v] of Object.entries(BASE_HEADERS)) headers.set(k, v);
  headers.set("content-type", "text/html; charset=utf-8");
  headers.set("content-security-policy", (messagePolicy ??= policy(null, hash(MESSAGE_STYLE))));
  headers.set("cache-control", "no-store");
  return new Response(body, { status, headers });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
