/**
 * A self-signed certificate for 127.0.0.1, made at test time with `openssl` (the `openai` package's realtime
 * client dials `wss://` only), and the `openai` package's own realtime websocket client pointed at a hoot
 * server with that certificate as its trusted authority.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import OpenAI from "openai";
import { OpenAIRealtimeWS } from "openai/realtime/ws";
import { ServerEventSchema } from "../../../src/realtime/events.ts";

const documented = TypeCompiler.Compile(ServerEventSchema);

export interface TlsFiles {
  certFile: string;
  keyFile: string;
  /** The certificate's PEM text, to trust it. */
  ca: string;
}

/** Makes a one-day self-signed certificate for 127.0.0.1 and localhost in a fresh temp folder. */
export function selfSignedCert(): TlsFiles {
  const dir = mkdtempSync(join(tmpdir(), "hoot-tls-"));
  const certFile = join(dir, "cert.pem");
  const keyFile = join(dir, "key.pem");
  const made = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:localhost",
    ],
    { encoding: "utf8" },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a test certificate: ${made.stderr}`);
  return { certFile, keyFile, ca: readFileSync(certFile, "utf8") };
}

export type Event = Record<string, any>;

/** The `openai` package's OpenAIRealtimeWS on `${httpsUrl}/v1`, with every event queued for the test to wait on. */
export class OpenAiRealtime {
  readonly events: Event[] = [];
  readonly errors: Error[] = [];
  /** Server events that match no schema of the documented union (src/realtime/events.ts): always empty. */
  readonly undocumented: Event[] = [];
  private cursor = 0;
  private wake: (() => void) | null = null;
  readonly rt: OpenAIRealtimeWS;
  readonly closed: Promise<number>;

  constructor(httpsUrl: string, token: string, ca: string, model = "hoot") {
    const client = new OpenAI({ apiKey: token, baseURL: `${httpsUrl}/v1` });
    // `options` go to the websocket as they are: the test's certificate is the only trusted authority.
    this.rt = new OpenAIRealtimeWS({ model, options: { ca } as object }, client);
    this.rt.on("event", (event) => {
      this.events.push(event);
      if (!documented.Check(event)) this.undocumented.push(event);
      this.wake?.();
    });
    this.rt.on("error", (error) => {
      this.errors.push(error);
      this.wake?.();
    });
    this.closed = new Promise((resolve) => {
      this.rt.socket.on("close", (code: number) => {
        resolve(code);
        this.wake?.();
      });
    });
  }

  send(event: Event): void {
    this.rt.send(event as never);
  }

  /** The next event of `type` (or matching), skipping others; throws after `ms`. */
  async next(match: string | ((e: Event) => boolean), ms = 15_000): Promise<Event> {
    const test = typeof match === "string" ? (e: Event) => e.type === match : match;
    const deadline = Date.now() + ms;
    for (;;) {
      while (this.cursor < this.events.length) {
        const e = this.events[this.cursor++]!;
        if (test(e)) return e;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting; last events ${JSON.stringify(this.events.slice(-3)).slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /** Every event from here up to and including the next one of `type`. */
  async until(type: string, ms = 20_000): Promise<Event[]> {
    const from = this.cursor;
    await this.next(type, ms);
    return this.events.slice(from, this.cursor);
  }

  close(): void {
    this.rt.close();
  }
}
