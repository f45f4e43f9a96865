/**
 * The session's voice requests: `add_audio` (decode a chunk into the buffer; with `barge_in`, a child heard
 * speaking over a reply stops it), `transcribe` (ask the recogniser in the background, like `run`, so an
 * interrupt is not queued behind it), `clear_audio` and `check_turn`. The buffer itself and the recogniser are
 * voice.ts's. A session makes its VoiceRequestSession (and so its buffer) at its first voice request; before
 * that, `clear_audio` and `check_turn` answer as for an empty buffer.
 */
import { type EngineLogger, VoiceInputError } from "../engine/index.ts";
import type { ErrorCode } from "../errors.ts";
import type { BackgroundRuns } from "./configure.ts";
import type { RequestOf } from "./model.ts";
import { errorResponse, type RequestStamp, response, type ServerMessage } from "./protocol.ts";
import type { RunningTurn } from "./turn.ts";
import { type SessionVoice, voiceFailure } from "./voice.ts";

/** The parts of a session the voice requests read and answer through. */
export interface VoiceRequestSession {
  readonly id: string;
  readonly voice: SessionVoice;
  /** `transcribe` requests waiting for the recogniser (they answer later, like `run`). */
  readonly transcriptions: BackgroundRuns;
  readonly logger: EngineLogger;
  isClosed(): boolean;
  /** The configuration's language and barge-in, when configured. */
  configured(): { language_code?: string; barge_in?: boolean } | null;
  runningTurn(): RunningTurn | null;
  send(message: ServerMessage): void;
  refuse(stream: boolean, stamp: RequestStamp, error: string, code: ErrorCode): void;
  /** Counts a refused chunk as a message after all. */
  countMessage(): void;
}

/**
 * Decodes a chunk into the buffer. With `barge_in` configured, a chunk in which the child is heard speaking
 * while a reply streams stops that reply, as an interrupt does (the history keeps what was sent).
 */
export async function addAudio(session: VoiceRequestSession, request: RequestOf<"add_audio">, stamp: RequestStamp, uncounted: boolean): Promise<void> {
  const outcome = await session.voice.add(request.audio, request.config);
  if (session.isClosed()) return;
  if (!outcome.ok) {
    session.send(errorResponse(stamp, outcome.error, outcome.code));
    if (uncounted) session.countMessage();
    return;
  }
  session.send(response("add_audio", stamp, {}));
  const running = session.runningTurn();
  if (session.configured()?.barge_in && running?.replying && outcome.value.turn.speaking) {
    session.logger.info({ event: "barge_in", session: session.id }, "the child spoke over the reply: interrupting it");
    await running.stop();
  }
}

/** `transcribe` asks the recogniser in the background (like `run`), so an interrupt is not queued behind it. */
export async function transcribe(session: VoiceRequestSession, request: RequestOf<"transcribe">, stamp: RequestStamp): Promise<void> {
  const runs = session.transcriptions;
  if (!runs.available) {
    return session.refuse(false, stamp, `at most ${runs.limit} transcribe requests may be working at once; wait for an answer`, "too_many_requests");
  }
  // The buffer as it is now, in arrival order; it is kept (only an interact without text consumes it).
  const heard = await session.voice.snapshot(false);
  if (session.isClosed()) return;
  if (!heard) return session.refuse(false, stamp, "nothing to transcribe: there is no buffered audio; send add_audio first", "no_audio");
  const language = request.language_code || session.configured()?.language_code || "en";
  runs.start(
    async (signal) => {
      try {
        const { transcript } = await session.voice.transcribe(heard, language, Number.MAX_SAFE_INTEGER, signal);
        if (!signal.aborted) session.send(response("transcribe", stamp, { text: transcript }));
      } catch (error) {
        if (signal.aborted || !(error instanceof VoiceInputError)) throw error;
        const failure = voiceFailure(error);
        session.send(errorResponse(stamp, failure.error, failure.code));
      } finally {
        // The copy handed to the recogniser is not kept a moment longer than its answer.
        heard.wav.fill(0);
      }
    },
    (error) => {
      if (session.isClosed()) return;
      session.logger.error({ event: "ws_handler_error", session: session.id, err: (error as Error).message }, "transcribe failed");
      session.send(errorResponse(stamp, "internal error", "internal"));
    },
  );
}

/**
 * `clear_audio`'s answer, after dropping the buffered audio (a session that never sent audio has none). Always
 * succeeds, also on an empty buffer: the Unity SDK sends it before every turn and ends its conversation on any error.
 */
export function clearAudio(session: VoiceRequestSession | null, stamp: RequestStamp): ServerMessage {
  session?.voice.clear();
  return response("clear_audio", stamp, {});
}

/** What `check_turn` answers: false before any audio or speech. */
export function isUserStillSpeaking(session: VoiceRequestSession | null): boolean {
  return session?.voice.isUserStillSpeaking() ?? false;
}
