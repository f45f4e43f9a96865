/**
 * `hoot --help`: the commands and every setting, so the standalone binary explains itself without the
 * README. The list of settings is taken from config.ts itself (by recording which HOOT_* names loadConfig
 * reads), so a new setting shows up here even before it gets a line in SETTING_NOTES.
 */
import { loadConfig } from "../config.ts";
import { ADMIN_COMMANDS } from "./admin.ts";

/** Default and meaning of each setting, as the README's settings table gives them. */
const SETTING_NOTES = new Map<string, string>([
  ["HOOT_HOST", "127.0.0.1: address to listen on"],
  ["HOOT_PORT", "8080: port (0 picks a free one); a port in use is an error"],
  ["HOOT_DATA_DIR", "./data: database, secret key, dev credentials (kept 0700)"],
  ["HOOT_DATABASE", "$HOOT_DATA_DIR/hoot.db: SQLite file (0600)"],
  ["HOOT_ENV", "dev: environment label, part of every key"],
  ["HOOT_SECRET_KEY", "generated into $HOOT_DATA_DIR/secret.key: base64, >= 32 bytes; required in production"],
  ["HOOT_LOG_LEVEL", "info: trace, debug, info, warn, error, fatal, silent"],
  ["HOOT_BODY_LIMIT_BYTES", "1048576: larger bodies get 413"],
  ["HOOT_LOGIN_FAILURES_PER_MINUTE", "10: per address and per key, then 429"],
  ["HOOT_TOKEN_TTL_SECONDS", "3600: access token lifetime"],
  ["HOOT_CLOCK_TOLERANCE_SECONDS", "30: leeway on token expiry"],
  ["HOOT_TRUST_PROXY", "false: take the client address from X-Forwarded-For"],
  ["HOOT_WS_AUTH_TIMEOUT_MS", "10000: authenticate within this, else close 1008"],
  ["HOOT_WS_MAX_MESSAGE_BYTES", "65536: larger messages close 1009"],
  ["HOOT_WS_MESSAGES_PER_MINUTE", "120: per socket, else close 4429"],
  ["HOOT_WS_MAX_INTERACT_CHARS", "4000: longest interact text"],
  ["HOOT_WS_MAX_SOCKETS_PER_PLAYER", "5: sockets one player may hold"],
  ["HOOT_WS_MAX_SOCKETS", "20000: sockets in all, then close 1013"],
  ["HOOT_WS_MAX_UNAUTHENTICATED_PER_ADDRESS", "100: sockets one address may hold before authenticating"],
  ["HOOT_WS_BACKPRESSURE_BYTES", "4194304: queued for a client that stops reading, then closed"],
  ["HOOT_LLM_PROVIDER", "local: local (embedded stand-in) or openai (any OpenAI-compatible endpoint)"],
  ["HOOT_LLM_BASE_URL", "https://api.openai.com/v1: for openai"],
  ["HOOT_LLM_API_KEY", "(empty): for openai"],
  ["HOOT_LLM_MODEL", "gpt-4o-mini: for openai"],
  ["HOOT_LLM_FIRST_TOKEN_TIMEOUT_MS", "15000: provider time limit"],
  ["HOOT_LLM_STALL_TIMEOUT_MS", "10000: provider time limit"],
  ["HOOT_LOCAL_TOKENS_PER_SECOND", "30: pace of the local engine; 0 = as fast as possible"],
  ["HOOT_HISTORY_BUDGET_CHARS", "6000: past conversation the model sees"],
  ["HOOT_RETENTION_DAYS", "30: conversation data older than this is purged"],
  ["HOOT_RETENTION_SWEEP_MS", "3600000: how often the purge runs"],
  ["HOOT_TTS_PROVIDER", "local: local (embedded Flite) or openai"],
  ["HOOT_TTS_BASE_URL", "https://api.openai.com/v1: for openai speech"],
  ["HOOT_TTS_API_KEY", "(empty): for openai speech"],
  ["HOOT_TTS_MODEL", "tts-1: for openai speech"],
  ["HOOT_TTS_WORKERS", "number of cores: speech synthesis workers"],
  ["HOOT_TTS_TIMEOUT_MS", "15000: speech provider time limit"],
  ["HOOT_ALLOW_SELF_DELETE", "false: DELETE /api/users/me deletes the calling developer; otherwise 403"],
  ["HOOT_MODERATION_PROVIDER", "none: optional moderation model behind the safety rules: none, openai, guard"],
  ["HOOT_MODERATION_BASE_URL", "https://api.openai.com/v1 (guard: http://127.0.0.1:11434/v1): moderation endpoint"],
  ["HOOT_MODERATION_API_KEY", "(empty): moderation API key"],
  ["HOOT_MODERATION_MODEL", "omni-moderation-latest (guard: llama-guard3): moderation model"],
  ["HOOT_MODERATION_TIMEOUT_MS", "1500: past this a check fails safe (the sentence is held)"],
  ["HOOT_OIDC_ISSUER", "(none): OpenID Connect issuer for console single sign-on; unset = API-key sign-in"],
  ["HOOT_OIDC_CLIENT_ID", "(none): the console's client at the provider"],
  ["HOOT_OIDC_CLIENT_SECRET", "(none): its secret; none = a public client with PKCE"],
  ["HOOT_OIDC_TOKEN_AUTH_METHOD", "client_secret_basic: or client_secret_post"],
  ["HOOT_OIDC_PROVIDER_NAME", "the issuer's host: shown on the sign-in button"],
  ["HOOT_PUBLIC_URL", "(each request's origin): the origin browsers use; required with HOOT_OIDC_ISSUER"],
  ["HOOT_CONSOLE_SESSION_IDLE_MINUTES", "120: console session idle lifetime"],
  ["HOOT_CONSOLE_SESSION_MAX_HOURS", "12: console session absolute lifetime"],
  ["HOOT_SIGN_IN_STARTS_PER_ADDRESS", "30: single sign-ons one address may start in ten minutes"],
  ["HOOT_CORS_ORIGINS", "(none): web origins whose pages may call the developer endpoints; * = any"],
  ["HOOT_WS_ORIGINS", "(any): web origins whose pages may open /interact; apps without Origin always may"],
  ["HOOT_METRICS_TOKEN", "(none): bearer token for /metrics; unset = /metrics only in the dev environment"],
  ["HOOT_DB_LOCK_TIMEOUT_MS", "5000: how long a write waits for another process's lock, then 503"],
  ["HOOT_SHUTDOWN_DRAIN_MS", "10000: how long a stop waits for in-flight work before closing it"],
  ["HOOT_DATABASE_URL", "(none: SQLite): postgres://user:password@host:5432/db runs on PostgreSQL (needs HOOT_SECRET_KEY)"],
  ["HOOT_DATABASE_POOL_SIZE", "10: connections each node keeps to PostgreSQL at most"],
  // limits (docs/limits.md)
  ["HOOT_CONFIG_MAX_BYTES", "HOOT_WS_MAX_MESSAGE_BYTES: bytes (JSON) of the configuration one session holds"],
  ["HOOT_CONFIG_MAX_CONTEXT_KEYS", "1000: keys of a configuration's context, at every depth"],
  ["HOOT_CONFIG_MAX_CONTEXT_DEPTH", "8: levels of lists and objects inside a context value"],
  ["HOOT_MAX_SERVICE_ACCOUNTS_PER_TEAM", "100: then 409 limit_reached"],
  ["HOOT_MAX_PENDING_INVITATIONS_PER_TEAM", "100: then 409 limit_reached"],
  ["HOOT_MAX_CONSOLE_SESSIONS_PER_DEVELOPER", "10: a new sign-in signs the oldest out"],
  ["HOOT_MAX_STORED_CONFIG_BYTES_PER_TEAM", "67108864: stored configurations and utilities, every version; then 409"],
  ["HOOT_INCIDENTS_PER_PLAYER_PER_MINUTE", "30: past it incidents are counted on the latest, not written"],
  ["HOOT_MAX_STORED_NAMES_PER_KIND", "1000: stored configurations (and utilities) per team; then 409"],
  ["HOOT_MAX_STORED_VERSIONS_PER_NAME", "1000: versions of one stored name; then 409"],
  ["HOOT_MAX_STORED_BODY_BYTES", "65536: one stored configuration or utility"],
  ["HOOT_MAX_SAFETY_POLICIES_PER_TEAM", "100: then 409 limit_reached"],
  ["HOOT_WS_MAX_RUNS_AT_ONCE", "4: run (and transcribe) requests working at once per socket"],
  ["HOOT_WS_MAX_QUEUED_AUDIO_CHUNKS", "64: add_audio chunks waiting outside the message count"],
]);

