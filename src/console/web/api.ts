/**
 * The page's only way to the server: JSON over fetch to /console/api, with the session cookie (same origin)
 * and the CSRF token on every request that changes something.
 */

export interface TeamRef {
  pk: number;
  name: string;
}

export interface SessionInfo {
  user: { pk: number; name: string; email: string };
  team: TeamRef;
  teams: TeamRef[];
  csrf_token: string;
  method: "oidc" | "api_key";
}

export interface SignInOptions {
  single_sign_on: boolean;
  provider_name: string | null;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let csrf = "";

/** Remembers the CSRF token of the current session. */
export function setCsrf(token: string): void {
  csrf = token;
}

/** Called when the server says the session has ended (401). */
let onSignedOut: () => void = () => {};
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/** A JSON request to the console API; throws ApiError with the server's sentence. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (method !== "GET") headers["x-csrf-token"] = csrf;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`/console/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  if (res.status === 204) return undefined as T;
  let parsed: unknown = null;
  try {
    parsed = await res.json();
  } catch {
    parsed = null;
  }
  if (!res.ok) {
    const error = parsed as { error?: string; code?: string } | null;
    if (res.status === 401 && path !== "/session") onSignedOut();
    throw new ApiError(res.status, error?.code ?? "error", error?.error ?? `The server answered ${res.status}.`);
  }
  return parsed as T;
}

/** The message to show for any failure. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : "Something went wrong.";
}
