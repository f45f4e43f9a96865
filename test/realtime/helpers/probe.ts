/**
 * A raw websocket client for the /v1/realtime tests: the upgrade with a bearer header or the browsers'
 * subprotocols, every event queued, a wait for the next event of a type, and how the socket closed.
 */
import { QueuedSocket } from "../../helpers/ws.ts";

export type Event = Record<string, any>;

export class RtProbe extends QueuedSocket {
  /** Every event received, in order. */
  get events(): Event[] {
    return this.messages;
  }

  /** Opens `${httpUrl}/v1/realtime` with a bearer token, or (`protocols`) the subprotocols a browser offers. */
  static async open(httpUrl: string, auth: { token?: string; protocols?: string[] }, query = "?model=hoot"): Promise<RtProbe> {
    return QueuedSocket.connect((ws) => new RtProbe(ws), `${httpUrl.replace(/^http/, "ws")}/v1/realtime${query}`, {
      ...(auth.token ? { headers: { Authorization: `Bearer ${auth.token}` } } : {}),
      ...(auth.protocols ? { protocols: auth.protocols } : {}),
    });
  }

  /** The next event (after those already taken) of `type` (or matching), skipping others; throws after `ms`. */
  override async next(match: string | ((e: Event) => boolean) = () => true, ms = 10_000): Promise<Event> {
    return super.next(typeof match === "string" ? (e: Event) => e.type === match : match, ms);
  }

  /** Every event up to and including the next one of `type`. */
  async until(type: string, ms = 15_000): Promise<Event[]> {
    const from = this.taken;
    await this.next(type, ms);
    return this.events.slice(from, this.taken);
  }
}
