/**
 * One turn, wired as a pipeline of stages over typed frames:
 *
 *   prompt -> llm (timeouts, one retry) -> chunker -> safety -> split
 *      text/notice/data frames ---------------------------------> output
 *      speech frames -> sentences -> speech stage -> audio -------> output
 *
 * Two loops (pumps) write into one output Channel, so text is never held back by audio; this generator reads
 * the output and ends with a `complete` frame. Rules it keeps:
 * - when `input.signal` aborts, nothing more is yielded: the output queue drops what it holds and releases
 *   the reader at once, and the turn's own signal stops the model request and every synthesis;
 * - a failure anywhere yields one error frame after the frames already produced, stops every stage, and
 *   ends the turn; the turn never throws for provider failures;
 * - every stage is stopped in `finally`, also when the consumer walks away early, and the pumps are awaited
 *   there (as LiveKit's stream adapters do), so no loop of a finished turn is still running.
 */
import { chunkStage } from "./chunker/index.ts";
import type { ReplyFrame, TurnFrame } from "./frames.ts";
import { llmStage } from "./llm/stage.ts";
import type { StreamTimeouts } from "./llm/timeouts.ts";
import type { LlmProvider } from "./llm/types.ts";
import type { EngineLogger } from "./logger.ts";
import { notify, type TurnObserver, type TurnOutcome } from "./observer.ts";
import { Channel, childController } from "./pipeline/index.ts";
import { assemblePrompt } from "./prompt/index.ts";
import { type SafetyStage, scriptedReply } from "./safety/index.ts";
import { speechStage } from "./speech/index.ts";
import type { SpeechTicket, TtsProvider } from "./tts/types.ts";
import { toErrorFrame } from "./turn-errors.ts";
import type { TurnInput } from "./types.ts";

export interface TurnDeps {
  llm: LlmProvider;
  tts: TtsProvider | null;
  safety: SafetyStage;
  logger: EngineLogger;
  /** Characters of remembered conversation the model sees. */
  historyBudgetChars: number;
  /** Characters of prompt in all (prompt/budget.ts); its default when absent. */
  promptBudgetChars?: number;
  llmTimeouts: StreamTimeouts;
  /** Sees the turn's timings and ending (metrics). */
  observer?: TurnObserver;
}

type OutputFrame = Exclude<TurnFrame, { type: "error" | "complete" }>;

/** The ticket of a provider that admits every turn (no admit()). */
const NO_TICKET: SpeechTicket = { release() {} };

/**
 * Runs one turn and yields its frames in order.
 * @example for await (const frame of runTurn(input, deps)) send(toWire(frame, stamp))
 */
