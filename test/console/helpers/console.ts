/**
 * A console "browser" for fetch-only tests: keeps the session cookie and the CSRF token and sends the
 * Origin header a browser would, so each test can take one of those away and see the request refused.
 */

import { rawSql } from "../../helpers/database.ts";
import type { TestServer } from "../../helpers/server.ts";

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export class ConsoleBrowser {
  cookie = "";
  csrf = "";

  constructor(
    readonly server: { url: string },
    /** The Origin the browser sends (the console's own origin by default). */
    readonly origin: string = server.url,
  ) {}

  /** A request to `path` (absolute path) as this browser, with overrides for what a browser would send. */
  async send(
    method: string,
    path: string,
    body?: unknown,
    options: { origin?: string | null; csrf?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookie) headers.cookie = this.cookie;
    const origin = options.origin === undefined ? this.origin : options.origin;
    if (origin !== null && method !== "GET") headers.origin = origin;
    const csrf = options.csrf === undefined ? this.csrf : options.csrf;
    if (csrf && method !== "GET") headers["x-csrf-token"] = csrf;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${this.server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: "manual" });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // an HTML page
    }
    this.keepCookies(res);
    return { status: res.status, body: parsed, headers: res.headers };
  }

  /** Stores Set-Cookie answers like a browser (a Max-Age=0 cookie is removed). */
  keepCookies(res: Response): void {
    const jar = new Map(this.cookie ? this.cookie.split("; ").map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)] as [string, string]) : []);
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";").map((s) => s.trim());
      const name = pair!.slice(0, pair!.indexOf("="));
      const value = pair!.slice(pair!.indexOf("=") + 1);
      if (attributes.some((a) => a.toLowerCase() === "max-age=0")) jar.delete(name);
      else jar.set(name, value);
    }
    this.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** Signs in with a developer API key; throws unless 200. */
  async signInWithKey(apiKey: string, teamName?: string): Promise<Answer> {
    const res = await this.send("POST", "/console/api/session", { api_key: apiKey, ...(teamName ? { team_name: teamName } : {}) });
    if (res.status !== 200) throw new Error(`console sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
    this.csrf = res.body.csrf_token;
    return res;
  }

  /** GET /console/api/session, remembering the CSRF token. */
  async session(): Promise<Answer> {
    const res = await this.send("GET", "/console/api/session");
    if (res.status === 200) this.csrf = res.body.csrf_token;
    return res;
  }

  /** A console API call (`/console/api` + path). */
  api(
    method: string,
    path: string,
    body?: unknown,
    options?: { origin?: string | null; csrf?: string | null; headers?: Record<string, string> },
  ): Promise<Answer> {
    return this.send(method, `/console/api${path}`, body, options);
  }
}

/** Rows of a console table, straight from the database (what was or was not written); `?` placeholders on both databases. */
export function rows(server: TestServer, sql: string, ...params: (string | number)[]): Promise<Record<string, unknown>[]> {
  return rawSql(server.deps.database, sql, ...params);
}
