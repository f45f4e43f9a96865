/**
 * Works out what the child's words are about. The first matching rule wins, so the order below is the
 * priority: privacy and safety first, then explicit requests (story, joke, sum), then chatter.
 */
import { findTopic, type Topic } from "./knowledge.ts";
import { parseSum, type Sum } from "./math.ts";
import { capitalize, isUnsafe, safeEcho, withoutArticle } from "./words.ts";

export type Feeling = "sad" | "happy" | "scared" | "angry" | "tired" | "bored" | "lonely" | "hurt";
export type AboutMe = "name" | "age" | "home" | "food" | "how" | "skills";

export type Intent =
  | { kind: "private" }
  | { kind: "unsafe" }
  | { kind: "story"; subject: string | null }
  | { kind: "joke" }
  | { kind: "math"; sum: Sum }
  | { kind: "count"; to: number }
  | { kind: "introduce"; name: string }
  | { kind: "about-me"; what: AboutMe }
  | { kind: "favorite-ask"; thing: string }
  | { kind: "favorite-share"; thing: string; value: string; topic: Topic | null }
  | { kind: "feeling"; feeling: Feeling }
  | { kind: "goodbye" }
  | { kind: "thanks" }
  | { kind: "like"; value: string | null; topic: Topic | null }
  | { kind: "topic"; topic: Topic }
  | { kind: "greeting" }
  | { kind: "question"; word: "why" | "what" | "how" | "other" }
  | { kind: "yes" }
  | { kind: "no" }
  | { kind: "chat" };

const FEELINGS: [Feeling, RegExp][] = [
  ["hurt", /\b(?:hurts?|hurt me|hit me|bull(?:y|ied|ies)|pushed me|died|dead)\b/],
  ["sad", /\b(?:sad|unhappy|upset|cry|crying|cried|sorry for myself)\b/],
  ["scared", /\b(?:scared|afraid|frightened|nervous|worried|scary)\b/],
  ["angry", /\b(?:angry|mad|cross|grumpy|furious)\b/],
  ["lonely", /\b(?:lonely|alone|no friends)\b/],
  ["tired", /\b(?:tired|sleepy|exhausted)\b/],
  ["bored", /\b(?:bored|boring)\b/],
  ["happy", /\b(?:happy|glad|excited|great|awesome|fantastic|amazing|good(?! (?:morning|afternoon|evening|night|bye)))\b/],
];
const PRIVATE = /\b(?:my (?:address|phone|number|password|school|last name|surname|email)|i live (?:at|on|in)|phone number|password)\b|\d{6,}|\d{3}[ -]\d{3,}/;

/**
 * Classifies normalised text ("what is 2+3" -> math).
 * @example detectIntent("tell me a story about a dragon") // { kind: "story", subject: "dragon" }
 */
