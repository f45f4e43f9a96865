/**
 * One Realtime response: the interact stream of one turn (src/interact/turn.ts, over the engine's frames)
 * written as the GA event sequence. `response.created` first; on the turn's start the output item and its
 * content part; then `response.output_text.delta` (text) or `response.output_audio.delta` with
 * `response.output_audio_transcript.delta` (audio); `hoot.safety_policy` where the turn's safety checks acted
 * (always before the delta they concern); and when the stream closes, the `.done` events and `response.done`
 * (completed when the turn was saved, cancelled when it was stopped, failed when it failed).
 *
 * Rules it keeps: `.done` text equals its deltas joined; an audio delta carries its speech marks under `hoot` only
 * when the session asked for them (marks.ts); the audio is re-timed per sentence, so
 * `charactersHeard(ms)` can say how much of the reply a listener heard up to a point (truncate).
 */
import type { ServerMessage } from "../interact/protocol.ts";
import { type AudioFormatType, durationMs, encodeOutput } from "./audio.ts";
import type { ServerEventType } from "./events.ts";
import { deltaMarks, type MarksWanted } from "./marks.ts";

/** A server event before its event_id is added (its type one of the documented ones, events.ts). */
export type OutgoingEvent = { type: ServerEventType } & Record<string, unknown>;

export interface ResponseSetup {
  id: string;
  itemId: string;
  conversationId: string;
  modality: "text" | "audio";
  format: AudioFormatType;
  voice: string;
  /** The speech marks the session asked for, carried on each audio delta under `hoot` (marks.ts). */
  marks: MarksWanted;
  /** The conversation's last item before this response's (its output item follows it). */
  previousItemId: string | null;
  /** The event_id of the client event that asked for it (its errors carry it). */
  causeEventId: string | null;
  send(event: OutgoingEvent): void;
}

type AudioMessage = Extract<ServerMessage, { type: "stream"; event: "audio" }>;

type Status = "in_progress" | "completed" | "cancelled" | "failed";

/** Where one sentence sits in the reply's text and in its audio. */
interface Spoken {
  sentence: string;
  startChar: number;
  endChar: number;
  startMs: number;
  endMs: number;
}

export class ResponseRun {
  private text = "";
  private opened = false;
  private ended = false;
  private saved = false;
  private failure: { code: string; message: string } | null = null;
  private audioMs = 0;
  private readonly spoken: Spoken[] = [];
  private finished!: () => void;
  /** Resolves once response.done has been sent. */
  readonly done = new Promise<void>((resolve) => {
    this.finished = resolve;
  });

  constructor(private readonly setup: ResponseSetup) {}

  get id(): string {
    return this.setup.id;
  }

  get itemId(): string {
    return this.setup.itemId;
  }

  /** The speech marks this response's audio deltas carry. */
  get marks(): MarksWanted {
    return this.setup.marks;
  }

  get isDone(): boolean {
    return this.ended;
  }

  /** Whether this response speaks (only audio can be truncated). */
  get speaks(): boolean {
    return this.setup.modality === "audio";
  }

  /** The reply's text so far (its deltas joined). */
  get transcript(): string {
    return this.text;
  }

  /** The whole audio so far, in ms. */
  get audioLength(): number {
    return this.audioMs;
  }

  /** `response.created`. */
  created(): void {
    this.setup.send({ type: "response.created", response: this.response("in_progress") });
  }

  /** One message of the turn's interact stream. */
  onMessage(message: ServerMessage): void {
    if (this.ended || message.type !== "stream") return;
    if (message.kind === "close") return this.finish();
    if (message.kind === "error") {
      this.failure = { code: message.code, message: message.error };
      return;
    }
    switch (message.event) {
      case "interaction_started":
        return this.open();
      case "text":
        return this.onText(message.text);
      case "audio":
        return this.onAudio(message);
      case "safety_policy":
        this.setup.send({ type: "hoot.safety_policy", response_id: this.id, category: message.category, action: message.action });
        return;
      case "interaction_complete":
        this.saved = true;
        return;
      case "interaction_error":
        this.failure = { code: message.code, message: message.error };
        return;
      default:
        // transcript, data, speech_unavailable, text_complete, audio_complete: nothing of them on this wire.
        return;
    }
  }

