/**
 * Every setting hoot reads, in one table: its name, kind, default, bounds and help. `loadConfig` (config.ts)
 * takes defaults and bounds from here, `hoot --help` prints it, and docs/settings.md is generated from it
 * (`bun scripts/settings-doc.ts`), so a default is written once. A default that depends on another setting
 * (the database file lives in the data folder) is `null` here, computed where it is read, and `shown` says it.
 */

/** One setting. `help` is Markdown (docs/settings.md shows it as is; `--help` strips the marks). */
export interface Setting {
  readonly name: string;
  readonly kind: "int" | "string" | "bool" | "oneOf" | "origins" | "secret";
  /** The default; null when derived from other settings (then `shown` says what it is) or when unset means none. */
  readonly default: number | string | boolean | null;
  readonly min?: number;
  readonly max?: number;
  readonly choices?: readonly string[];
  /** How the default reads in the docs when it is not a plain value. */
  readonly shown?: string;
  readonly help: string;
}

type Extra = Pick<Setting, "min" | "max" | "choices" | "shown">;
const s = (name: string, kind: Setting["kind"], value: Setting["default"], extra: Extra, help: string): Setting => ({
  name,
  kind,
  default: value,
  ...extra,
  help,
});

export const SETTINGS: readonly Setting[] = [
  s("HOOT_HOST", "string", "127.0.0.1", {}, "address to listen on"),
  s("HOOT_PORT", "int", 8080, { min: 0, max: 65535 }, "port to listen on (0 picks a free port; a port in use is an error)"),
  s("HOOT_DATA_DIR", "string", "./data", {}, "database, generated secret key, dev credentials"),
  s(
    "HOOT_TLS_CERT_FILE",
    "string",
    null,
    { shown: "none (plain HTTP)" },
    "PEM certificate chain: with `HOOT_TLS_KEY_FILE`, hoot serves HTTPS and WSS itself (the `openai` package's realtime client dials `wss://` only)",
  ),
  s("HOOT_TLS_KEY_FILE", "string", null, { shown: "none (plain HTTP)" }, "PEM private key of `HOOT_TLS_CERT_FILE`"),
  s("HOOT_DATABASE", "string", null, { shown: "`$HOOT_DATA_DIR/hoot.db`" }, "SQLite file (not used with `HOOT_DATABASE_URL`)"),
  s("HOOT_ENV", "string", "dev", {}, "environment label, part of every key (`hoot_<env>_…`); keys of another label are refused by name"),
  s(
    "HOOT_SECRET_KEY",
    "secret",
    null,
    { shown: "generated into `$HOOT_DATA_DIR/secret.key` (0600) with a warning" },
    "base64, ≥ 32 bytes; required when `HOOT_ENV` is `production`/`prod`/`live`",
  ),
  s("HOOT_LOG_LEVEL", "oneOf", "info", { choices: ["trace", "debug", "info", "warn", "error", "fatal", "silent"] }, "`trace` … `fatal`, `silent`"),
  s("HOOT_BODY_LIMIT_BYTES", "int", 1048576, { min: 1024, max: 67108864 }, "larger bodies get 413"),
  s("HOOT_LOGIN_FAILURES_PER_MINUTE", "int", 10, { min: 1, max: 100000 }, "per client address and per key, then 429 with `Retry-After`"),
  s("HOOT_TOKEN_TTL_SECONDS", "int", 3600, { min: 1, max: 86400 }, "access token lifetime"),
  s("HOOT_CLOCK_TOLERANCE_SECONDS", "int", 30, { min: 0, max: 300 }, "leeway on `exp`"),
  s(
    "HOOT_TRUST_PROXY",
    "bool",
    false,
    {},
    "take the client address from `X-Forwarded-For` (only behind your own proxy): for login limits and for the interact socket's " +
      "`HOOT_WS_MAX_UNAUTHENTICATED_PER_ADDRESS`",
  ),
  s("HOOT_WS_AUTH_TIMEOUT_MS", "int", 10000, { min: 10, max: 600000 }, "authenticate within this, else close 1008"),
  s(
    "HOOT_WS_MAX_MESSAGE_BYTES",
    "int",
    65536,
    { min: 256, max: 16777216 },
    'larger messages get `{"type":"error","code":"message_too_large"}`, then close 1009',
  ),
  s("HOOT_WS_MESSAGES_PER_MINUTE", "int", 120, { min: 1, max: 1000000 }, "per socket, else close 4429"),
  s("HOOT_WS_MAX_INTERACT_CHARS", "int", 4000, { min: 1, max: 1000000 }, "longest interact `text`"),
  s("HOOT_WS_MAX_SOCKETS_PER_PLAYER", "int", 5, { min: 1, max: 10000 }, "more: error `too_many_sockets`, close 4429"),
  s("HOOT_WS_MAX_SOCKETS", "int", 20000, { min: 1, max: 1000000 }, "more: close 1013 (try again later)"),
  s(
    "HOOT_WS_MAX_UNAUTHENTICATED_PER_ADDRESS",
    "int",
    100,
    { min: 1, max: 1000000 },
    "sockets one client address (behind `HOOT_TRUST_PROXY`, the last `X-Forwarded-For` hop) may hold before they authenticate; more: close 1013",
  ),
  s("HOOT_WS_BACKPRESSURE_BYTES", "int", 4194304, { min: 1024, max: 1073741824 }, "bytes queued for a client that stops reading before it is closed"),
  s("HOOT_LLM_PROVIDER", "oneOf", "local", { choices: ["local", "openai"] }, "`local` (embedded stand-in) or `openai` (any OpenAI-compatible endpoint)"),
  s("HOOT_LLM_BASE_URL", "string", "https://api.openai.com/v1", {}, "for `openai`"),
  s("HOOT_LLM_API_KEY", "string", "", {}, "for `openai`"),
  s("HOOT_LLM_MODEL", "string", "gpt-4o-mini", {}, "for `openai`"),
  s("HOOT_LLM_FIRST_TOKEN_TIMEOUT_MS", "int", 15000, { min: 10, max: 600000 }, "provider time limits"),
  s("HOOT_LLM_STALL_TIMEOUT_MS", "int", 10000, { min: 10, max: 600000 }, "provider time limits"),
  s("HOOT_LOCAL_TOKENS_PER_SECOND", "int", 30, { min: 0, max: 100000 }, "pace of the local engine; 0 = as fast as possible"),
  s("HOOT_HISTORY_BUDGET_CHARS", "int", 6000, { min: 0, max: 1000000 }, "how much past conversation the model sees"),
  s("HOOT_RETENTION_DAYS", "int", 30, { min: 1, max: 36500 }, "conversation data older than this is purged, checked this often"),
  s("HOOT_RETENTION_SWEEP_MS", "int", 3600000, { min: 100, max: 86400000 }, "conversation data older than this is purged, checked this often"),
  s(
    "HOOT_AUDIT_RETENTION_DAYS",
    "int",
    1095,
    { min: 1, max: 36500 },
    "audit rows (who read, exported, erased or deleted a player's data; no content) older than this are purged by the same sweep",
  ),
  s("HOOT_TTS_PROVIDER", "oneOf", "local", { choices: ["local", "openai"] }, "`local` (embedded Flite) or `openai` (`/v1/audio/speech`)"),
  s("HOOT_TTS_BASE_URL", "string", "https://api.openai.com/v1", {}, "for `openai` speech"),
  s("HOOT_TTS_API_KEY", "string", "", {}, "for `openai` speech"),
  s("HOOT_TTS_MODEL", "string", "tts-1", {}, "for `openai` speech"),
  s(
    "HOOT_TTS_WORKERS",
    "int",
    null,
    { min: 1, max: 256, shown: "the cores hoot may run on (its CPU affinity, what `nproc` prints)" },
    "speech synthesis workers",
  ),
  s(
    "HOOT_TTS_TIMEOUT_MS",
    "int",
    15000,
    { min: 10, max: 600000 },
    "local: work deadline of one sentence, counted from when a worker takes it (not queueing); openai: longest wait for the service's next bytes",
  ),
  s(
    "HOOT_TTS_MAX_TURNS",
    "int",
    0,
    { min: 0, max: 100000 },
    "turns that may speak at once; 0 = local: as many as the measured engine speed keeps in real time, openai: no limit",
  ),
  s("HOOT_TTS_MAX_LAG_MS", "int", 300, { min: 50, max: 600000 }, "local: new turns get no speech while the speech queue is this late"),
  s(
    "HOOT_STT_PROVIDER",
    "oneOf",
    "auto",
    { choices: ["auto", "openai", "pocketsphinx", "none"] },
    "speech recogniser: `openai` (an OpenAI-compatible `/v1/audio/transcriptions`), `pocketsphinx` (Debian's, offline, English), `none`; `auto` = " +
      "`openai` when `HOOT_STT_BASE_URL` is set, else `pocketsphinx` when installed, else `none`",
  ),
  s(
    "HOOT_STT_BASE_URL",
    "string",
    "",
    {},
    "the transcription server, e.g. `http://127.0.0.1:8178/v1` for whisper.cpp's server; no key = no `Authorization` header",
  ),
  s(
    "HOOT_STT_API_KEY",
    "string",
    "",
    {},
    "the transcription server, e.g. `http://127.0.0.1:8178/v1` for whisper.cpp's server; no key = no `Authorization` header",
  ),
  s(
    "HOOT_STT_MODEL",
    "string",
    "whisper-1",
    {},
    "the transcription server, e.g. `http://127.0.0.1:8178/v1` for whisper.cpp's server; no key = no `Authorization` header",
  ),
  s("HOOT_STT_TIMEOUT_MS", "int", 15000, { min: 10, max: 600000 }, "recogniser time limit (then `stt_unavailable`)"),
  s("HOOT_VAD_SILENCE_MS", "int", 700, { min: 100, max: 10000 }, "silence after speech, in the audio received, that ends the child's turn (`check_turn`)"),
  s("HOOT_VAD_MODE", "int", 3, { min: 0, max: 3 }, "WebRTC VAD aggressiveness, 0 (most audio is speech) .. 3 (strictest)"),
  s(
    "HOOT_AUDIO_BUFFER_SECONDS",
    "int",
    60,
    { min: 1, max: 600 },
    "per session: decoded audio kept, encoded bytes accepted between clears; past either `audio_buffer_full`",
  ),
  s(
    "HOOT_AUDIO_BUFFER_BYTES",
    "int",
    8388608,
    { min: 1024, max: 268435456 },
    "per session: decoded audio kept, encoded bytes accepted between clears; past either `audio_buffer_full`",
  ),
  s(
    "HOOT_WS_AUDIO_SECONDS_PER_SECOND",
    "int",
    2,
    { min: 1, max: 1000 },
    "per socket: audio seconds `add_audio` may bring per second of wall clock, and at once",
  ),
  s("HOOT_WS_AUDIO_BURST_SECONDS", "int", 60, { min: 1, max: 3600 }, "per socket: audio seconds `add_audio` may bring per second of wall clock, and at once"),
  s("HOOT_ALLOW_SELF_DELETE", "bool", false, {}, "`DELETE /api/users/me` deletes the calling developer; otherwise 403 `permission_denied`"),
  s(
    "HOOT_MODERATION_PROVIDER",
    "oneOf",
    "none",
    { choices: ["none", "openai", "guard"] },
    "optional moderation model behind the child-safety rules: `none`, `openai` (an OpenAI-compatible `/v1/moderations`), `guard` (a guard model " +
      "such as Llama Guard through `/v1/chat/completions`)",
  ),
  s(
    "HOOT_MODERATION_BASE_URL",
    "string",
    null,
    { shown: "`https://api.openai.com/v1` (`http://127.0.0.1:11434/v1` for `guard`, Ollama)" },
    "moderation endpoint base URL",
  ),
  s("HOOT_MODERATION_API_KEY", "string", "", {}, "moderation API key (never logged)"),
  s("HOOT_MODERATION_MODEL", "string", null, { shown: "`omni-moderation-latest` (`llama-guard3` for `guard`)" }, "moderation model"),
  s(
    "HOOT_MODERATION_TIMEOUT_MS",
    "int",
    1500,
    { min: 50, max: 60000 },
    "past this a check fails safe: the sentence is held and replaced by a safe line, never passed",
  ),
  s(
    "HOOT_UTILITY_TIMEOUT_MS",
    "int",
    10000,
    { min: 10, max: 600000 },
    "deadline of one utility call; past it the utility's value is a `utility_timeout` error",
  ),
  s("HOOT_UTILITY_MODEL", "string", "", {}, "model for utility side calls when `HOOT_LLM_PROVIDER=openai` (same server, same key)"),
  s(
    "HOOT_CORS_ORIGINS",
    "origins",
    null,
    { shown: "none" },
    "web origins (comma-separated, exact: `https://app.example.com,http://localhost:5173`; `*` = any) whose pages may call the developer " +
      "endpoints; login and health answer any origin",
  ),
  s(
    "HOOT_WS_ORIGINS",
    "origins",
    null,
    { shown: "any" },
    "web origins whose pages may open `/interact` (same form); apps that send no `Origin` (native apps) are never refused",
  ),
  s(
    "HOOT_METRICS_TOKEN",
    "string",
    "",
    {},
    "bearer token (≥ 16 characters) that `GET /metrics` requires; unset: `/metrics` is served only in the `dev` environment",
  ),
  s(
    "HOOT_DB_LOCK_TIMEOUT_MS",
    "int",
    5000,
    { min: 10, max: 600000 },
    "how long a write waits (without blocking anything else) while another process holds the database's write lock (PostgreSQL: a row lock; it is " +
      "each connection's `lock_timeout`); then 503 `database_busy` with `Retry-After`",
  ),
  s(
    "HOOT_SHUTDOWN_DRAIN_MS",
    "int",
    10000,
    { min: 0, max: 600000 },
    "on SIGTERM, how long in-flight requests and streams may finish before what is left is closed; give your supervisor a grace period a little " +
      "longer (`docker stop -t 15`, `stop_grace_period: 15s`)",
  ),
  s(
    "HOOT_WS_CLOSE_AT_TOKEN_EXPIRY",
    "bool",
    false,
    {},
    "close an authenticated socket with 4401 (`token_expired`) when its token expires; by default it stays open (the Unity SDK never " + "re-authenticates)",
  ),
  s(
    "HOOT_WS_MAX_SESSION_SECONDS",
    "int",
    43200,
    { min: 10, max: 604800 },
    "the longest a socket stays open after it first authenticates, then `session_expired` and close 4401",
  ),
  s(
    "HOOT_PROMPT_BUDGET_CHARS",
    "int",
    24000,
    { min: 2000, max: 4000000 },
    "the most characters sent to the model in one turn (about 6,000 tokens); long context values keep their end and old history is dropped to fit",
  ),
  s(
    "HOOT_OIDC_ISSUER",
    "string",
    "",
    {},
    "OpenID Connect issuer for console single sign-on (https; http only on loopback); unset: API-key sign-in. Requires `HOOT_PUBLIC_URL`",
  ),
  s("HOOT_OIDC_CLIENT_ID", "string", "", {}, "the console's client at the provider (no secret: a public client with PKCE)"),
  s("HOOT_PUBLIC_URL", "string", "", {}, "the origin browsers use (`https://hoot.example.com`); required with `HOOT_OIDC_ISSUER`, and set it behind a proxy"),
  s("HOOT_OIDC_CLIENT_SECRET", "string", "", {}, "the console's client at the provider (no secret: a public client with PKCE)"),
  s(
    "HOOT_OIDC_TOKEN_AUTH_METHOD",
    "oneOf",
    "client_secret_basic",
    { choices: ["client_secret_basic", "client_secret_post"] },
    "or `client_secret_post`, as the client is registered",
  ),
  s("HOOT_OIDC_PROVIDER_NAME", "string", null, { shown: "the issuer's host" }, "shown on the sign-in button"),
  s("HOOT_CONSOLE_SESSION_IDLE_MINUTES", "int", 120, { min: 1, max: 43200 }, "console session lifetimes"),
  s("HOOT_CONSOLE_SESSION_MAX_HOURS", "int", 12, { min: 1, max: 720 }, "console session lifetimes"),
  s(
    "HOOT_SIGN_IN_STARTS_PER_ADDRESS",
    "int",
    30,
    { min: 1, max: 100000 },
    "single sign-ons one client address may start in ten minutes (console and SDK flows together); past it 429. Behind a proxy set " +
      "`HOOT_TRUST_PROXY`, or every client shares one budget",
  ),
  s(
    "HOOT_CONFIG_MAX_BYTES",
    "int",
    null,
    { min: 256, max: 16777216, shown: "the message size, `HOOT_WS_MAX_MESSAGE_BYTES` (65536)" },
    "configuration held by a session (after `set_configuration` or `merge_configuration`, references resolved), as JSON",
  ),
  s("HOOT_CONFIG_MAX_CONTEXT_KEYS", "int", 1000, { min: 1, max: 100000 }, "keys of the configuration's `context`, counted at every depth"),
  s("HOOT_CONFIG_MAX_CONTEXT_DEPTH", "int", 8, { min: 1, max: 32 }, 'levels of lists and objects inside a `context` value (`{"a": {"b": 1}}` is one level)'),
  s("HOOT_MAX_SERVICE_ACCOUNTS_PER_TEAM", "int", 100, { min: 1, max: 1000000 }, "service accounts per team"),
  s("HOOT_MAX_PENDING_INVITATIONS_PER_TEAM", "int", 100, { min: 1, max: 1000000 }, "invitations waiting per team"),
  s("HOOT_MAX_CONSOLE_SESSIONS_PER_DEVELOPER", "int", 10, { min: 1, max: 10000 }, "console sessions per developer"),
  s(
    "HOOT_MAX_STORED_CONFIG_BYTES_PER_TEAM",
    "int",
    67108864,
    { min: 1024, max: 68719476736 },
    "bytes of stored configurations and utilities per team, every version counted",
  ),
  s("HOOT_INCIDENTS_PER_PLAYER_PER_MINUTE", "int", 30, { min: 1, max: 1000000 }, "safety incidents written per player per minute"),
  s("HOOT_MAX_STORED_NAMES_PER_KIND", "int", 1000, { min: 1, max: 1000000 }, "stored names per kind (configurations, and apart utilities) per team"),
  s("HOOT_MAX_STORED_VERSIONS_PER_NAME", "int", 1000, { min: 1, max: 1000000 }, "versions per stored name"),
  s("HOOT_MAX_STORED_BODY_BYTES", "int", 65536, { min: 1024, max: 16777216 }, "one stored configuration or utility, as JSON"),
  s("HOOT_MAX_SAFETY_POLICIES_PER_TEAM", "int", 100, { min: 1, max: 100000 }, "safety policies per team"),
  s("HOOT_WS_MAX_RUNS_AT_ONCE", "int", 4, { min: 1, max: 1000 }, "`run` requests working at once (and, apart, `transcribe` requests)"),
  s("HOOT_WS_MAX_QUEUED_AUDIO_CHUNKS", "int", 64, { min: 1, max: 100000 }, "`add_audio` chunks waiting to be decoded outside the message count"),
  s(
    "HOOT_DATABASE_URL",
    "string",
    "",
    {},
    "`postgres://user:password@host:5432/hoot` runs on PostgreSQL, shared by every node (needs `HOOT_SECRET_KEY`); see [More than one " +
      "machine](cluster.md)",
  ),
  s("HOOT_DATABASE_POOL_SIZE", "int", 10, { min: 1, max: 1000 }, "connections each node keeps to PostgreSQL at most"),
];