export function detectIntent(said: string): Intent {
  if (PRIVATE.test(said)) return { kind: "private" };
  if (isUnsafe(said)) return { kind: "unsafe" };
  const story = /\bstor(?:y|ies)\b/.exec(said);
  if (story) return { kind: "story", subject: storySubject(said, story.index) };
  if (/\bjokes?\b|\bmake me laugh\b|\bsomething funny\b/.test(said)) return { kind: "joke" };
  const sum = parseSum(said);
  if (sum) return { kind: "math", sum };
  const count = /\bcount (?:to|up to) (\d+)/.exec(said);
  if (count) return { kind: "count", to: Number(count[1]) };
  const name = /\b(?:my name is|my name's|call me|i am called)\s+([\p{L}'-]+)/u.exec(said);
  if (name && safeEcho(name[1] as string, 1)) return { kind: "introduce", name: capitalize(name[1] as string) };
  const about = aboutMe(said);
  if (about) return { kind: "about-me", what: about };
  const askFavorite = /\b(?:what(?:'s| is) your|do you have a) fav(?:ou?rite)?\s+([\p{L}]+)/u.exec(said);
  if (askFavorite) return { kind: "favorite-ask", thing: askFavorite[1] as string };
  const share = /\bmy fav(?:ou?rite)?\s+([\p{L}]+)\s+(?:is|are)\s+([^.!?]+)/u.exec(said);
  if (share) {
    const value = safeEcho(withoutArticle(share[2] as string));
    if (value) return { kind: "favorite-share", thing: share[1] as string, value, topic: findTopic(value) };
  }
  const feeling = findFeeling(said);
  if (feeling) return { kind: "feeling", feeling };
  if (/\b(?:bye|goodbye|see you|good night|goodnight)\b/.test(said)) return { kind: "goodbye" };
  if (/\b(?:thanks|thank you|thank u)\b/.test(said)) return { kind: "thanks" };
  const like = /\bi (?:really )?(?:like|love|adore)\s+([^.!?,]+)/.exec(said);
  if (like) {
    const value = safeEcho(withoutArticle(like[1] as string));
    return { kind: "like", value, topic: findTopic(like[1] as string) };
  }
  const topic = findTopic(said);
  if (topic) return { kind: "topic", topic };
  if (/^(?:hi|hello|hey|hiya|howdy|good (?:morning|afternoon|evening)|yo)\b/.test(said)) return { kind: "greeting" };
  const question = /^(why|what|how)\b/.exec(said);
  if (question) return { kind: "question", word: question[1] as "why" | "what" | "how" };
  if (said.endsWith("?") || /^(?:can|do|does|is|are|will|who|where|when)\b/.test(said)) return { kind: "question", word: "other" };
  if (/^(?:yes|yeah|yep|yup|sure|ok|okay|please|of course)\b/.test(said)) return { kind: "yes" };
  if (/^(?:no|nope|nah|not really)\b/.test(said)) return { kind: "no" };
  return { kind: "chat" };
}

function aboutMe(said: string): AboutMe | null {
  if (/\b(?:what(?:'s| is) your name|who are you)\b/.test(said)) return "name";
  if (/\bhow old are you\b/.test(said)) return "age";
  if (/\bwhere do you live\b/.test(said)) return "home";
  if (/\bwhat do you (?:eat|like to eat)\b/.test(said)) return "food";
  if (/\bhow are you\b|\bhow do you feel\b/.test(said)) return "how";
  if (/\bwhat can you do\b|\bwhat do you do\b/.test(said)) return "skills";
  return null;
}

function findFeeling(said: string): Feeling | null {
  // Only the child's own feelings: "I'm sad", "feeling scared", or a short answer like "sad".
  const aboutSelf = /\b(?:i|i'm|im|me|my|feel|feeling)\b/.test(said) || said.split(" ").length <= 3;
  if (!aboutSelf) return null;
  for (const [feeling, pattern] of FEELINGS) {
    const match = pattern.exec(said);
    if (match && !/(?:\bnot|\bnever|n't)\s*$/.test(said.slice(0, match.index).replace(/\b(?:feeling|feel|very|so|a bit)\s*$/, ""))) return feeling;
  }
  return null;
}

/** "a story about a dragon, please" or "a dragon story" -> "dragon"; "about me" -> "me"; no subject -> null. */
function storySubject(said: string, at: number): string | null {
  const match = /\b(?:about|of|with)\s+([^.!?,]+)/.exec(said.slice(at)) ?? /\b(?:a|an)\s+([\p{L}]+)\s+stor(?:y|ies)\b/u.exec(said);
  if (!match) return null;
  const words = withoutArticle((match[1] as string).trim()).split(" ");
  const stop = words.findIndex((w, i) => i > 0 && /^(?:and|who|that|which|with|please|in|on|at|for)$/.test(w));
  const subject = words.slice(0, stop === -1 ? 3 : Math.min(stop, 3)).join(" ");
  return safeEcho(subject);
}
