/**
 * Composes the whole reply of the local engine for one turn: greeting, carrying on, a story, or an answer to
 * what the child said, sometimes opened with the character's sound. Replies keep to three sentences (stories to
 * six) and never repeat the previous reply word for word.
 */
import { carryOn, greet } from "./greeting.ts";
import { detectIntent, type Intent } from "./intents.ts";
import { reply } from "./replies.ts";
import { createRandom, type Random } from "./seed.ts";
import type { Situation } from "./situation.ts";
import { tellStory } from "./story.ts";
import { soundOf } from "./voice.ts";

const MAX_SENTENCES = 3;
const FRESH_OPENERS = ["Oh!", "Hmm!", "Ooh!", "Well!", "Okay!"];

/**
 * The reply text for `situation`, deterministic for the same situation.
 * @example composeReply(readSituation(request)) // "Hoo-hoo! Hi Mia, I'm Ollie the owl! ..."
 */
export function composeReply(situation: Situation): string {
  let text = "";
  // Another variant of the same seed whenever the first choice would repeat the previous reply.
  for (let variant = 0; variant < 6; variant++) {
    text = compose(situation, createRandom(situation.seed + variant * 7919));
    if (text !== situation.previousReply) return text;
  }
  return `${FRESH_OPENERS.find((o) => !situation.previousReply?.startsWith(o)) ?? "Oh!"} ${text}`;
}

function compose(situation: Situation, random: Random): string {
  if (situation.said === null) return fit(situation.isGreeting ? greet(situation, random) : carryOn(situation, random));
  const intent = detectIntent(situation.said);
  if (intent.kind === "story" || wantsAnotherStory(intent, situation)) {
    return tellStory(situation, intent.kind === "story" ? intent.subject : null, random).join(" ");
  }
  const sentences = reply(intent, situation, random);
  const sound = soundOf(situation);
  if (sound && playful(intent) && random.chance(0.3)) sentences.unshift(sound);
  return fit(sentences);
}

/** "yes" right after the character's last question offered a story. */
function wantsAnotherStory(intent: Intent, situation: Situation): boolean {
  const lastQuestion = /[^.!?]*\?\s*$/.exec(situation.previousReply ?? "")?.[0] ?? "";
  return intent.kind === "yes" && /\bstor(?:y|ies)\b/i.test(lastQuestion);
}

/** A sound effect suits cheerful moments, not comfort or safety replies. */
function playful(intent: Intent): boolean {
  return !["private", "unsafe", "feeling", "goodbye"].includes(intent.kind);
}

/** Drops trailing parts until the reply has at most three sentences (keeping at least one part). */
function fit(parts: string[]): string {
  const kept = [...parts];
  while (kept.length > 1 && countSentences(kept.join(" ")) > MAX_SENTENCES) kept.pop();
  return kept.join(" ");
}

/** Interjections like "Hoo-hoo!" or "Yay!" are not counted: they are sounds, not sentences. */
function countSentences(text: string): number {
  return text.split(/(?<=[.!?])\s+/).filter((s) => s.split(" ").length >= 3).length;
}
