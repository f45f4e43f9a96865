/**
 * The features the learned classifier reads, shared by the trainer (scripts/train-safety-model.ts) and the
 * detector so both see exactly the same thing: the canonical view of the text (normalize.ts: look-alikes folded,
 * leetspeak decoded, chat spellings expanded), cut into word unigrams and bigrams and character 4-grams of each
 * word (3-5-grams scored the same in cross-validation and made a file twice as large). Character grams let the model read words it never saw whole ("unalivin", "grandmas"); the direction is a
 * feature so one model serves a child's inputs and the model's sentences.
 */
import type { Direction } from "../categories.ts";
import { concepts } from "./concepts.ts";

/** Distinct feature strings of one canonical text (" i want to die " -> ["d input", "w i", "b i want", "c <wan", ...]). */
export function features(canon: string, direction: Direction): string[] {
  const words = canon.trim().split(" ").filter((w) => w !== "");
  const out = new Set<string>([`d ${direction}`]);
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    out.add(`w ${w}`);
    if (i + 1 < words.length) out.add(`b ${w} ${words[i + 1]}`);
    const padded = `<${w}>`;
    for (let j = 0; j + 4 <= padded.length; j++) out.add(`c ${padded.slice(j, j + 4)}`);
  }
  {
    const cs = concepts(words);
    for (let i = 0; i < cs.length; i++) {
      out.add(`k ${cs[i]}`);
      for (let j = i + 1; j < cs.length; j++) out.add(`kk ${[cs[i], cs[j]].sort().join(" ")}`);
    }
  }
  return [...out];
}
