/**
 * Builders for the messages the server sends (PROTOCOL.md section 2), so every envelope carries the uid,
 * the echoed client time and the two server times in one consistent way.
 */
import { formatMicros, nowMicros } from "./times.ts";

/** What every answer to one request shares: its uid, the echoed client time, and when it arrived. */
export interface RequestStamp {
  uid: string;
  clientStartTime: string | null;
  serverStart: number;
}

type Payload = Record<string, unknown>;

// A stream sends many messages with the same start time: format it once per request.
const startText = new WeakMap<RequestStamp, string>();

function times(stamp: RequestStamp): Payload {
  let start = startText.get(stamp);
  if (start === undefined) startText.set(stamp, (start = formatMicros(stamp.serverStart)));
  return {
    client_start_time: stamp.clientStartTime,
    server_start_time: start,
    server_end_time: formatMicros(nowMicros()),
  };
}

/** `{"type":"response","kind",…}` answering a request. */
export function response(kind: string, stamp: RequestStamp, payload: Payload = {}): string {
  return JSON.stringify({ type: "response", kind, uid: stamp.uid, ...times(stamp), ...payload });
}

/** `{"type":"response","kind":"error",…}` for a request that failed. */
export function errorResponse(stamp: RequestStamp, error: string, code: string): string {
  return JSON.stringify({ type: "response", kind: "error", uid: stamp.uid, error, code, ...times(stamp) });
}

/** `{"type":"stream","kind":"interact","event",…}` for one event of an interaction. */
export function streamEvent(stamp: RequestStamp, payload: Payload): string {
  return JSON.stringify({ type: "stream", kind: "interact", uid: stamp.uid, ...times(stamp), ...payload });
}

/** `{"type":"stream","kind":"error",…}` for a stream that failed before it could run. */
export function streamError(stamp: RequestStamp, error: string, code: string): string {
  return JSON.stringify({ type: "stream", kind: "error", uid: stamp.uid, error, code, ...times(stamp) });
}

/** `{"type":"stream","kind":"close",…}`: the end of every stream. */
export function streamClose(stamp: RequestStamp): string {
  return JSON.stringify({ type: "stream", kind: "close", uid: stamp.uid, ...times(stamp) });
}

/** `{"type":"error",…}`: a connection-fatal problem, sent just before the socket closes. */
export function fatal(error: string, code: string): string {
  return JSON.stringify({ type: "error", error, code });
}

/** Close codes (PROTOCOL.md section 4). */
export const CloseCode = {
  goingAway: 1001,
  policy: 1008,
  tooBig: 1009,
  tryAgainLater: 1013,
  tokenExpired: 4401,
  revoked: 4403,
  rateLimited: 4429,
} as const;
