/**
 * One turn, wired as a pipeline of stages over typed frames:
 *
 *   prompt -> llm (timeouts, one retry) -> chunker -> safety -> split
 *      text/notice frames --------------------------------------> output
 *      speech frames -> sentences -> speech stage -> audio -------> output
 *
 * Two pumps write into one output queue, so text is never held back by audio. The reader (this generator)
 * turns frames into events, then adds text_complete and audio_complete. Rules it keeps:
 * - when `input.signal` aborts, nothing more is yielded: the output queue drops what it holds and releases
 *   the reader at once, and the turn's own signal stops the model request and every synthesis;
 * - a failure anywhere yields one interaction_error after the frames already produced, stops every stage, and
 *   ends the turn; the turn never throws for provider failures;
 * - every stage is stopped in `finally`, also when the consumer walks away early.
 */
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import { chunkStage } from "./chunker/index.ts";
import type { OutputFrame, ReplyFrame } from "./frames.ts";
import { llmStage } from "./llm/stage.ts";
import type { LlmProvider } from "./llm/types.ts";
import { Channel, childController } from "./pipeline/index.ts";
import { assemblePrompt } from "./prompt/index.ts";
import type { SafetyStage } from "./safety/index.ts";
import { speechStage } from "./speech/index.ts";
import type { TtsProvider } from "./tts/types.ts";
import { toInteractionError } from "./turn-errors.ts";
import type { TurnEvent, TurnInput } from "./types.ts";

export interface TurnDeps {
  config: Pick<Config, "historyBudgetChars" | "llmFirstTokenTimeoutMs" | "llmStallTimeoutMs">;
  llm: LlmProvider;
  tts: TtsProvider | null;
  safety: SafetyStage;
  logger: Logger;
}

/**
 * Runs one turn and yields its events in wire order.
 * @example for await (const event of runTurn(input, deps)) socket.send(event)
 */
export async function* runTurn(input: TurnInput, deps: TurnDeps): AsyncGenerator<TurnEvent> {
  if (input.signal.aborted) return;
  const began = performance.now();
  const { controller, dispose } = childController(input.signal);
  const signal = controller.signal;
  const out = new Channel<OutputFrame>(input.signal);
  const stats = { replyChars: 0, audioChunks: 0, firstTextMs: -1, firstAudioMs: -1, outcome: "complete" };
  const fail = (error: unknown): void => {
    out.fail(error);
    controller.abort();
  };

  const prompt = assemblePrompt({ prompt: input.config.prompt, text: input.text, context: input.context, history: input.history }, deps.config.historyBudgetChars);
  deps.logger.debug({ inputChars: input.text.length, historyKept: prompt.historyKept, historyTotal: input.history.length, missingVars: prompt.missingVars, audio: input.audioOutput }, "turn started");
  const request = { messages: prompt.messages, temperature: input.config.temperature, signal, hints: prompt.hints };
  const timeouts = { firstTokenMs: deps.config.llmFirstTokenTimeoutMs, stallMs: deps.config.llmStallTimeoutMs };
  const tokens = llmStage(deps.llm, request, timeouts, (error) => deps.logger.warn({ category: error.category, status: error.status }, "language model failed before its first token, retrying"));
  const frames = deps.safety.run(chunkStage(tokens), { signal, context: input.context, languageCode: input.config.language_code });

  const sentences = input.audioOutput && deps.tts ? new Channel<string>(signal) : null;
  const pumps = [pumpReply(frames, out, sentences, fail)];
  if (sentences && deps.tts) {
    const audio = speechStage(sentences, { tts: deps.tts, voice: input.config.voice_profile ?? {}, format: input.config.audio_format, signal });
    pumps.push(pumpAudio(audio, out, fail));
  }
  void Promise.all(pumps).then(() => out.close());

  try {
    let reply = "";
    let seq = 0;
    for await (const frame of out) {
      if (input.signal.aborted) break;
      if (frame.type === "text") {
        if (stats.firstTextMs < 0) stats.firstTextMs = performance.now() - began;
        reply += frame.text;
        yield { event: "text", text: frame.text };
      } else if (frame.type === "audio") {
        if (stats.firstAudioMs < 0) stats.firstAudioMs = performance.now() - began;
        stats.audioChunks++;
        const { data, mimeType, sampleRate } = frame.chunk;
        const audio = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
        yield { event: "audio", audio, mime_type: mimeType, sample_rate: sampleRate, seq: seq++, text: frame.text };
      } else {
        yield { event: "safety_policy", category: frame.category, action: frame.action };
      }
    }
    stats.replyChars = reply.length;
    if (input.signal.aborted) {
      stats.outcome = "interrupted";
      return;
    }
    yield { event: "text_complete", text: reply };
    if (input.audioOutput) yield { event: "audio_complete" };
  } catch (error) {
    if (input.signal.aborted) {
      stats.outcome = "interrupted";
      return;
    }
    const event = toInteractionError(error);
    stats.outcome = event.code;
    deps.logger.warn({ code: event.code, category: (error as { category?: string }).category }, "turn failed");
    yield event;
  } finally {
    if (input.signal.aborted && stats.outcome === "complete") stats.outcome = "interrupted";
    controller.abort();
    dispose();
    deps.logger.info({ ...stats, totalMs: Math.round(performance.now() - began) }, "turn finished");
  }
}

/** Sends text and notice frames to the output and speech frames to the speech stage. */
async function pumpReply(frames: AsyncIterable<ReplyFrame>, out: Channel<OutputFrame>, sentences: Channel<string> | null, fail: (e: unknown) => void): Promise<void> {
  try {
    for await (const frame of frames) {
      if (frame.type === "speech") sentences?.push(frame.text);
      else out.push(frame);
    }
    sentences?.close();
  } catch (error) {
    fail(error);
  }
}

/** Sends the speech stage's audio frames to the output. */
async function pumpAudio(audio: AsyncIterable<OutputFrame>, out: Channel<OutputFrame>, fail: (e: unknown) => void): Promise<void> {
  try {
    for await (const frame of audio) out.push(frame);
  } catch (error) {
    fail(error);
  }
}
