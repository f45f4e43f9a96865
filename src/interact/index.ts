/**
 * src/interact owns the websocket: everything that knows the wire (request and message schemas, toWire,
 * the session state machine, socket bookkeeping, the AsyncAPI document). The engine below it yields frames
 * and knows nothing of this; the client SDK imports its types.
 *
 * This file: the interact websocket at `/interact` (the root of the same host and port as `/api`) and its
 * AsyncAPI document at `/api/asyncapi.json`. Transport only: each socket event becomes a call on the
 * connections module (bookkeeping) or on the socket's session (the protocol).
 *
 * Message size: Bun's own `maxPayloadLength` (set in app.ts) is only a backstop well above
 * HOOT_WS_MAX_MESSAGE_BYTES, because Bun closes an oversized message's socket with 1009 and no word of why.
 * hoot's limit is checked by the session on the raw message, which then says why (`message_too_large`) first.
 */
import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import type { Engine } from "../engine/types.ts";
import { clientAddress } from "../http/client-address.ts";
import { asyncApiDocument } from "./asyncapi.ts";
import { createConnections, type Connections } from "./connections.ts";
import { conversationHistory } from "./history.ts";
import type { InteractSession } from "./session.ts";

export interface Interact {
  plugin: Elysia;
  connections: Connections;
}

/** The interact controller and its connections. */
export function interactRoutes(deps: Deps, engine: Engine): Interact {
  const connections = createConnections(deps, engine, conversationHistory(deps, deps.config.historyBudgetChars, deps.config.dbLockTimeoutMs));
  // Built on its first request, off the start-up path.
  let document: string | null = null;
  const plugin = new Elysia({ name: "interact" })
    .get("/api/asyncapi.json", () => new Response((document ??= JSON.stringify(asyncApiDocument())), { headers: { "content-type": "application/json; charset=utf-8" } }), { detail: { hide: true } })
    .ws("/interact", {
      detail: { hide: true },
      open(ws) {
        // The address the upgrade came from, as every per-address limit sees it (behind HOOT_TRUST_PROXY, the
        // address the proxy saw, not the proxy's own: otherwise every client would share one pending limit).
        const { request, server } = ws.data;
        const session = connections.open(ws.id, ws.raw, clientAddress(request, server, deps.config.trustProxy));
        if (session) takeRawMessages(ws.raw, session);
      },
      message(ws, message) {
        // Only reached when takeRawMessages could not take over: Elysia has parsed the message already.
        void connections.get(ws.id)?.receive(message);
      },
      close(ws, code) {
        connections.closed(ws.id, code);
      },
    });
  return { plugin: plugin as unknown as Elysia, connections };
}

/**
 * Routes the socket's raw messages straight to its session, before Elysia parses them: the session needs the
 * raw size to enforce hoot's own limit, and parses the JSON itself. Elysia dispatches each Bun socket event to
 * the handler stored on the socket's `data` (its `message` field); replacing that handler is how this socket
 * opts out of Elysia's parsing. Should Elysia ever stop doing so, messages still arrive through `message`
 * above (parsed, with only Bun's backstop limit), and the size-limit test fails.
 */
function takeRawMessages(socket: { data: unknown }, session: InteractSession): void {
  const data = socket.data as { message?: unknown } | null;
  if (typeof data?.message !== "function") return;
  data.message = (_socket: unknown, message: string | Uint8Array) => void session.receive(message);
}
