/**
 * Generates the voice-input fixtures in test/fixtures/voice/ once, from speech synthesised by hoot's own TTS
 * (Flite, 16 kHz) and encoded by Debian's ffmpeg into the formats hoot cannot encode itself. The files are
 * committed, so tests and CI need neither ffmpeg nor this script. Audio goes through pipes only.
 *
 *   apt-get install -y ffmpeg && npx bun scripts/voice-fixtures.ts
 *
 * Each utterance is 0.5 s of silence, the sentence, then 1.2 s of silence, so a turn detector sees speech
 * start and end inside the file. Files:
 * - <name>.unity.ogg  Ogg/Vorbis 16 kHz mono in ~80 ms pages with no end-of-stream page: exactly the byte
 *                     stream the Unity SDK sends (its encoder flushes small pages and never ends the stream).
 * - <name>.opus.ogg   Ogg/Opus 48 kHz mono, an ordinary complete file.
 * - <name>.webm       WebM/Opus 48 kHz mono written as a live stream (unknown-size segment and clusters,
 *                     no cues), as the browser's MediaRecorder writes it.
 * - <name>.mp3        MP3 44.1 kHz stereo with an ID3v2 tag at the front.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { LocalSpeechProvider } from "../src/engine/tts/index.ts";
import { clearEndOfStream } from "../test/engine/voice-in/helpers/ogg.ts";

const OUT = resolve(import.meta.dir, "../test/fixtures/voice");

export const FIXTURE_SENTENCES: Record<string, string> = {
  puppy: "I want to play with my puppy in the garden.",
  dragon: "Can you tell me a story about a dragon?",
};

async function speak(tts: LocalSpeechProvider, text: string): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of tts.synthesize({ text, voice: {}, format: "pcm16", signal: new AbortController().signal })) parts.push(chunk.data);
  const lead = Buffer.alloc(16000 * 2 * 0.5);
  const tail = Buffer.alloc(16000 * 2 * 1.2);
  return Buffer.concat([lead, ...parts, tail]);
}

function ffmpeg(pcm16k: Buffer, args: string[]): Buffer {
  const run = Bun.spawnSync(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "s16le", "-ar", "16000", "-ac", "1", "-i", "pipe:0", ...args, "pipe:1"], {
    stdin: pcm16k,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (run.exitCode !== 0) throw new Error(`ffmpeg failed: ${run.stderr.toString()}`);
  return Buffer.from(run.stdout);
}

if (import.meta.main) {
  mkdirSync(OUT, { recursive: true });
  const tts = new LocalSpeechProvider({ workers: 1 });
  for (const [name, sentence] of Object.entries(FIXTURE_SENTENCES)) {
    const pcm = await speak(tts, sentence);
    const files: Record<string, Buffer> = {
      [`${name}.unity.ogg`]: clearEndOfStream(ffmpeg(pcm, ["-c:a", "libvorbis", "-q:a", "2", "-page_duration", "80000", "-f", "ogg"])),
      [`${name}.opus.ogg`]: ffmpeg(pcm, ["-ar", "48000", "-c:a", "libopus", "-b:a", "24k", "-f", "ogg"]),
      [`${name}.webm`]: ffmpeg(pcm, ["-ar", "48000", "-c:a", "libopus", "-b:a", "24k", "-live", "1", "-cluster_time_limit", "100", "-f", "webm"]),
      [`${name}.mp3`]: ffmpeg(pcm, ["-ar", "44100", "-ac", "2", "-c:a", "libmp3lame", "-b:a", "48k", "-f", "mp3"]),
    };
    for (const [file, bytes] of Object.entries(files)) {
      writeFileSync(join(OUT, file), bytes);
      console.log(`${file}: ${bytes.length} bytes`);
    }
  }
  await tts.close();
}
