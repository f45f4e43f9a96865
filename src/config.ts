/**
 * The only reader of the environment. Every setting is listed here with its default; `loadConfig` checks
 * them all and reports one clear line per bad value, so an operator fixes everything in one go.
 *
 * Bun loads `.env` (and `.env.local`, `.env.$NODE_ENV`) from the working folder before this runs, so a
 * `.env` file works for `bun src/main.ts`, `npm start` and the compiled binary alike.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { decodeBase64, type Env, parseHttpUrl, Reader, readDatabaseSettings, readTls, type TlsFiles } from "./config-reader.ts";

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
export type LlmProviderName = "local" | "openai";
export type TtsProviderName = "local" | "openai";
export type SttProviderName = "auto" | "openai" | "pocketsphinx" | "none";

export type ModerationProviderName = "none" | "openai" | "guard";

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databasePath: string;
  env: string;
  /** Raw HOOT_SECRET_KEY (base64) or null: secret-key.ts generates/loads `$dataDir/secret.key` when null. */
  secretKey: string | null;
  logLevel: LogLevel;
  /** Largest HTTP body accepted, bytes. */
  bodyLimit: number;
  /** Failed logins allowed per client address and per key in one window. */
  loginFailuresPerMinute: number;
  tokenTtlSeconds: number;
  clockToleranceSeconds: number;
  /** Trust X-Forwarded-For for the client address (only behind a proxy you run). */
  trustProxy: boolean;
  /** HOOT_TLS_CERT_FILE and HOOT_TLS_KEY_FILE: serve HTTPS/WSS when both are set. */
  tls: TlsFiles | null;

  // websocket limits (PROTOCOL.md section 4)
  wsAuthTimeoutMs: number;
  wsMaxMessageBytes: number;
  wsMessagesPerMinute: number;
  wsMaxInteractChars: number;
  wsMaxSocketsPerPlayer: number;
  wsMaxSockets: number;
  /** Sockets one address may hold open before they authenticate (so one client cannot fill the server). */
  wsMaxUnauthenticatedPerAddress: number;
  /** Bytes queued for a client that does not read before the socket is closed. */
  wsBackpressureLimit: number;

  // language model
  llmProvider: LlmProviderName;
  llmBaseUrl: string;
  llmApiKey: string;
  llmModel: string;
  llmFirstTokenTimeoutMs: number;
  llmStallTimeoutMs: number;
  localTokensPerSecond: number;
  /** Characters of past conversation given to the model. */
  historyBudgetChars: number;
  retentionDays: number;
  retentionSweepMs: number;
  /** Days an audit row is kept (it outlives the player it names, not forever). */
  auditRetentionDays: number;

  // speech
  ttsProvider: TtsProviderName;
  ttsBaseUrl: string;
  ttsApiKey: string;
  ttsModel: string;
  ttsWorkers: number;
  ttsTimeoutMs: number;
  // speech capacity (admission control): see the README's "Speech" section
  /** Turns that may speak at once; 0 = derived from the engine's measured speed (openai: no limit). */
  ttsMaxTurns: number;
  /** New turns get no speech while the speech queue is this late. */
  ttsMaxLagMs: number;

  // voice input (issue 15): recogniser, turn detection, per-session audio buffer, per-socket audio budget
  sttProvider: SttProviderName;
  sttBaseUrl: string;
  sttApiKey: string;
  sttModel: string;
  sttTimeoutMs: number;
  /** Unvoiced audio after speech that ends the child's turn, ms of audio (not wall clock). */
  vadSilenceMs: number;
  /** WebRTC VAD aggressiveness, 0 (most audio counts as speech) .. 3 (strictest). */
  vadMode: number;
  audioBufferSeconds: number;
  audioBufferBytes: number;
  /** Audio seconds a socket may send per second of wall clock, and the burst it may send at once. */
  wsAudioSecondsPerSecond: number;
  wsAudioBurstSeconds: number;

  // accounts
  /** `DELETE /api/users/me` deletes the calling developer (else 403 permission_denied). */
  allowSelfDelete: boolean;
  // child safety: an optional moderation model behind the built-in rules (src/engine/safety/moderation)
  moderationProvider: ModerationProviderName;
  moderationBaseUrl: string;
  moderationApiKey: string;
  moderationModel: string;
  /** Past this, a check fails safe: the sentence is held (replaced by a safe line), never passed. */
  moderationTimeoutMs: number;

  // utilities (src/engine/utilities): classify/extract side calls
  /** Deadline of one utility call; past it the utility's value is a `utility_timeout` error. */
  utilityTimeoutMs: number;
  /** Model for utility side calls with the `openai` provider ("" = HOOT_LLM_MODEL). */
  utilityModel: string;

  // developer console (src/console): single sign-on and sessions
  /** OpenID Connect issuer URL, or null: then the console offers sign-in with a developer API key. */
  oidcIssuer: string | null;
  oidcClientId: string;
  /** Empty for a public client (PKCE alone). */
  oidcClientSecret: string;
  /** How the client secret is sent to the token endpoint. */
  oidcTokenAuthMethod: "client_secret_basic" | "client_secret_post";
  /** Shown on the sign-in button ("Sign in with …"); the issuer's host name by default. */
  oidcProviderName: string;
  /** The origin browsers use to reach hoot (`https://hoot.example.com`), or null: taken from each request. */
  publicUrl: string | null;
  consoleSessionIdleMinutes: number;
  consoleSessionMaxHours: number;
  /** Single sign-ons one client address may start in ten minutes (console and SDK flows together). */
  signInStartsPerAddress: number;

  // hardening: browsers, operators, locks, shutdown
  /** Origins whose pages may call the developer endpoints (login and health allow any); "*" = any. */
  corsOrigins: string[];
  /** Origins whose pages may open the interact websocket; empty = any (apps without an Origin always may). */
  wsOrigins: string[];
  /** Bearer token for GET /metrics; null = /metrics only in the dev environment. */
  metricsToken: string | null;
  /** How long a write waits (asynchronously) for another process's write lock before 503. */
  dbLockTimeoutMs: number;
  /** How long a stop waits for in-flight requests and streams before closing what is left. */
  shutdownDrainMs: number;

  // interact compatibility with the hosted engine's SDKs (long sessions, prompt budget)
  /** Close an authenticated socket with 4401 when its token expires (default: it stays open). */
  wsCloseAtTokenExpiry: boolean;
  /** The longest an authenticated socket stays open, seconds. */
  wsMaxSessionSeconds: number;
  /** Characters of prompt (system message, context, history, the child's words) sent to the language model. */
  promptBudgetChars: number;

  // more than one machine: PostgreSQL (src/db/pg)
  /** `postgres://…` selects PostgreSQL (every node of a deployment points at the same primary); null = SQLite. */
  databaseUrl: string | null;
  /** Connections each node keeps to PostgreSQL at most. */
  databasePoolSize: number;

  // limits (issue 24; docs/limits.md lists every bound with its setting and default)
  /** Bytes (as JSON) of the configuration one session holds; default: HOOT_WS_MAX_MESSAGE_BYTES. */
  configMaxBytes: number;
  /** Keys of a session configuration's `context`, counted at every depth. */
  configMaxContextKeys: number;
  /** Levels of lists and objects inside a `context` value. */
  configMaxContextDepth: number;
  /** Service accounts one team may have (then 409 limit_reached). */
  maxServiceAccountsPerTeam: number;
  /** Invitations one team may have waiting (then 409 limit_reached). */
  maxPendingInvitationsPerTeam: number;
  /** Console sessions one developer may have; a new sign-in signs the oldest out. */
  maxConsoleSessionsPerDeveloper: number;
  /** Bytes of stored configurations (every version, as JSON) one team may keep (then 409 limit_reached). */
  maxStoredConfigBytesPerTeam: number;
  /** Incidents written per player per minute; past it they are counted, not written one by one. */
  incidentsPerPlayerPerMinute: number;
  /** Names of stored configurations (and, apart, of stored utilities) one team may keep. */
  maxStoredNamesPerKind: number;
  /** Versions one stored name may have. */
  maxStoredVersionsPerName: number;
  /** Bytes of one stored configuration or utility, as JSON. */
  maxStoredBodyBytes: number;
  /** Safety policies of its own one team may keep. */
  maxSafetyPoliciesPerTeam: number;
  /** `run` (and apart `transcribe`) requests one socket may have working at once. */
  wsMaxRunsAtOnce: number;
  /** `add_audio` chunks one socket may have waiting to be decoded outside the message count. */
  wsMaxQueuedAudioChunks: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid settings:\n  - ${problems.join("\n  - ")}`);
    this.name = "ConfigError";
  }
}

/**
 * Reads every HOOT_* setting from `env`, applies defaults, and throws one ConfigError listing every bad value.
 * @example const config = loadConfig(process.env)
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = new Reader(env, problems);

  const dataDir = read.string("HOOT_DATA_DIR");
  const envLabel = read.string("HOOT_ENV");
  if (!/^[a-z][a-z0-9]{0,15}$/.test(envLabel)) {
    problems.push(`HOOT_ENV must be a lowercase label of letters and digits (dev, staging, production), got "${envLabel}"`);
  }
  const secretKey = env.HOOT_SECRET_KEY?.trim() || null;
  if (secretKey !== null) {
    const bytes = decodeBase64(secretKey);
    if (!bytes || bytes.length < 32) problems.push("HOOT_SECRET_KEY must be base64 of at least 32 bytes (try: openssl rand -base64 32)");
  } else if (isProductionLabel(envLabel)) {
    problems.push(`HOOT_SECRET_KEY is required when HOOT_ENV is "${envLabel}"`);
  }

  const wsMaxMessageBytes = read.int("HOOT_WS_MAX_MESSAGE_BYTES");
  const config: Config = {
    host: read.string("HOOT_HOST"),
    port: read.int("HOOT_PORT"),
    dataDir,
    databasePath: read.string("HOOT_DATABASE", join(dataDir, "hoot.db")),
    env: envLabel,
    secretKey,
    logLevel: read.oneOf<LogLevel>("HOOT_LOG_LEVEL"),
    bodyLimit: read.int("HOOT_BODY_LIMIT_BYTES"),
    loginFailuresPerMinute: read.int("HOOT_LOGIN_FAILURES_PER_MINUTE"),
    tokenTtlSeconds: read.int("HOOT_TOKEN_TTL_SECONDS"),
    clockToleranceSeconds: read.int("HOOT_CLOCK_TOLERANCE_SECONDS"),
    trustProxy: read.bool("HOOT_TRUST_PROXY"),
    tls: readTls(env, problems),

    wsAuthTimeoutMs: read.int("HOOT_WS_AUTH_TIMEOUT_MS"),
    wsMaxMessageBytes,
    wsMessagesPerMinute: read.int("HOOT_WS_MESSAGES_PER_MINUTE"),
    wsMaxInteractChars: read.int("HOOT_WS_MAX_INTERACT_CHARS"),
    wsMaxSocketsPerPlayer: read.int("HOOT_WS_MAX_SOCKETS_PER_PLAYER"),
    wsMaxSockets: read.int("HOOT_WS_MAX_SOCKETS"),
    wsMaxUnauthenticatedPerAddress: read.int("HOOT_WS_MAX_UNAUTHENTICATED_PER_ADDRESS"),
    wsBackpressureLimit: read.int("HOOT_WS_BACKPRESSURE_BYTES"),

    llmProvider: read.oneOf<LlmProviderName>("HOOT_LLM_PROVIDER"),
    llmBaseUrl: read.string("HOOT_LLM_BASE_URL"),
    llmApiKey: read.string("HOOT_LLM_API_KEY"),
    llmModel: read.string("HOOT_LLM_MODEL"),
    llmFirstTokenTimeoutMs: read.int("HOOT_LLM_FIRST_TOKEN_TIMEOUT_MS"),
    llmStallTimeoutMs: read.int("HOOT_LLM_STALL_TIMEOUT_MS"),
    localTokensPerSecond: read.int("HOOT_LOCAL_TOKENS_PER_SECOND"),
    historyBudgetChars: read.int("HOOT_HISTORY_BUDGET_CHARS"),
    retentionDays: read.int("HOOT_RETENTION_DAYS"),
    retentionSweepMs: read.int("HOOT_RETENTION_SWEEP_MS"),
    auditRetentionDays: read.int("HOOT_AUDIT_RETENTION_DAYS"),

    ttsProvider: read.oneOf<TtsProviderName>("HOOT_TTS_PROVIDER"),
    ttsBaseUrl: read.string("HOOT_TTS_BASE_URL"),
    ttsApiKey: read.string("HOOT_TTS_API_KEY"),
    ttsModel: read.string("HOOT_TTS_MODEL"),
    // The cores this process may run on (its CPU affinity, as `nproc` says), not the machine's.
    ttsWorkers: read.int("HOOT_TTS_WORKERS", Math.max(1, availableParallelism())),
    ttsTimeoutMs: read.int("HOOT_TTS_TIMEOUT_MS"),
    ttsMaxTurns: read.int("HOOT_TTS_MAX_TURNS"),
    ttsMaxLagMs: read.int("HOOT_TTS_MAX_LAG_MS"),

    // voice input
    sttProvider: read.oneOf<SttProviderName>("HOOT_STT_PROVIDER"),
    sttBaseUrl: read.string("HOOT_STT_BASE_URL"),
    sttApiKey: read.string("HOOT_STT_API_KEY"),
    sttModel: read.string("HOOT_STT_MODEL"),
    sttTimeoutMs: read.int("HOOT_STT_TIMEOUT_MS"),
    vadSilenceMs: read.int("HOOT_VAD_SILENCE_MS"),
    vadMode: read.int("HOOT_VAD_MODE"),
    audioBufferSeconds: read.int("HOOT_AUDIO_BUFFER_SECONDS"),
    audioBufferBytes: read.int("HOOT_AUDIO_BUFFER_BYTES"),
    wsAudioSecondsPerSecond: read.int("HOOT_WS_AUDIO_SECONDS_PER_SECOND"),
    wsAudioBurstSeconds: read.int("HOOT_WS_AUDIO_BURST_SECONDS"),

    // accounts
    allowSelfDelete: read.bool("HOOT_ALLOW_SELF_DELETE"),
    // child safety (moderation model)
    moderationProvider: read.oneOf<ModerationProviderName>("HOOT_MODERATION_PROVIDER"),
    moderationBaseUrl: read.string(
      "HOOT_MODERATION_BASE_URL",
      env.HOOT_MODERATION_PROVIDER?.trim() === "guard" ? "http://127.0.0.1:11434/v1" : "https://api.openai.com/v1",
    ),
    moderationApiKey: read.string("HOOT_MODERATION_API_KEY"),
    moderationModel: read.string("HOOT_MODERATION_MODEL", env.HOOT_MODERATION_PROVIDER?.trim() === "guard" ? "llama-guard3" : "omni-moderation-latest"),
    moderationTimeoutMs: read.int("HOOT_MODERATION_TIMEOUT_MS"),
    // utilities
    utilityTimeoutMs: read.int("HOOT_UTILITY_TIMEOUT_MS"),
    utilityModel: read.string("HOOT_UTILITY_MODEL"),

    ...readConsoleSettings(read, problems),

    // hardening
    corsOrigins: read.origins("HOOT_CORS_ORIGINS"),
    wsOrigins: read.origins("HOOT_WS_ORIGINS"),
    metricsToken: read.string("HOOT_METRICS_TOKEN") || null,
    dbLockTimeoutMs: read.int("HOOT_DB_LOCK_TIMEOUT_MS"),
    shutdownDrainMs: read.int("HOOT_SHUTDOWN_DRAIN_MS"),

    // interact compatibility with the hosted engine's SDKs
    wsCloseAtTokenExpiry: read.bool("HOOT_WS_CLOSE_AT_TOKEN_EXPIRY"),
    wsMaxSessionSeconds: read.int("HOOT_WS_MAX_SESSION_SECONDS"),
    promptBudgetChars: read.int("HOOT_PROMPT_BUDGET_CHARS"),

    ...readDatabaseSettings(read, problems, secretKey),
    ...readLimitSettings(read, wsMaxMessageBytes),
  };
  if (config.metricsToken !== null && config.metricsToken.length < 16)
    problems.push("HOOT_METRICS_TOKEN must be at least 16 characters (try: openssl rand -hex 16)");
  if (config.llmProvider === "openai") {
    if (!/^https?:\/\//.test(config.llmBaseUrl)) problems.push("HOOT_LLM_BASE_URL must be an http(s) URL");
  }
  if (config.ttsProvider === "openai") {
    if (!/^https?:\/\//.test(config.ttsBaseUrl)) problems.push("HOOT_TTS_BASE_URL must be an http(s) URL");
  }
  if (config.sttBaseUrl && !/^https?:\/\//.test(config.sttBaseUrl)) problems.push("HOOT_STT_BASE_URL must be an http(s) URL");

  if (config.moderationProvider !== "none" && !/^https?:\/\//.test(config.moderationBaseUrl)) problems.push("HOOT_MODERATION_BASE_URL must be an http(s) URL");
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** The developer console's settings: single sign-on (issuer, client id and public URL together, or none), session lifetimes. */
function readConsoleSettings(read: Reader, problems: string[]) {
  const issuer = read.string("HOOT_OIDC_ISSUER");
  const clientId = read.string("HOOT_OIDC_CLIENT_ID");
  const publicUrl = read.string("HOOT_PUBLIC_URL").replace(/\/+$/, "");
  let issuerHost = "";
  if (issuer) {
    const url = parseHttpUrl(issuer);
    if (!url) problems.push(`HOOT_OIDC_ISSUER must be an https URL (http only on loopback), got "${issuer}"`);
    else if (url.protocol === "http:" && !isLoopbackHost(url.hostname))
      problems.push(`HOOT_OIDC_ISSUER must use https unless it is on loopback, got "${issuer}"`);
    else issuerHost = url.hostname;
    if (!clientId) problems.push("HOOT_OIDC_CLIENT_ID is required when HOOT_OIDC_ISSUER is set");
    // Taken from each request instead, the origin is wrong behind a TLS proxy: cookies lose Secure and the
    // __Host- prefix, Origin checks fail and the provider gets an http redirect URI.
    if (!publicUrl) {
      problems.push("HOOT_PUBLIC_URL is required when HOOT_OIDC_ISSUER is set: the origin browsers use to reach hoot, such as https://hoot.example.com");
    }
  }
  if (publicUrl) {
    const url = parseHttpUrl(publicUrl);
    if (!url || url.pathname !== "/" || url.search || url.hash || url.username) {
      problems.push(`HOOT_PUBLIC_URL must be an origin such as https://hoot.example.com (no path), got "${publicUrl}"`);
    }
  }
  return {
    oidcIssuer: issuer || null,
    oidcClientId: clientId,
    oidcClientSecret: read.string("HOOT_OIDC_CLIENT_SECRET"),
    oidcTokenAuthMethod: read.oneOf<Config["oidcTokenAuthMethod"]>("HOOT_OIDC_TOKEN_AUTH_METHOD"),
    oidcProviderName: read.string("HOOT_OIDC_PROVIDER_NAME", issuerHost),
    publicUrl: publicUrl || null,
    consoleSessionIdleMinutes: read.int("HOOT_CONSOLE_SESSION_IDLE_MINUTES"),
    consoleSessionMaxHours: read.int("HOOT_CONSOLE_SESSION_MAX_HOURS"),
    signInStartsPerAddress: read.int("HOOT_SIGN_IN_STARTS_PER_ADDRESS"),
  };
}

