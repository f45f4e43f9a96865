/**
 * Word error rate of the offline recogniser (Debian's PocketSphinx with its US English model) on children's
 * sentences spoken by hoot's own TTS in each of its four Flite voices, through hoot's voice input path:
 * - "PCM 48 kHz": Flite's 16 kHz speech resampled to 48 kHz, sent as raw PCM chunks, brought back to 16 kHz;
 * - "Ogg/Vorbis": the same speech encoded by ffmpeg as the Unity SDK sends it (only when ffmpeg is installed).
 * Everything stays in memory (ffmpeg and pocketsphinx read and write pipes).
 *
 *   apt-get install -y pocketsphinx pocketsphinx-en-us [ffmpeg] && npx bun scripts/voice-wer.ts
 *
 * Synthetic speech is far easier than a real child's voice: read the figure as an upper bound on quality.
 */
import { LocalSpeechProvider } from "../src/engine/tts/index.ts";
import { PocketsphinxProvider, transcribeBuffer, VoiceBuffer } from "../src/engine/voice-in/index.ts";
import { clearEndOfStream, unityChunks } from "../test/engine/voice-in/helpers/ogg.ts";
import { chunks, pcm16Bytes, resampled } from "../test/engine/voice-in/helpers/speech.ts";

export const CHILD_SENTENCES = [
  "I want to play with my puppy in the garden.",
  "Can you tell me a story about a dragon?",
  "What is seven plus five?",
  "My favourite colour is blue.",
  "Why is the sky blue?",
  "I have two cats and one dog.",
  "Can we go to the park tomorrow?",
  "The elephant is very big and grey.",
  "I like to eat apples and bananas.",
  "Where do the stars go in the morning?",
  "My sister is five years old.",
  "Let's build a castle out of blocks.",
  "How many legs does a spider have?",
  "I drew a picture of a rainbow.",
  "Can you sing me a song?",
  "The owl says hoo hoo at night.",
  "I lost my tooth today.",
  "Do fish sleep in the water?",
  "I am scared of the dark.",
  "Tell me a joke about a monkey.",
];

const VOICES = ["slt", "kal16", "awb", "rms"];
// The model's dictionary spells American English; compare words, not spellings.
const SPELLING: Record<string, string> = { favourite: "favorite", colour: "color", grey: "gray" };

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z' ]+/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => SPELLING[w] ?? w);
}

/** Word-level edit distance (substitutions + deletions + insertions). */
export function editDistance(reference: string[], hypothesis: string[]): number {
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i++) {
    const current = [i];
    for (let j = 1; j <= hypothesis.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[hypothesis.length];
}

async function flite(tts: LocalSpeechProvider, text: string, voice: string): Promise<Int16Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of tts.synthesize({ text, voice: { voice_id: voice }, format: "pcm16", signal: new AbortController().signal })) parts.push(chunk.data);
  const bytes = Buffer.concat(parts);
  const padded = new Int16Array(bytes.length / 2 + 16000);
  padded.set(new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2), 4000);
  return padded;
}

function vorbis(samples: Int16Array): Uint8Array | null {
  if (!Bun.which("ffmpeg")) return null;
  const run = Bun.spawnSync(
    [
      "ffmpeg",
      "-hide_banner",
      "-loglevel",
      "error",
      "-f",
      "s16le",
      "-ar",
      "16000",
      "-ac",
      "1",
      "-i",
      "pipe:0",
      "-c:a",
      "libvorbis",
      "-q:a",
      "2",
      "-page_duration",
      "80000",
      "-f",
      "ogg",
      "pipe:1",
    ],
    { stdin: pcm16Bytes(samples), stdout: "pipe", stderr: "pipe" },
  );
  return run.exitCode === 0 ? clearEndOfStream(run.stdout) : null;
}

if (import.meta.main) {
  const command = PocketsphinxProvider.find();
  if (!command) {
    console.error("pocketsphinx is not installed: apt-get install -y pocketsphinx pocketsphinx-en-us");
    process.exit(1);
  }
  const stt = new PocketsphinxProvider(command, 60_000);
  const tts = new LocalSpeechProvider({ workers: 1 });
  const totals: Record<string, { errors: number; words: number }> = {};
  const add = (key: string, errors: number, count: number) => {
    totals[key] ??= { errors: 0, words: 0 };
    totals[key].errors += errors;
    totals[key].words += count;
  };
  for (const voice of VOICES) {
    for (const sentence of CHILD_SENTENCES) {
      const samples = await flite(tts, sentence, voice);
      const reference = words(sentence);
      const paths: [string, Uint8Array[], { mime_type: string; sampling_rate?: number }][] = [
        ["PCM 48 kHz", chunks(pcm16Bytes(resampled(samples, 48000)), 9600), { mime_type: "audio/pcm", sampling_rate: 48000 }],
      ];
      const ogg = vorbis(samples);
      if (ogg) paths.push(["Ogg/Vorbis (Unity)", unityChunks(ogg), { mime_type: "audio/ogg", sampling_rate: 16000 }]);
      for (const [path, pieces, config] of paths) {
        const buffer = await VoiceBuffer.create({ maxSeconds: 60, maxBytes: 8 << 20, silenceMs: 700, vadMode: 3 });
        for (const piece of pieces) await buffer.add(piece, config);
        const { text } = await transcribeBuffer(buffer, stt, "en", { consume: true });
        buffer.close();
        const errors = editDistance(reference, words(text));
        add(`${voice} | ${path}`, errors, reference.length);
        add(`all voices | ${path}`, errors, reference.length);
        if (process.argv.includes("--verbose")) console.log(`${voice} ${path}: "${sentence}" -> "${text}" (${errors})`);
      }
    }
  }
  await tts.close();
  console.table(
    Object.entries(totals)
      .sort(([a], [b]) => a.split(" | ")[1].localeCompare(b.split(" | ")[1]) || a.localeCompare(b))
      .map(([key, { errors, words }]) => {
        const [voice, path] = key.split(" | ");
        return { voice, path, words, errors, WER: `${((errors / words) * 100).toFixed(1)} %` };
      }),
  );
}
