/**
 * What the character says on "." turns: a greeting that uses the child's name and the app's context when the
 * conversation opens, and a gentle nudge to carry on later.
 */
import { FOLLOW_UPS, TOPICS } from "./knowledge.ts";
import type { Random } from "./seed.ts";
import type { Situation } from "./situation.ts";
import { selfName, soundOf, toChild } from "./voice.ts";

const INVITES = [
  "What would you like to talk about today?",
  "Would you like to hear a story, a joke or a fun fact?",
  "What shall we do together today?",
  "Do you want to play a game or hear a story?",
];
const NUDGES = ["I'm still here", "Guess what", "Let's keep going", "Hello again", "I was just thinking"];

/**
 * Opens the conversation: "Hoo-hoo! Hi Mia, I'm Ollie the owl! Wow, level 3 already! What shall we do?"
 * @example greet(situation, random) // ["Hi Mia, I'm Ollie the owl!", ...]
 */
export function greet(situation: Situation, random: Random): string[] {
  const sound = soundOf(situation);
  const hello = random.pick(["Hi", "Hello", "Hey there", "Hello there"]);
  const known = situation.name !== null || situation.kind !== null;
  const who = situation.childName ? ` ${situation.childName}` : random.pick([", friend", ""]);
  const opening = known ? `${hello}${who}, I'm ${selfName(situation)}!` : `${hello}${who}!`;
  const sentences = [sound && random.chance(0.7) ? `${sound} ${opening}` : opening];
  const remark = contextRemark(situation, random);
  if (remark) sentences.push(remark);
  sentences.push(random.pick(INVITES));
  return sentences;
}

/** A "." turn later in the conversation: offer more of what was going on, a fun fact, or a question. */
export function carryOn(situation: Situation, random: Random): string[] {
  const nudge = `${random.pick(NUDGES)}${toChild(situation)}!`;
  const previous = situation.previousReply?.toLowerCase() ?? "";
  if (previous.includes("once upon a time")) return [nudge, "Would you like another story, or shall I tell you a joke?"];
  const remark = random.chance(0.4) ? contextRemark(situation, random) : null;
  if (remark) return [nudge, remark, random.pick(INVITES)];
  const topic = random.pick(TOPICS);
  return [nudge, `Here's a fun fact: ${random.pick(topic.facts)}`, random.pick(FOLLOW_UPS[topic.area])];
}

/** One sentence about the app's context (progress first), or null when there is nothing to say. */
export function contextRemark(situation: Situation, random: Random): string | null {
  const { progress, facts } = situation;
  if (progress) {
    const { label, value } = progress;
    if (label === "level" || label === "stage" || label === "chapter") {
      return random.pick([`Wow, ${label} ${value} already!`, `You made it to ${label} ${value}, amazing!`, `${cap(label)} ${value}? You're doing great!`]);
    }
    return random.pick([`You have ${value} ${label}, great job!`, `Wow, ${value} ${label}!`]);
  }
  const fact = facts.length > 0 ? random.pick(facts) : null;
  if (!fact) return null;
  return random.pick([`I know your ${fact.label} is ${fact.value}!`, `I remember your ${fact.label} is ${fact.value}.`]);
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
