/**
 * What a session (session.ts) is given and works with: the socket it writes to, the identity a token resolves
 * to, its limits, and the ports to the rest of hoot (engine, history, stored configurations, safety, voice).
 */
import type { Engine, EngineLogger } from "../engine/index.ts";
import type { ConfigurationLimits } from "./config-bounds.ts";
import type { StoredConfigs } from "./configure.ts";
import type { History } from "./history.ts";
import type { ServerMessage } from "./protocol.ts";
import type { SafetyPorts } from "./safety.ts";
import type { VoicePorts } from "./voice.ts";

/** The session as the `admit` port sees it. */
export interface AdmittedSession {
  readonly id: string;
}

/** The transport a session writes to (Bun's ServerWebSocket in production). */
export interface SessionSocket {
  send(data: string): unknown;
  close(code: number, reason?: string): void;
  /** When present, every message goes here as it is instead of `send` as JSON (a second wire adapter: src/realtime). */
  deliver?(message: ServerMessage): void;
}

/** Who a player token belongs to, as far as the session cares. */
export interface PlayerIdentity {
  playerId: number;
  /** The service account that logged the player in (its revocation closes the socket). */
  serviceAccountId: number;
  /** The player's team (team safety policies and incidents); absent only in tests without one. */
  teamId?: number;
  /** Token expiry, seconds since the epoch. */
  expiresAt: number;
}

export interface SessionLimits {
  authTimeoutMs: number;
  maxMessageBytes: number;
  messagesPerMinute: number;
  maxInteractChars: number;
  clockToleranceSeconds: number;
  /** Close with 4401 when the token expires (otherwise an authenticated socket outlives its token). */
  closeAtTokenExpiry: boolean;
  /** The longest a socket stays open after its first authentication. */
  maxSessionMs: number;
  /** Bounds on the configuration the session holds. */
  configuration: ConfigurationLimits;
  /** `run` requests, and apart `transcribe` requests, that may be working at once (HOOT_WS_MAX_RUNS_AT_ONCE). */
  runsAtOnce: number;
  /** `add_audio` chunks that may wait to be decoded outside the message count (HOOT_WS_MAX_QUEUED_AUDIO_CHUNKS). */
  queuedAudioChunks: number;
}

/** full: stored as usual; lite: nothing of the conversation written, audio stays on the machine (data-mode.ts). */
export type DataMode = "full" | "lite";

/** The app's answer, per player: whether their conversation may be stored (consent). */
export interface DataModes {
  mode(playerId: number): Promise<DataMode>;
  /** How much a socket keeps in RAM in lite mode (characters; the history budget). */
  memoryChars: number;
}

export interface SessionPorts {
  engine: Pick<Engine, "runTurn" | "voices"> & Partial<Pick<Engine, "runUtilities">>;
  /** The team's stored configurations and utilities (references in configurations). */
  stored?: StoredConfigs;
  history: History;
  logger: EngineLogger;
  /** Resolves a player access token (signature, expiry, revocation); null when it is not a valid player token. */
  authenticate(token: string): Promise<PlayerIdentity | null>;
  /** Called when a session first authenticates; false when the player already has too many sockets (on several nodes, after asking the database). */
  admit(session: AdmittedSession, playerId: number): boolean | Promise<boolean>;
  /** The language models this server serves, name -> one-line description (get_available_models). */
  models: ReadonlyMap<string, string>;
  limits: SessionLimits;
  /** Team safety policies, incidents and moderation (default: built-in policies only). */
  safety?: SafetyPorts;
  /** Voice input: the recogniser and the buffer and budget settings (default: no recogniser). */
  voice?: VoicePorts;
  /** Whether a player's conversation may be stored (data-lite mode, data-mode.ts); absent: always. */
  dataModes?: DataModes;
}

/**
 * By default at most this many `add_audio` chunks wait to be decoded outside the message count; more count as
 * messages (a client far ahead of the decoder is flooding, not streaming).
 */
export const MAX_QUEUED_AUDIO = 64;

export type SessionState = "connected" | "authenticated" | "configured" | "closed";
