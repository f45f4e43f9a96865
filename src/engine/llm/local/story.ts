/**
 * Short stories on request: four to six gentle sentences about the subject the child asked for (or about the
 * character itself), built from interchangeable parts picked by the seeded generator.
 */
import type { Random } from "./seed.ts";
import type { Situation } from "./situation.ts";
import { capitalize } from "./words.ts";

const ADJECTIVES = ["little", "brave", "curious", "friendly", "cheerful", "tiny", "clever", "sleepy"];
const PLACES = [
  "in a cozy cave by the sea",
  "at the top of a tall green hill",
  "in a garden full of flowers",
  "in a forest of whispering trees",
  "on a fluffy white cloud",
  "next to a sparkly river",
];
const DREAMS = [
  "seeing the stars up close",
  "making a brand new friend",
  "finding the end of a rainbow",
  "learning to sing a happy song",
  "baking the yummiest cake in the world",
  "visiting the moon",
];
const PROBLEMS = [
  "a gust of wind blew its favorite hat far away",
  "it took a wrong turn and could not find the way home",
  "it could not reach the shiny apple at the top of the tree",
  "its best friend felt very sad",
  "the river was too wide to cross",
  "it felt too shy to say hello to anyone",
];
const HELPERS = ["a wise old turtle", "a chatty little bird", "a kind bunny", "a giggly squirrel", "a gentle bear", "a firefly with a tiny lantern"];
const SOLUTIONS = [
  "found a clever way to fix everything",
  "worked as a team, one step at a time",
  "tried again and again until it worked",
  "built a bridge out of sticks and leaves",
];
const ENDINGS = [
  "everyone shared a big picnic under the stars",
  "HERO learned that friends make everything easier",
  "they laughed so much that the whole forest giggled too",
  "HERO curled up in bed with a big smile",
];
const CLOSERS = ["The end!", "And that's my story, did you like it?", "What do you think happens next?", "Sweet dreams, little story!"];

/**
 * Tells a story about `subject` ("dragon", "Mia", "me") or, without one, about the character.
 * @example tellStory(situation, "dragon", random) // ["Once upon a time, there was a brave dragon ...", ...]
 */
export function tellStory(situation: Situation, subject: string | null, random: Random): string[] {
  const { intro, hero } = heroOf(situation, subject, random.pick(ADJECTIVES));
  const sentences = [`Once upon a time, there was ${intro} who lived ${random.pick(PLACES)}.`];
  if (random.chance(0.6)) sentences.push(`Every day, ${hero} dreamed of ${random.pick(DREAMS)}.`);
  sentences.push(`One day, ${random.pick(PROBLEMS)}.`);
  sentences.push(`Luckily, ${random.pick(HELPERS)} came along, and together they ${random.pick(SOLUTIONS)}.`);
  if (random.chance(0.6)) sentences.push(`In the end, ${random.pick(ENDINGS).replace("HERO", hero)}.`);
  sentences.push(random.pick(CLOSERS));
  return sentences;
}

function heroOf(situation: Situation, subject: string | null, adjective: string): { intro: string; hero: string } {
  const article = /^[aeiou]/.test(adjective) ? "an" : "a";
  if (subject === "me" || subject === "myself") {
    const name = situation.childName;
    return name ? { intro: `${article} ${adjective} kid named ${name}`, hero: name } : { intro: `${article} ${adjective} kid just like you`, hero: "the kid" };
  }
  if (subject && situation.childName && subject === situation.childName.toLowerCase()) {
    return { intro: `${article} ${adjective} kid named ${situation.childName}`, hero: situation.childName };
  }
  if (subject && /^\p{Lu}/u.test(subject)) return { intro: `${article} ${adjective} friend named ${subject}`, hero: subject };
  if (subject) {
    const noun = singular(subject);
    return { intro: `${article} ${adjective} ${noun}`, hero: `the ${noun}` };
  }
  if (situation.name) {
    const kind = situation.kind ?? "friend";
    return { intro: `${article} ${adjective} ${kind} named ${situation.name}`, hero: capitalize(situation.name) };
  }
  return { intro: `${article} ${adjective} cloud`, hero: "the cloud" };
}

/** "dragons" -> "dragon" for the hero of a story; leaves "octopus" and "princess" alone. */
function singular(noun: string): string {
  return noun
    .replace(/ies$/, "y")
    .replace(/xes$/, "x")
    .replace(/([^su])s$/, "$1");
}
