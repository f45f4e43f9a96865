/**
 * Audio in on the Realtime wire, over the interact session's voice input (src/interact/voice.ts, which uses
 * src/engine/voice-in's decoder, voice activity detector and recogniser):
 *  - `input_audio_buffer.append` is an `add_audio` of PCM (G.711 decoded first), paid from the audio budget;
 *  - with server VAD, each append is followed by a `check_turn`: the detector hearing speech start sends
 *    `input_audio_buffer.speech_started` (and stops a running response, as OpenAI's `interrupt_response`
 *    does), and hearing it end (HOOT_VAD_SILENCE_MS of silence) sends `speech_stopped` and commits;
 *  - a commit (the client's, or server VAD's) takes the buffer: `transcribe`, then `clear_audio`, then
 *    `input_audio_buffer.committed` and the user item at once; the transcript follows as
 *    `conversation.item.input_audio_transcription.completed`, and becomes the next response's words
 *    (server VAD starts that response itself unless `create_response` is false, and never over a transcript that
 *    failed or was refused); a transcript refused in
 *    data-lite mode (`stt_consent_required`) is also an `error` event naming the commit.
 * The child's words never reach a log: only lengths and durations.
 */
import { type AudioFormatType, decodeInput, durationMs, FORMAT_RATE } from "./audio.ts";
import { newId } from "./ids.ts";
import type { OutgoingEvent } from "./response.ts";
import type { SessionView } from "./view.ts";

type Reply = { kind: string; error?: string; code?: string; text?: string; is_user_still_speaking?: boolean };

/** What the voice input asks of its session. */
export interface VoiceHost {
  request(kind: string, fields: Record<string, unknown>): Promise<Reply | null>;
  emit(event: OutgoingEvent): void;
  error(cause: string | null, code: string, message: string): void;
  itemAdded(item: { id: string } & Record<string, unknown>): void;
  /** The words of a committed turn (a transcript on its way); `respond`: start a response over them. */
  heard(words: Promise<string>, respond: boolean): void;
  cancelResponse(): Promise<void>;
  view(): SessionView;
}

export class RealtimeVoice {
  /** Audio in the buffer since the last commit or clear, in ms of the wire format. */
  private bufferedMs = 0;
  /** Audio appended since the socket opened, in ms: the clock of speech_started and speech_stopped. */
  private totalMs = 0;
  private speaking = false;
  private speechItem: string | null = null;

  constructor(private readonly host: VoiceHost) {}

  async append(audio: string, cause: string | null): Promise<void> {
    const format: AudioFormatType = this.host.view().inputFormat;
    const pcm = decodeInput(Buffer.from(audio, "base64"), format);
    const chunkMs = durationMs(format === "audio/pcm" ? pcm.byteLength : pcm.byteLength / 2, format);
    const base64 = format === "audio/pcm" ? audio : Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).toString("base64");
    const added = await this.host.request("add_audio", { audio: base64, config: { mime_type: "audio/pcm", sampling_rate: FORMAT_RATE[format] } });
    if (!added) return;
    if (added.kind === "error") return this.host.error(cause, added.code ?? "invalid_audio", added.error ?? "the audio was refused");
    this.bufferedMs += chunkMs;
    this.totalMs += chunkMs;
    const detection = this.host.view().turnDetection;
    if (!detection) return;
    const turn = await this.host.request("check_turn", {});
    const now = turn?.is_user_still_speaking === true;
    if (now && !this.speaking) {
      this.speaking = true;
      this.speechItem = newId("item");
      this.host.emit({ type: "input_audio_buffer.speech_started", audio_start_ms: Math.round(this.totalMs - chunkMs), item_id: this.speechItem });
      await this.host.cancelResponse();
    } else if (!now && this.speaking) {
      this.speaking = false;
      this.host.emit({ type: "input_audio_buffer.speech_stopped", audio_end_ms: Math.round(this.totalMs), item_id: this.speechItem });
      await this.commit(null, detection.create_response);
    }
  }

  /** Takes the buffered audio as a user item; `respond`: server VAD starts the response. */
  async commit(cause: string | null, respond: boolean): Promise<void> {
    if (this.bufferedMs === 0) {
      return this.host.error(cause, "input_audio_buffer_commit_empty", "the input audio buffer is empty: append audio before committing");
    }
    const itemId = this.speechItem ?? newId("item");
    this.speechItem = null;
    // Asked now, in arrival order: the recogniser gets the buffer as it is, and audio appended after the
    // commit goes into the next turn.
    const transcript = this.host.request("transcribe", {});
    await this.host.request("clear_audio", {});
    const durationSeconds = this.bufferedMs / 1000;
    this.bufferedMs = 0;
    this.host.emit({ type: "input_audio_buffer.committed", item_id: itemId, previous_item_id: null });
    this.host.itemAdded({ id: itemId, type: "message", role: "user", status: "completed", content: [{ type: "input_audio", transcript: null }] });
    const words = transcript.then((reply) => {
      if (reply?.kind === "transcribe" && typeof reply.text === "string") {
        this.host.emit({
          type: "conversation.item.input_audio_transcription.completed",
          item_id: itemId,
          content_index: 0,
          transcript: reply.text,
          usage: { type: "duration", seconds: durationSeconds },
        });
        return reply.text;
      }
      if (reply) {
        // Data-lite mode's refusal is the client's to act on (send text instead), not only a failed transcript:
        // the commit is answered by an error event with the code too.
        if (reply.code === "stt_consent_required") this.host.error(cause, reply.code, reply.error ?? "speech recognition needs a parent's consent");
        this.host.emit({
          type: "conversation.item.input_audio_transcription.failed",
          item_id: itemId,
          content_index: 0,
          error: { type: "transcription_error", code: reply.code ?? "stt_failed", message: reply.error ?? "the audio could not be transcribed" },
        });
      }
      return "";
    });
    this.host.heard(words, respond);
  }

  /** `input_audio_buffer.clear`: answered by `input_audio_buffer.cleared`. */
  async clear(): Promise<void> {
    await this.host.request("clear_audio", {});
    this.bufferedMs = 0;
    this.speaking = false;
    this.speechItem = null;
    this.host.emit({ type: "input_audio_buffer.cleared" });
  }
}