export async function* runTurn(input: TurnInput, deps: TurnDeps): AsyncGenerator<TurnFrame> {
  if (input.signal.aborted) return;
  const began = performance.now();
  // Latencies the caller's client sees count from when the caller received the request.
  const since = input.receivedAt ?? began;
  const observer = deps.observer;
  const { controller, dispose } = childController(input.signal);
  const signal = controller.signal;
  const out = new Channel<OutputFrame>(input.signal);
  const stats: { replyChars: number; audioChunks: number; firstTextMs: number; firstAudioMs: number; outcome: TurnOutcome; speech: string } = {
    replyChars: 0,
    audioChunks: 0,
    firstTextMs: -1,
    firstAudioMs: -1,
    outcome: "complete",
    speech: "admitted",
  };
  const fail = (error: unknown): void => {
    out.fail(error);
    controller.abort();
  };

  const prompt = assemblePrompt(
    { prompt: input.config.prompt, text: input.text, context: input.context, history: input.history },
    deps.historyBudgetChars,
    deps.promptBudgetChars,
  );
  deps.logger.debug(
    {
      inputChars: input.text.length,
      historyKept: prompt.historyKept,
      historyTotal: input.history.length,
      missingVars: prompt.missingVars,
      audio: input.audioOutput,
    },
    "turn started",
  );
  const request = { messages: prompt.messages, temperature: input.config.temperature, signal };
  // Safety hooks: a reply the caller's policy already wrote (a redirect line) replaces the model and is not
  // checked again; otherwise the turn's TurnSafety gates the model's reply sentence by sentence.
  const scripted = input.reply !== undefined;
  const tokens = scripted
    ? scriptedReply(input.reply as string)
    : llmStage(
        deps.llm,
        request,
        deps.llmTimeouts,
        (error) => deps.logger.warn({ category: error.category, status: error.status }, "language model failed before its first token, retrying"),
        observer?.firstToken && (() => notify(() => observer.firstToken?.(performance.now() - began))),
      );
  const safetyTurn = {
    signal,
    context: input.context,
    languageCode: input.config.language_code,
    policy: input.config.safety_policy,
    safety: scripted ? undefined : input.safety,
  };
  const frames = deps.safety.run(chunkStage(tokens), safetyTurn);

  // Speech is admitted up front or not at all: a turn the speech engine cannot serve in time is told so before
  // its first text and goes on as text only, never failing half-way through (tts/types.ts, admit()).
  const ticket = input.audioOutput && deps.tts ? (deps.tts.admit ? deps.tts.admit() : NO_TICKET) : null;
  if (input.audioOutput && deps.tts && !ticket) {
    stats.speech = "refused";
    out.push({ type: "speech_unavailable" });
  }
  const sentences = ticket ? new Channel<string>(signal) : null;
  const pumps = [pump(split(frames, sentences), out, fail)];
  if (sentences && deps.tts && ticket) {
    pumps.push(
      pump(
        speechStage(sentences, {
          tts: deps.tts,
          voice: input.config.voice_profile ?? {},
          format: input.config.audio_format,
          signal,
          ticket,
          marks: input.marks,
        }),
        out,
        fail,
      ),
    );
  }
  const pumped = Promise.all(pumps).then(() => out.close());

  try {
    let reply = "";
    for await (const frame of out) {
      if (input.signal.aborted) break;
      if (frame.type === "text") {
        if (stats.firstTextMs < 0) {
          stats.firstTextMs = performance.now() - since;
          if (observer) notify(() => observer.firstText?.(stats.firstTextMs));
        }
        reply += frame.text;
      } else if (frame.type === "audio") {
        if (stats.firstAudioMs < 0) {
          stats.firstAudioMs = performance.now() - since;
          if (observer) notify(() => observer.firstAudio?.(stats.firstAudioMs));
        }
        stats.audioChunks++;
      }
      yield frame;
    }
    stats.replyChars = reply.length;
    if (input.signal.aborted) return;
    yield { type: "complete", text: reply, audio: input.audioOutput };
  } catch (error) {
    if (input.signal.aborted) return;
    const frame = toErrorFrame(error);
    stats.outcome = frame.code;
    deps.logger.warn({ code: frame.code, category: (error as { category?: string }).category }, "turn failed");
    yield frame;
  } finally {
    if (input.signal.aborted && stats.outcome === "complete") stats.outcome = "interrupted";
    controller.abort();
    // Every stage has been told to stop; their loops end promptly (each honours the signal or is raced against it).
    await pumped;
    ticket?.release();
    dispose();
    const totalMs = performance.now() - since;
    if (observer) notify(() => observer.finished?.(stats.outcome, totalMs));
    deps.logger.info({ ...stats, totalMs: Math.round(totalMs) }, "turn finished");
  }
}

/** Sends speech frames to the speech stage and passes every other reply frame on; closes the sentences at the end. */
async function* split(frames: AsyncIterable<ReplyFrame>, sentences: Channel<string> | null): AsyncGenerator<OutputFrame> {
  for await (const frame of frames) {
    if (frame.type === "speech") sentences?.push(frame.text);
    else yield frame;
  }
  sentences?.close();
}

/** Copies a stage's frames into the output; a failure fails the turn. Never rejects. */
async function pump(frames: AsyncIterable<OutputFrame>, out: Channel<OutputFrame>, fail: (e: unknown) => void): Promise<void> {
  try {
    for await (const frame of frames) out.push(frame);
  } catch (error) {
    fail(error);
  }
}
