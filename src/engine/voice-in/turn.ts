/**
 * Turn detection in audio time. The VAD classifies every 10 ms frame of the buffered audio; the turn's state
 * follows from the frames alone, never from the wall clock, so a client that pauses its upload (or sends a
 * backlog all at once) gets the same answer as one streaming in real time.
 *
 * Rules:
 * - the child "is speaking" while at least SPEECH_ONSET_MS of the last SPEECH_WINDOW_MS were voiced (so a
 *   click or a cough of one frame is not speech);
 * - the child has "spoken" once that happened anywhere in the buffer;
 * - `isUserStillSpeaking` is true from the first speech until `silenceMs` of unvoiced audio follow the last
 *   voiced frame; before any speech it is false (nobody is talking, so there is nothing to wait for).
 */
import { VAD_FRAME_MS, VAD_FRAME_SAMPLES, type Vad } from "./vad.ts";

const SPEECH_WINDOW_MS = 200;
const SPEECH_ONSET_MS = 80;
const WINDOW_FRAMES = SPEECH_WINDOW_MS / VAD_FRAME_MS;
const ONSET_FRAMES = SPEECH_ONSET_MS / VAD_FRAME_MS;

export interface TurnState {
  /** The child spoke somewhere in the buffered audio. */
  heardSpeech: boolean;
  /** The most recent audio is speech (for barge-in). */
  speaking: boolean;
  /** Unvoiced audio since the last voiced frame, ms (0 before any speech). */
  trailingSilenceMs: number;
  /** What `check_turn` answers. */
  isUserStillSpeaking: boolean;
  /** Audio classified so far, ms. */
  analysedMs: number;
  /** Voiced audio in the buffer, ms. */
  voicedMs: number;
}

export class TurnDetector {
  private pending = new Int16Array(VAD_FRAME_SAMPLES);
  private pendingLength = 0;
  private readonly window = new Uint8Array(WINDOW_FRAMES);
  private windowVoiced = 0;
  private frames = 0;
  private voicedFrames = 0;
  private heard = false;
  private speaking = false;
  private lastVoicedFrame = -1;

  constructor(
    private readonly vad: Vad,
    private readonly silenceMs: number,
  ) {}

  /**
   * Classifies the new samples (16 kHz); returns true when speech began inside them (a barge-in cue).
   * @example if (detector.push(samples)) interruptTheCharacter()
   */
  push(samples: Int16Array): boolean {
    let began = false;
    let at = 0;
    while (at < samples.length) {
      const take = Math.min(VAD_FRAME_SAMPLES - this.pendingLength, samples.length - at);
      this.pending.set(samples.subarray(at, at + take), this.pendingLength);
      this.pendingLength += take;
      at += take;
      if (this.pendingLength === VAD_FRAME_SAMPLES) {
        began = this.frame(this.vad.isSpeech(this.pending)) || began;
        this.pendingLength = 0;
      }
    }
    return began;
  }

  state(): TurnState {
    const trailingFrames = this.heard ? this.frames - 1 - this.lastVoicedFrame : 0;
    const trailingSilenceMs = trailingFrames * VAD_FRAME_MS;
    return {
      heardSpeech: this.heard,
      speaking: this.speaking,
      trailingSilenceMs,
      isUserStillSpeaking: this.heard && trailingSilenceMs < this.silenceMs,
      analysedMs: this.frames * VAD_FRAME_MS,
      voicedMs: this.voicedFrames * VAD_FRAME_MS,
    };
  }

  /** Starts over (the buffer was cleared). */
  reset(): void {
    this.vad.reset();
    this.pendingLength = 0;
    this.window.fill(0);
    this.windowVoiced = 0;
    this.frames = 0;
    this.voicedFrames = 0;
    this.heard = false;
    this.speaking = false;
    this.lastVoicedFrame = -1;
  }

  private frame(voiced: boolean): boolean {
    const slot = this.frames % WINDOW_FRAMES;
    this.windowVoiced += (voiced ? 1 : 0) - this.window[slot];
    this.window[slot] = voiced ? 1 : 0;
    if (voiced) {
      this.voicedFrames++;
      this.lastVoicedFrame = this.frames;
    }
    this.frames++;
    const wasSpeaking = this.speaking;
    this.speaking = this.windowVoiced >= ONSET_FRAMES;
    if (this.speaking) this.heard = true;
    return this.speaking && !wasSpeaking;
  }
}
