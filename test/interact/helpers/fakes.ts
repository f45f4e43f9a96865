/**
 * Fakes for the session's ports, implementing the real interfaces: a socket that records what was sent and
 * how it closed, an engine that plays scripted frames (honouring its signal), a history that records turns
 * and can be made slow or failing, and an authenticator with a table of tokens.
 */

import type { TurnFrame } from "../../../src/engine/frames.ts";
import { silentLogger } from "../../../src/engine/logger.ts";
import { sleep } from "../../../src/engine/pipeline/abort.ts";
import type { Engine, HistoryMessage, TurnInput } from "../../../src/engine/types.ts";
import type { History, TurnRecord } from "../../../src/interact/history.ts";
import { InteractSession, type PlayerIdentity, type SessionLimits, type SessionPorts } from "../../../src/interact/session.ts";
import type { VoicePorts } from "../../../src/interact/voice.ts";

export type Msg = Record<string, any>;

export class FakeSocket {
  readonly sent: Msg[] = [];
  closedWith: { code: number; reason?: string } | null = null;
  send(data: string): number {
    this.sent.push(JSON.parse(data) as Msg);
    return data.length;
  }
  close(code: number, reason?: string): void {
    this.closedWith = { code, reason };
  }
  /** What was sent for `uid`, as "event" names (or "close", "error" for stream ends). */
  stream(uid: string): string[] {
    return this.sent.filter((m) => m.uid === uid).map((m) => m.event ?? m.kind);
  }
}

export class FakeEngine implements Pick<Engine, "runTurn" | "voices"> {
  readonly inputs: TurnInput[] = [];
  constructor(
    public frames: TurnFrame[] = [
      { type: "text", text: "Hi" },
      { type: "text", text: " there." },
      { type: "complete", text: "Hi there.", audio: false },
    ],
    public delayMs = 0,
  ) {}
  voices(): string[] {
    return ["kid", "owl"];
  }
  async *runTurn(input: TurnInput): AsyncGenerator<TurnFrame> {
    this.inputs.push(input);
    for (const frame of this.frames) {
      if (this.delayMs) await sleep(this.delayMs, input.signal);
      if (input.signal.aborted) return;
      // As the real engine: the complete frame says whether audio was asked for.
      yield frame.type === "complete" ? { ...frame, audio: input.audioOutput } : frame;
    }
  }
}

export class FakeHistory implements History {
  readonly records: { playerId: number; turn: TurnRecord }[] = [];
  messages: HistoryMessage[] = [];
  /** When set, `record` waits for this before storing (and fails if it rejects). */
  gate: Promise<void> | null = null;
  failWith: Error | null = null;
  async load(): Promise<HistoryMessage[]> {
    return this.messages;
  }
  async record(playerId: number, turn: TurnRecord): Promise<void> {
    if (this.gate) await this.gate;
    if (this.failWith) throw this.failWith;
    this.records.push({ playerId, turn });
  }
}

export const LIMITS: SessionLimits = {
  authTimeoutMs: 10_000,
  maxMessageBytes: 1024,
  messagesPerMinute: 1000,
  maxInteractChars: 100,
  clockToleranceSeconds: 0,
  closeAtTokenExpiry: false,
  maxSessionMs: 12 * 3600 * 1000,
  configuration: { maxBytes: 64 * 1024, maxContextKeys: 1000, maxContextDepth: 8 },
  runsAtOnce: 4,
  queuedAudioChunks: 64,
};

export interface Harness {
  session: InteractSession;
  socket: FakeSocket;
  engine: FakeEngine;
  history: FakeHistory;
  admitted: number[];
  /** Sends a message and waits until it (and the turn it started, if any) has been handled. */
  send(message: Msg | string): Promise<void>;
  /** Sends a request and returns its answer. */
  request(kind: string, fields?: Msg): Promise<Msg>;
}

/** A session over fakes; `tokens` maps access tokens to players (default: "good" is player 7, expiring in an hour). */
export function harness(
  options: { tokens?: Record<string, PlayerIdentity>; limits?: Partial<SessionLimits>; engine?: FakeEngine; admit?: boolean; voice?: VoicePorts } = {},
): Harness {
  const socket = new FakeSocket();
  const engine = options.engine ?? new FakeEngine();
  const history = new FakeHistory();
  const admitted: number[] = [];
  const tokens = new Map(Object.entries(options.tokens ?? { good: { playerId: 7, serviceAccountId: 3, expiresAt: Date.now() / 1000 + 3600 } }));
  const ports: SessionPorts = {
    engine,
    history,
    logger: silentLogger,
    limits: { ...LIMITS, ...options.limits },
    models: new Map([["local", "the local stand-in"]]),
    ...(options.voice ? { voice: options.voice } : {}),
    authenticate: async (token) => tokens.get(token) ?? null,
    admit: (_session, playerId) => {
      if (options.admit === false) return false;
      admitted.push(playerId);
      return true;
    },
  };
  const session = new InteractSession("s1", socket, ports);
  let n = 0;
  const send = async (message: Msg | string) => {
    await session.receive(typeof message === "string" ? message : JSON.stringify(message));
  };
  return {
    session,
    socket,
    engine,
    history,
    admitted,
    send,
    async request(kind, fields = {}) {
      const uid = `r${++n}`;
      await send({ type: "request", kind, uid, ...fields });
      return socket.sent.findLast((m) => m.uid === uid) as Msg;
    },
  };
}