  /** Ends the response without a turn (stopped before it started, or the socket is closing). */
  finish(): void {
    if (this.ended) return;
    this.ended = true;
    const status: Status = this.failure ? "failed" : this.saved ? "completed" : "cancelled";
    if (this.failure) {
      this.setup.send({
        type: "error",
        error: {
          type: this.failure.code === "internal" ? "server_error" : "invalid_request_error",
          code: this.failure.code,
          message: this.failure.message,
          param: null,
          event_id: this.setup.causeEventId,
        },
      });
    }
    if (this.opened) {
      const { id: response_id, itemId: item_id } = this;
      const at = { response_id, item_id, output_index: 0, content_index: 0 };
      if (this.setup.modality === "text") this.setup.send({ type: "response.output_text.done", ...at, text: this.text });
      else {
        this.setup.send({ type: "response.output_audio.done", ...at });
        this.setup.send({ type: "response.output_audio_transcript.done", ...at, transcript: this.text });
      }
      this.setup.send({ type: "response.content_part.done", ...at, part: this.part() });
      const item = this.item(status === "completed" ? "completed" : "incomplete");
      this.setup.send({ type: "response.output_item.done", response_id, output_index: 0, item });
      this.setup.send({ type: "conversation.item.done", item });
    }
    this.setup.send({ type: "response.done", response: this.response(status) });
    this.finished();
  }

  /** How many characters of the reply a listener heard after `ms` of its audio. */
  charactersHeard(ms: number): number {
    let heard = 0;
    for (const one of this.spoken) {
      if (ms >= one.endMs) heard = one.endChar;
      else if (ms > one.startMs) {
        const share = (ms - one.startMs) / Math.max(1, one.endMs - one.startMs);
        return one.startChar + Math.floor((one.endChar - one.startChar) * share);
      } else break;
    }
    return heard;
  }

  private open(): void {
    if (this.opened) return;
    this.opened = true;
    const item = this.item("in_progress");
    this.setup.send({ type: "response.output_item.added", response_id: this.id, output_index: 0, item });
    this.setup.send({ type: "conversation.item.added", previous_item_id: this.setup.previousItemId, item });
    const part = this.setup.modality === "text" ? { type: "text", text: "" } : { type: "audio", transcript: "" };
    this.setup.send({ type: "response.content_part.added", response_id: this.id, item_id: this.itemId, output_index: 0, content_index: 0, part });
  }

  private onText(delta: string): void {
    this.open();
    this.text += delta;
    const type = this.setup.modality === "text" ? ("response.output_text.delta" as const) : ("response.output_audio_transcript.delta" as const);
    this.setup.send({ type, response_id: this.id, item_id: this.itemId, output_index: 0, content_index: 0, delta });
  }

  private onAudio(message: AudioMessage): void {
    if (this.setup.modality !== "audio") return;
    this.open();
    const sentence = message.text;
    const encoded = encodeOutput(Buffer.from(message.audio, "base64"), message.sample_rate, this.setup.format);
    const ms = durationMs(encoded.byteLength, this.setup.format);
    const last = this.spoken.at(-1);
    if (last && last.sentence === sentence) last.endMs += ms;
    else {
      const from = last?.endChar ?? 0;
      const found = this.text.indexOf(sentence, from);
      const startChar = found >= 0 ? found : from;
      this.spoken.push({ sentence, startChar, endChar: startChar + sentence.length, startMs: this.audioMs, endMs: this.audioMs + ms });
    }
    this.audioMs += ms;
    const delta = Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength).toString("base64");
    const marks = deltaMarks(this.setup.marks, message, message.duration_sec, ms / 1000);
    const at = { response_id: this.id, item_id: this.itemId, output_index: 0, content_index: 0 };
    this.setup.send({ type: "response.output_audio.delta", ...at, delta, ...(marks ? { hoot: marks } : {}) });
  }

  private part(): Record<string, unknown> {
    return this.setup.modality === "text" ? { type: "text", text: this.text } : { type: "audio", transcript: this.text };
  }

  private item(status: "in_progress" | "completed" | "incomplete"): Record<string, unknown> {
    const content =
      status === "in_progress"
        ? []
        : [this.setup.modality === "text" ? { type: "output_text", text: this.text } : { type: "output_audio", transcript: this.text }];
    return { id: this.itemId, object: "realtime.item", type: "message", role: "assistant", status, content };
  }

  private response(status: Status): Record<string, unknown> {
    const details =
      status === "cancelled"
        ? { type: "cancelled", reason: "client_cancelled" }
        : status === "failed"
          ? { type: "failed", error: { type: "server_error", code: this.failure?.code ?? "internal" } }
          : null;
    return {
      id: this.id,
      object: "realtime.response",
      status,
      status_details: details,
      output: this.opened ? [this.item(status === "completed" ? "completed" : status === "in_progress" ? "in_progress" : "incomplete")] : [],
      conversation_id: this.setup.conversationId,
      output_modalities: [this.setup.modality],
      audio: { output: { format: formatObject(this.setup.format), voice: this.setup.voice } },
      max_output_tokens: "inf",
      metadata: null,
      usage: null,
    };
  }
}

/** The wire object of a format. */
export function formatObject(format: AudioFormatType): { type: AudioFormatType; rate?: number } {
  return format === "audio/pcm" ? { type: format, rate: 24000 } : { type: format };
}
