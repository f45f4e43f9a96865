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
import type { Engine } from "../engine/index.ts";
import { clientAddress } from "../http/client-address.ts";
import { asyncApiDocument } from "./asyncapi.ts";
import { type Connections, createConnections, type InteractNeeds, type InteractPorts } from "./connections.ts";
import type { InteractSession, SessionSocket } from "./session.ts";

export interface Interact {
  plugin: Elysia;
  connections: Connections;
}

/** The interact controller and its connections. */
export function interactRoutes(deps: InteractNeeds, engine: Engine, ports: InteractPorts): Interact {
  const connections = createConnections(deps, engine, ports);
  // Built on its first request, off the start-up path.
  let document: string | null = null;
  const plugin = new Elysia({ name: "interact" })
    .get(
      "/api/asyncapi.json",
      () => new Response((document ??= JSON.stringify(asyncApiDocument())), { headers: { "content-type": "application/json; charset=utf-8" } }),
      { detail: { hide: true } },
    )
    .get(
      "/interact",
      ({ request, server, set }) => {
        // The address the upgrade came from, as every per-address limit sees it (behind HOOT_TRUST_PROXY, the
        // address the proxy saw, not the proxy's own: otherwise every client would share one pending limit).
        const data = new InteractSocket(connections, clientAddress(request, server, deps.config.trustProxy));
        const headers = set.headers as Record<string, string>;
        if (server?.upgrade(request, { data, headers: Object.keys(headers).length > 0 ? headers : undefined })) return;
        set.status = 400;
        return { error: "expected a websocket upgrade (GET with Upgrade: websocket)", code: "invalid_request" };
      },
      { detail: { hide: true } },
    );
  return { plugin: plugin as unknown as Elysia, connections };
}

/**
 * One socket's data, and its events. Elysia's websocket handler (which the server is started with) calls
 * `ws.data.open`, `.message` and `.close` for every socket; these are methods on the prototype, so a socket
 * costs this small object and its session, not a context object and a set of closures per upgrade (what
 * Elysia's `.ws()` keeps for each socket, the upgrade's Request and Headers among them). Messages reach the
 * session raw: it needs the raw size to enforce hoot's own limit, and parses the JSON itself.
 */
let socketCount = 0;
const SOCKET_ID_PREFIX = crypto.getRandomValues(new Uint32Array(1))[0]!.toString(36);

export class InteractSocket {
  /** Unique on this node, across restarts too (a random prefix per process): sessions and socket leases are keyed by it. */
  readonly id = `${SOCKET_ID_PREFIX}.${(++socketCount).toString(36)}`;
  private session: InteractSession | null = null;

  constructor(
    private readonly connections: Connections,
    /** Needed only until the socket opens (the connections keep it while the socket waits to authenticate). */
    private address: string,
  ) {}

  open(ws: SessionSocket): void {
    this.session = this.connections.open(this.id, ws, this.address);
    this.address = "";
  }

  message(_ws: unknown, message: string | Uint8Array): void {
    void this.session?.receive(message);
  }

  close(_ws: unknown, code: number): void {
    this.session = null;
    this.connections.closed(this.id, code);
  }
}