const BY_NAME = new Map(SETTINGS.map((s) => [s.name, s]));

/**
 * The table's entry for a setting; throws for a name the table does not hold (a programming error, caught by the tests).
 * @example settingOf("HOOT_PORT").default // 8080
 */
export function settingOf(name: string): Setting {
  const setting = BY_NAME.get(name);
  if (!setting) throw new Error(`${name} is not in the settings table (src/settings.ts)`);
  return setting;
}

/** The default as the docs show it (Markdown). */
export function shownDefault(s: Setting): string {
  if (s.shown !== undefined) return s.shown;
  if (s.default === "" || s.default === null) return "(empty)";
  return `\`${String(s.default)}\``;
}

/** Markdown without its marks, for a terminal: links keep their text, code its content. */
export function plain(markdown: string): string {
  return markdown
    .replace(/\[([^\]]+)\]\([^)]+\)/g, "$1")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/\*\*([^*]+)\*\*/g, "$1");
}

/** The settings table of docs/settings.md. */
export function settingsMarkdown(): string {
  const rows = SETTINGS.map((s) => {
    const bounds =
      s.min !== undefined && s.max !== undefined ? ` (${s.min} to ${s.max})` : s.choices ? ` (${s.choices.map((c) => `\`${c}\``).join(", ")})` : "";
    return `| \`${s.name}\` | ${shownDefault(s)}${bounds} | ${s.help} |`;
  });
  return ["| setting | default | meaning |", "|---|---|---|", ...rows].join("\n");
}
