/**
 * HTTP/1.1 over a raw TCP socket, for what `fetch` will not send: a chosen Host header, a websocket upgrade
 * handshake, a body that stops half-way.
 */
import type { Socket } from "bun";

export interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Sends `request` (a full HTTP/1.1 message) to 127.0.0.1:`port`, reads until the server closes or `ms`. */
export function rawRequest(port: number, request: string, ms = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let text = "";
    let done = false;
    const finish = (socket?: Socket) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket?.end();
      resolve(parse(text));
    };
    const timer = setTimeout(() => (text ? finish() : reject(new Error("no answer"))), ms);
    Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(socket) {
          socket.write(request);
        },
        data(socket, chunk) {
          text += new TextDecoder().decode(chunk);
          if (complete(text)) finish(socket);
        },
        close() {
          finish();
        },
        error(_socket, error) {
          if (!done) reject(error);
        },
      },
    }).catch(reject);
  });
}

/** A JSON POST with an explicit Host header. */
export function rawPost(port: number, path: string, host: string, body: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const text = JSON.stringify(body);
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  return rawRequest(
    port,
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n${extra}Connection: close\r\n\r\n${text}`,
  );
}

/** A websocket upgrade handshake with an explicit Host (and optional Origin). */
export function rawUpgrade(port: number, path: string, host: string, origin?: string): Promise<RawAnswer> {
  return rawRequest(
    port,
    `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${origin ? `Origin: ${origin}\r\n` : ""}\r\n`,
  );
}

// A whole answer: an upgrade's head (the connection then stays open), or a head and its Content-Length of body.
function complete(text: string): boolean {
  const end = text.indexOf("\r\n\r\n");
  if (end === -1) return false;
  if (/^HTTP\/1\.1 101/.test(text)) return true;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end));
  return length !== null && Buffer.byteLength(text.slice(end + 4)) >= Number(length[1]);
}

function parse(text: string): RawAnswer {
  const end = text.indexOf("\r\n\r\n");
  const head = end === -1 ? text : text.slice(0, end);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  let body = end === -1 ? "" : text.slice(end + 4);
  if (headers.get("transfer-encoding") === "chunked") body = unchunk(body);
  return { status: Number(statusLine.split(" ")[1] ?? 0), headers, body };
}

function unchunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const line = rest.indexOf("\r\n");
    if (line === -1) return out;
    const size = parseInt(rest.slice(0, line), 16);
    if (!size) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}
