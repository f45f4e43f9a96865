/**
 * Every failure the API reports is one of these classes: a fixed `code`, an HTTP `status`, and a sentence
 * written for developers. This module is the one place that turns an error into an HTTP body or a
 * websocket message, so no stack trace, schema or internal message can leak by accident.
 *
 * ErrorCode is the one list of codes, for HTTP bodies and every websocket error alike; the interact
 * protocol's schemas (src/interact/protocol.ts) and its AsyncAPI document are built from it.
 */
import { Type } from "@sinclair/typebox";
import { TURN_ERROR_CODES, UTILITY_ERROR_CODES } from "./engine/index.ts";

/** Every `code` hoot sends. Add a code here before using it: the compiler refuses any other string. */
export const ERROR_CODES = [
  // HTTP (PROTOCOL.md section 1)
  "invalid_request",
  "invalid_json",
  "invalid_path",
  "invalid_cursor",
  "unauthorized",
  "wrong_environment",
  "permission_denied",
  "no_team",
  "team_name_required",
  "not_found",
  "conflict",
  "team_exists",
  "name_taken",
  "external_id_taken",
  "email_taken",
  // a team at one of its caps (docs/limits.md): service accounts, pending invitations, stored configuration bytes
  "limit_reached",
  // child safety (issue 11): a team policy the library refused
  "invalid_policy",
  "payload_too_large",
  "unsupported_media_type",
  "too_many_requests",
  "unavailable",
  "internal",
  // developer console and single sign-on (src/console)
  "sso_not_configured",
  "sso_required",
  "email_not_verified",
  "not_a_developer",
  "identity_provider_failed",
  "cross_site_refused",
  "already_member",
  "already_invited",
  "last_team",
  "invalid_redirect_uri",
  // HTTP hardening (issue 9): too deep a body, a held database lock, a web origin that may not call
  "invalid_body",
  "database_busy",
  "origin_not_allowed",
  // interact websocket: refused requests (PROTOCOL.md section 2)
  "invalid_message",
  "unknown_kind",
  "not_authenticated",
  "not_configured",
  "invalid_configuration",
  // a configuration past HOOT_CONFIG_MAX_BYTES, HOOT_CONFIG_MAX_CONTEXT_KEYS or HOOT_CONFIG_MAX_CONTEXT_DEPTH (issue 24)
  "configuration_too_large",
  // interact websocket: the hosted engine's request kinds (compatibility)
  "unsupported_request",
  "unknown_service_profile",
  // utilities and stored configurations (a configuration reference, a utility an interact or run names)
  "unknown_reference",
  "unknown_utility",
  // interact websocket: connection-fatal, sent before the close (PROTOCOL.md section 4)
  "auth_timeout",
  "message_too_large",
  "rate_limited",
  "too_many_sockets",
  "too_many_pending",
  "server_busy",
  "token_expired",
  "credential_revoked",
  "server_shutting_down",
  "session_expired",
  // interact websocket: a turn that failed (`interaction_error`)
  ...TURN_ERROR_CODES,
  "history_not_saved",
  // interact websocket: audio asked for but not admitted (`speech_unavailable`, the reply goes on as text)
  "speech_busy",
  // a utility's error value inside a `data` event or a `run` answer: {"error", "code"}
  ...UTILITY_ERROR_CODES,
  // voice input (issue 15): add_audio, transcribe and an interact without text (VoiceInputError codes;
  // `rate_limited` above doubles as add_audio's spent audio budget)
  "invalid_audio",
  "audio_buffer_full",
  "no_audio",
  "stt_unavailable",
  "stt_failed",
  // data-lite mode (PROTOCOL.md section 8): no parent's consent, and the recogniser is outside the machine
  "stt_consent_required",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The schema of a `code` field. */
export const ErrorCodeSchema = Type.Union(ERROR_CODES.map((code) => Type.Literal(code)));

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers (Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** 400: the body, query or path is not what the endpoint takes. */
export class InvalidRequest extends AppError {
  constructor(message: string, code: ErrorCode = "invalid_request") {
    super(400, code, message);
  }
}

/** 401: one body for every cause (missing, malformed, expired, revoked, unknown), so nothing can be enumerated. */
export class Unauthorized extends AppError {
  constructor(message = "Authentication failed: the credential is missing, invalid, expired or revoked.") {
    super(401, "unauthorized", message);
  }
}

/** 401 with its own sentence: a well-formed key of another deployment environment. */
export class WrongEnvironment extends AppError {
  constructor(keyEnv: string, serverEnv: string) {
    super(401, "wrong_environment", `This key belongs to the "${keyEnv}" environment; this server is "${serverEnv}". Use a key made for "${serverEnv}".`);
  }
}

/** 403: authenticated, but this caller may not do this. */
export class Forbidden extends AppError {
  constructor(message = "This credential is not allowed to do that.", code: ErrorCode = "permission_denied") {
    super(403, code, message);
  }
}

/** 404: absent, or belonging to another team (never 403, so ids of other teams cannot be probed). */
export class NotFound extends AppError {
  constructor(what = "resource") {
    super(404, "not_found", `No such ${what}.`);
  }
}

/** 409: the request conflicts with what is stored. */
export class Conflict extends AppError {
  constructor(message: string, code: ErrorCode = "conflict") {
    super(409, code, message);
  }
}

/**
 * 409: the team (or developer) is at one of its caps (docs/limits.md); the sentence names the cap and its setting.
 * @example new LimitReached("service accounts", 100, "HOOT_MAX_SERVICE_ACCOUNTS_PER_TEAM", "delete one first")
 */
export class LimitReached extends AppError {
  constructor(what: string, limit: number, setting: string, remedy: string) {
    super(409, "limit_reached", `The team already has the most ${what} allowed (${limit}, the operator's ${setting}); ${remedy}.`);
  }
}

export class PayloadTooLarge extends AppError {
  constructor(limit: number) {
    super(413, "payload_too_large", `The request body is larger than the limit of ${limit} bytes.`);
  }
}

export class UnsupportedMediaType extends AppError {
  constructor() {
    super(415, "unsupported_media_type", "Send the body as JSON with Content-Type: application/json.");
  }
}

export class TooManyRequests extends AppError {
  constructor(retryAfterSeconds: number, message = "Too many failed attempts; try again later.") {
    super(429, "too_many_requests", message, { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

export class Unavailable extends AppError {
  constructor(message = "The server is not ready or is shutting down.") {
    super(503, "unavailable", message);
  }
}

// --- Developer console and single sign-on (src/console) ---

/** 404 on the single-sign-on routes of a server with no identity provider configured. */
export class SsoNotConfigured extends AppError {
  constructor() {
    super(404, "sso_not_configured", "Single sign-on is not configured on this server (HOOT_OIDC_ISSUER is not set); log in with an API key instead.");
  }
}

/** 403: a console request that did not come from the console's own page (cross-site request forgery). */
export class CrossSiteRefused extends AppError {
  constructor() {
    super(403, "cross_site_refused", "This request did not come from the console's own page and was refused.");
  }
}

/** 403: the identity provider vouched for someone this server does not let in (the sentence says why). */
export class SignInRefused extends AppError {
  constructor(code: "email_not_verified" | "not_a_developer" | "no_team" | "sso_required", message: string) {
    super(403, code, message);
  }
}

/** 502: the identity provider could not be reached or answered something unusable. */
export class IdentityProviderFailed extends AppError {
  constructor(message = "The identity provider could not be reached or gave an answer hoot cannot use; try again.") {
    super(502, "identity_provider_failed", message);
  }
}

// --- hardening: database lock and origin errors ---

/** 503: another process holds the database's write lock for longer than the lock deadline. */
export class DatabaseBusy extends AppError {
  constructor(retryAfterSeconds = 1) {
    super(503, "database_busy", "The database is busy (another process is writing to it); try again shortly.", {
      "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }
}

/** 403: a browser page of an origin that may not call this endpoint (see HOOT_CORS_ORIGINS, HOOT_WS_ORIGINS). */
export class OriginNotAllowed extends AppError {
  constructor(setting: string) {
    super(403, "origin_not_allowed", `Requests from this web origin are not allowed here; the operator can list it in ${setting}.`);
  }
}

export interface ErrorBody {
  error: string;
  code: ErrorCode;
}

/** The HTTP body and status for any thrown value; unknown errors become a bare 500. */
export function toHttpError(error: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof AppError) {
    return { status: error.status, body: { error: error.message, code: error.code }, headers: error.headers };
  }
  return { status: 500, body: { error: "Internal server error.", code: "internal" }, headers: {} };
}