/** Every HOOT_* name loadConfig reads, in the order it reads them. */
export function settingNames(): string[] {
  const names: string[] = [];
  const recorder = new Proxy({} as Record<string, string | undefined>, {
    get(_target, name) {
      if (typeof name === "string" && name.startsWith("HOOT_") && !names.includes(name)) names.push(name);
      return undefined;
    },
  });
  try {
    loadConfig(recorder);
  } catch {
    // Only the names matter; an unset required value may complain.
  }
  return names;
}

/** The text of `hoot --help`. */
export function helpText(): string {
  const lines = [
    "hoot: a self-hosted conversational AI engine for children's apps",
    "",
    "usage:",
    "  hoot [serve]                       run the server (the default)",
    "  hoot admin <command> [--flags]     an operator command; prints one JSON object",
    "  hoot help | --help | -h            this text",
    "",
    "admin commands:",
  ];
  for (const [name, command] of ADMIN_COMMANDS) {
    const flags = Object.entries(command.flags)
      .map(([flag, type]) => (type === "boolean" ? `[--${flag}]` : `--${flag} ${flag.toUpperCase().replace(/-/g, "_")}`))
      .join(" ");
    lines.push(`  ${name} ${flags}`.trimEnd());
    if (command.summary) lines.push(`      ${command.summary}`);
  }
  lines.push("", "settings (environment variables, or a .env file in the working folder; default: meaning):");
  for (const name of settingNames()) lines.push(`  ${name.padEnd(42)} ${SETTING_NOTES.get(name) ?? ""}`.trimEnd());
  lines.push("", "API docs: /docs on the running server; the README in the source repository has the walk-through.");
  return lines.join("\n") + "\n";
}
