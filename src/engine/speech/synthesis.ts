/**
 * One sentence's synthesis, started at once and buffered, so the next sentence can be synthesized while the
 * previous one's chunks are still being sent. The chunks wait in a Channel; a provider failure is delivered
 * after the chunks it did produce, and an abort drops everything.
 */
import { Channel } from "../pipeline/channel.ts";
import type { AudioChunk, TtsProvider } from "../tts/types.ts";
import type { AudioFormat, VoiceProfile } from "../types.ts";

export interface SpeechOptions {
  tts: TtsProvider;
  voice: VoiceProfile;
  format: AudioFormat;
  signal: AbortSignal;
}

/** Markup that a voice would read out ("asterisk") and that carries no words. */
const MARKUP = /[*_#~`|<>[\]{}\\]/g;

/** The text to hand to the voice: markup removed; null when nothing speakable is left. */
export function speakableText(text: string): string | null {
  const cleaned = text.replace(MARKUP, " ").replace(/\s+/g, " ").trim();
  return /[\p{L}\p{N}]/u.test(cleaned) ? cleaned : null;
}

/**
 * Starts synthesizing `text` in the background; read the chunks from the returned channel.
 * @example for await (const chunk of startSynthesis("Hello!", options)) send(chunk)
 */
export function startSynthesis(text: string, options: SpeechOptions, due?: number): Channel<AudioChunk> {
  const chunks = new Channel<AudioChunk>(options.signal);
  void (async () => {
    try {
      const request = { text, voice: options.voice, format: options.format, signal: options.signal, due };
      for await (const chunk of options.tts.synthesize(request)) {
        // push() is false once the turn was aborted or the reader left: stop the provider too.
        if (!chunks.push(chunk)) break;
      }
      chunks.close();
    } catch (error) {
      chunks.fail(error);
    }
  })();
  return chunks;
}
