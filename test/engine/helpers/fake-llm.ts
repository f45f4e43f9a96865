/**
 * An LlmProvider fake that implements the real interface: scripted tokens, delays, failures before the first
 * token (for a number of calls) or after some tokens, and an option to ignore the abort signal (a provider
 * stuck on a dead socket). Records every request and whether it saw its signal abort.
 */
import { LlmError } from "../../../src/engine/llm/errors.ts";
import type { LlmProvider, LlmRequest } from "../../../src/engine/llm/types.ts";
import { sleep } from "../../../src/engine/pipeline/abort.ts";

export interface FakeLlmOptions {
  tokens?: string[];
  /** Delay before every token. */
  delayMs?: number;
  /** Extra delay before the first token. */
  firstDelayMs?: number;
  /** The first N calls throw `error` before any token. */
  failCalls?: number;
  /** Throw `error` after this many tokens (every call). */
  failAfter?: number;
  error?: LlmError | Error;
  /** Keep waiting even when the signal aborts. */
  ignoreAbort?: boolean;
}

export class FakeLlm implements LlmProvider {
  readonly name = "fake";
  readonly requests: LlmRequest[] = [];
  abortedCalls = 0;
  closed = 0;
  firstTokenAt: number[] = [];

  constructor(public options: FakeLlmOptions = {}) {}

  async *stream(request: LlmRequest): AsyncIterable<string> {
    this.requests.push(request);
    const call = this.requests.length;
    const o = this.options;
    const error = o.error ?? new LlmError("fake failure", "server", true, 500);
    const wait = async (ms: number): Promise<boolean> => {
      if (o.ignoreAbort) await Bun.sleep(ms);
      else await sleep(ms, request.signal);
      if (request.signal.aborted) this.abortedCalls++;
      return !request.signal.aborted || o.ignoreAbort === true;
    };
    if (o.firstDelayMs && !(await wait(o.firstDelayMs))) return;
    if (call <= (o.failCalls ?? 0)) throw error;
    const tokens = o.tokens ?? ["Hello", " there!"];
    for (let i = 0; i < tokens.length; i++) {
      if (o.failAfter !== undefined && i === o.failAfter) throw error;
      if (o.delayMs && !(await wait(o.delayMs))) return;
      if (request.signal.aborted && !o.ignoreAbort) {
        this.abortedCalls++;
        return;
      }
      if (i === 0) this.firstTokenAt.push(performance.now());
      yield tokens[i] as string;
    }
  }

  async close(): Promise<void> {
    this.closed++;
  }
}
