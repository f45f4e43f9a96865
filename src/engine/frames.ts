/**
 * The typed frames of one turn (Pipecat style). Inside the pipeline:
 *
 *   llm (token strings) -> chunker -> ReplyFrame -> safety -> ReplyFrame -> split:
 *     text, notice and data frames go straight to the output; speech frames go to the speech stage -> AudioFrame.
 *
 * Out of the engine comes a stream of TurnFrame: fragments, sentence audio, notices, data, then exactly one
 * `complete` or one `error` (nothing at all once the turn's signal aborts). Frames carry no wire knowledge:
 * audio is raw bytes, nothing is base64 or JSON; src/interact/protocol.ts turns frames into messages.
 *
 * A `text` frame is a fragment to show now; a `speech` frame is a whole unit to speak (the first clause or a
 * sentence), derived from the same text. Keeping them apart is what lets text flow without waiting for audio.
 */
import type { AudioChunk, SpeechMarks, SubtitleMark, VisemeMark } from "./vocabulary.ts";

/** A fragment of the reply, sent to the client as soon as it exists. */
export interface TextFrame {
  type: "text";
  text: string;
}

/** A unit of speech: the turn's short first clause, then whole sentences, in reply order. */
export interface SpeechFrame {
  type: "speech";
  text: string;
}

/** A safety decision to report (category and action only, never the offending text). */
export interface NoticeFrame {
  type: "notice";
  category: string;
  action: string;
}

/** Results to hand to the app by name (utilities). */
export interface DataFrame {
  type: "data";
  data: Record<string, unknown>;
}

/** What the chunker produces and the safety stage consumes and produces. */
export type ReplyFrame = TextFrame | SpeechFrame | NoticeFrame | DataFrame;

/** One chunk of a sentence's synthesized audio, numbered from 0 within the turn. */
export interface AudioFrame {
  type: "audio";
  chunk: AudioChunk;
  /** The sentence this audio speaks. */
  text: string;
  seq: number;
  /** The length of this chunk's audio as a client decodes it (MP3: whole frames, the encoder's delay included). */
  durationSec: number;
  /** The marks the turn asked for (TurnInput.marks), timed from the start of this chunk's audio. */
  marks?: FrameMarks;
}

/** Word and mouth timings of one audio frame: only the kinds the turn asked for are present. */
export interface FrameMarks {
  marks: SpeechMarks["marks"];
  subtitles?: SubtitleMark[];
  visemes?: VisemeMark[];
}

/** Why a turn failed; the codes are part of the wire's error codes (src/errors.ts). */
export const TURN_ERROR_CODES = ["llm_timeout", "llm_unavailable", "tts_failed", "engine_error"] as const;
export type TurnErrorCode = (typeof TURN_ERROR_CODES)[number];

/** The turn failed after the frames already yielded; nothing follows it. */
export interface ErrorFrame {
  type: "error";
  code: TurnErrorCode;
  /** A sentence for the app developer; never a provider's message, a URL or a key. */
  error: string;
}

/** The reply ended normally: the whole text as yielded, and whether audio had been asked for. */
export interface CompleteFrame {
  type: "complete";
  text: string;
  audio: boolean;
}

/**
 * Audio was asked for but speech capacity is short: this reply comes as text only. Sent before any text, so an
 * app knows up front; the turn still ends with `complete` saying audio was asked for (audio_complete follows).
 */
export interface SpeechUnavailableFrame {
  type: "speech_unavailable";
}

/** Everything a turn yields. New kinds (a transcript, held-back notices) are additions to this union. */
export type TurnFrame = TextFrame | AudioFrame | NoticeFrame | DataFrame | SpeechUnavailableFrame | ErrorFrame | CompleteFrame;