/** The bounds of issue 24: what one session, team, developer or player may grow to (docs/limits.md). */
function readLimitSettings(read: Reader, messageBytes: number) {
  return {
    // The README promises the context "is bounded by the message size": by default it is.
    configMaxBytes: read.int("HOOT_CONFIG_MAX_BYTES", messageBytes),
    configMaxContextKeys: read.int("HOOT_CONFIG_MAX_CONTEXT_KEYS"),
    configMaxContextDepth: read.int("HOOT_CONFIG_MAX_CONTEXT_DEPTH"),
    maxServiceAccountsPerTeam: read.int("HOOT_MAX_SERVICE_ACCOUNTS_PER_TEAM"),
    maxPendingInvitationsPerTeam: read.int("HOOT_MAX_PENDING_INVITATIONS_PER_TEAM"),
    maxConsoleSessionsPerDeveloper: read.int("HOOT_MAX_CONSOLE_SESSIONS_PER_DEVELOPER"),
    maxStoredConfigBytesPerTeam: read.int("HOOT_MAX_STORED_CONFIG_BYTES_PER_TEAM"),
    incidentsPerPlayerPerMinute: read.int("HOOT_INCIDENTS_PER_PLAYER_PER_MINUTE"),
    maxStoredNamesPerKind: read.int("HOOT_MAX_STORED_NAMES_PER_KIND"),
    maxStoredVersionsPerName: read.int("HOOT_MAX_STORED_VERSIONS_PER_NAME"),
    maxStoredBodyBytes: read.int("HOOT_MAX_STORED_BODY_BYTES"),
    maxSafetyPoliciesPerTeam: read.int("HOOT_MAX_SAFETY_POLICIES_PER_TEAM"),
    wsMaxRunsAtOnce: read.int("HOOT_WS_MAX_RUNS_AT_ONCE"),
    wsMaxQueuedAudioChunks: read.int("HOOT_WS_MAX_QUEUED_AUDIO_CHUNKS"),
  };
}

/** 127.0.0.0/8, ::1 and localhost: addresses that never leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** Environment labels that must never run on a generated secret. */
export function isProductionLabel(label: string): boolean {
  return label === "production" || label === "prod" || label === "live";
}
