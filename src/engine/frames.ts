/**
 * The typed frames that flow between the stages of one turn (Pipecat style):
 *
 *   llm (token strings) -> chunker -> ReplyFrame -> safety -> ReplyFrame -> split:
 *     text and notice frames go straight to the output; speech frames go to the speech stage -> AudioFrame.
 *
 * A `text` frame is a fragment to show now; a `speech` frame is a whole unit to speak (the first clause or a
 * sentence), derived from the same text. Keeping them apart is what lets text flow without waiting for audio.
 */
import type { AudioChunk } from "./tts/types.ts";

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

/** What the chunker produces and the safety stage consumes and produces. */
export type ReplyFrame = TextFrame | SpeechFrame | NoticeFrame;

/** One chunk of synthesized audio and the sentence it speaks. */
export interface AudioFrame {
  type: "audio";
  chunk: AudioChunk;
  text: string;
}

/** Everything the turn output queue carries. */
export type OutputFrame = TextFrame | NoticeFrame | AudioFrame;
