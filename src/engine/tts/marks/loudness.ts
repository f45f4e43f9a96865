/**
 * Where the speech is in a voice's audio, for estimated marks: a voice without timings still pads its audio
 * with silence, and words spread over the silence too would start early and end late. Keeps one RMS value per
 * 10 ms frame (100 numbers a second of audio), only when marks are asked for.
 */

/** A frame is speech when it is louder than this share of the loudest frame. */
const SPEECH_SHARE = 0.05;

export class Loudness {
  private readonly frame: number;
  private readonly frames: number[] = [];
  private sum = 0;
  private count = 0;

  constructor(private readonly sampleRate: number) {
    this.frame = Math.max(1, Math.round(sampleRate / 100));
  }

  /** Adds 16-bit samples. */
  push(samples: Int16Array): void {
    for (const sample of samples) {
      this.sum += sample * sample;
      if (++this.count === this.frame) this.close();
    }
  }

  /**
   * Seconds from the first to the end of the last frame that holds speech, or null for silence.
   * @example const loud = new Loudness(24000); loud.push(samples); loud.speech() // { start: 0.31, end: 1.3 }
   */
  speech(): { start: number; end: number } | null {
    if (this.count > 0) this.close();
    const peak = Math.max(0, ...this.frames);
    if (peak === 0) return null;
    const first = this.frames.findIndex((value) => value > peak * SPEECH_SHARE);
    const last = this.frames.findLastIndex((value) => value > peak * SPEECH_SHARE);
    const seconds = this.frame / this.sampleRate;
    return { start: first * seconds, end: (last + 1) * seconds };
  }

  private close(): void {
    this.frames.push(Math.sqrt(this.sum / this.count));
    this.sum = 0;
    this.count = 0;
  }
}
