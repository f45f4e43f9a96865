/**
 * src/realtime: the OpenAI Realtime wire at `GET /v1/realtime` (PROTOCOL.md section 7), a second door to
 * the same characters: its sockets are the interact socket's connections (the same caps, per-player count,
 * revocations and shutdown), and each one's session is an InteractSession underneath (session.ts).
 *
 * This file: the upgrade. The credential is a player access token, as `Authorization: Bearer <token>` or, for
 * browsers, the subprotocol `openai-insecure-api-key.<token>` offered beside `realtime`; it is checked before
 * the upgrade, and anything else is a 401 with the usual JSON body. The server selects `realtime` when it is
 * offered. `?model=` is accepted: a served model's name picks it, anything else means the default.
 */
import { Elysia } from "elysia";
import type { CallerResolver } from "../auth/caller.ts";
import type { Config } from "../config.ts";
import { Unauthorized } from "../errors.ts";
import { clientAddress } from "../http/client-address.ts";
import type { Connections } from "../interact/connections.ts";
import type { InteractSession, SessionSocket } from "../interact/session.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import { type RealtimePorts, RealtimeSession } from "./session.ts";

/** What the realtime door needs from the app. */
export interface RealtimeNeeds {
  config: Pick<Config, "trustProxy" | "wsMaxMessageBytes" | "wsMessagesPerMinute" | "wsMaxQueuedAudioChunks" | "wsMaxInteractChars">;
  logger: Logger;
  metrics: Pick<Metrics, "authFailures">;
  callers: Pick<CallerResolver, "fromToken">;
}

const KEY_PROTOCOL = "openai-insecure-api-key.";

/** The realtime controller, over the interact socket's connections. */
export function realtimeRoutes(deps: RealtimeNeeds, engine: { voices(): string[] }, connections: Connections, models: ReadonlyMap<string, string>): Elysia {
  const ports: RealtimePorts = {
    limits: {
      maxMessageBytes: deps.config.wsMaxMessageBytes,
      messagesPerMinute: deps.config.wsMessagesPerMinute,
      queuedAudioChunks: deps.config.wsMaxQueuedAudioChunks,
      maxInteractChars: deps.config.wsMaxInteractChars,
    },
    voices: () => engine.voices(),
    logger: deps.logger,
  };
  const plugin = new Elysia({ name: "realtime" }).get(
    "/v1/realtime",
    async ({ request, server, set, query }) => {
      const offered = (request.headers.get("sec-websocket-protocol") ?? "")
        .split(",")
        .map((one) => one.trim())
        .filter(Boolean);
      const token = bearer(request.headers.get("authorization")) ?? offered.find((one) => one.startsWith(KEY_PROTOCOL))?.slice(KEY_PROTOCOL.length) ?? "";
      const caller = token === "" ? null : await deps.callers.fromToken(token);
      if (caller?.kind !== "player") {
        deps.metrics.authFailures.inc({ reason: "realtime_bad_token" });
        deps.logger.warn({ event: "realtime_auth_failed", tokenChars: token.length }, "realtime upgrade refused");
        throw new Unauthorized();
      }
      const model = typeof query.model === "string" && models.has(query.model) ? query.model : ([...models.keys()][0] ?? "default");
      const address = clientAddress(request, server, deps.config.trustProxy);
      const data = new RealtimeSocket(connections, ports, address, token, model);
      const headers: Record<string, string> = { ...(set.headers as Record<string, string>) };
      if (offered.includes("realtime")) headers["sec-websocket-protocol"] = "realtime";
      if (server?.upgrade(request, { data, headers })) return;
      set.status = 400;
      return { error: "expected a websocket upgrade (GET with Upgrade: websocket)", code: "invalid_request" };
    },
    { detail: { hide: true } },
  );
  return plugin as unknown as Elysia;
}

function bearer(header: string | null): string | null {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? (match[1] as string) : null;
}

let socketCount = 0;
const SOCKET_ID_PREFIX = `rt${crypto.getRandomValues(new Uint32Array(1))[0]!.toString(36)}`;

/** One socket's data and its events (Elysia's websocket handler calls open, message and close, as for InteractSocket). */
export class RealtimeSocket {
  readonly id = `${SOCKET_ID_PREFIX}.${(++socketCount).toString(36)}`;
  private session: RealtimeSession | null = null;

  constructor(
    private readonly connections: Connections,
    private readonly ports: RealtimePorts,
    private readonly address: string,
    private token: string,
    private readonly model: string,
  ) {}

  open(ws: SessionSocket): void {
    const session = new RealtimeSession(this.id, ws, this.ports, this.model);
    const interact: InteractSession | null = this.connections.open(this.id, session.wire, this.address);
    if (!interact) return;
    this.session = session;
    session.start(interact, this.token);
    // The token lives on only inside the interact session's identity.
    this.token = "";
  }

  message(_ws: unknown, message: string | Uint8Array): void {
    this.session?.receive(message);
  }

  close(_ws: unknown, code: number): void {
    this.session?.closed();
    this.session = null;
    this.connections.closed(this.id, code);
  }
}
