/**
 * Guesses the character's name and kind from the configuration prompt ("You are Ollie the owl, ..." ->
 * name "Ollie", kind "owl"). The offline local engine uses it to speak as that character. A guess that fails
 * gives nulls; nothing depends on it being right.
 */

export interface Character {
  name: string | null;
  kind: string | null;
}

const NOT_NAMES = new Set([
  "A",
  "An",
  "The",
  "This",
  "That",
  "Your",
  "My",
  "Our",
  "Very",
  "Always",
  "Now",
  "Here",
  "Not",
  "Going",
  "Talking",
  "Playing",
  "Speaking",
  "Helping",
]);
const STOP = new Set(["who", "that", "which", "and", "from", "in", "with", "living", "named", "called", "of", "for", "at", "on", "to"]);
const NAME = "([A-Z][\\p{L}'-]*(?:\\s+[A-Z][\\p{L}'-]*)?)";
const NAME_PATTERNS = [
  new RegExp(`\\b(?:you are|you're|you’re|act as|play|pretend to be)\\s+${NAME}`, "iu"),
  new RegExp(`\\b(?:your name is|you are called|you are named|named|called)\\s+${NAME}`, "iu"),
  new RegExp(`\\b(?:I am|I'm|my name is)\\s+${NAME}`, "iu"),
];
const KIND = /\b(?:the|a|an)\s+((?:[a-z-]+\s+){0,3}[a-z-]+)/gi;

/**
 * Finds the character in a prompt.
 * @example findCharacter("You are Ollie the owl who loves stars.") // { name: "Ollie", kind: "owl" }
 */
export function findCharacter(prompt: string): Character {
  const name = findName(prompt);
  return { name, kind: findKind(prompt, name) };
}

function findName(prompt: string): string | null {
  for (const pattern of NAME_PATTERNS) {
    const match = pattern.exec(prompt);
    // The patterns are case-insensitive for their verbs, so check the capital of the name itself.
    const words = match?.[1]?.split(/\s+/).filter((w) => /^\p{Lu}/u.test(w) && !NOT_NAMES.has(w)) ?? [];
    if (words.length > 0 && match?.[1]?.startsWith(words[0] as string)) return words.join(" ");
  }
  return null;
}

function findKind(prompt: string, name: string | null): string | null {
  // Look at the first sentence that introduces the character: "You are Ollie, a wise old owl who ..."
  const intro = prompt.split(/[.!?\n]/).find((s) => /\byou\s+are\b|\byou're\b|\bnamed\b|\bcalled\b/i.test(s)) ?? "";
  const afterName = name ? intro.slice(intro.indexOf(name) + name.length) : intro;
  return kindIn(afterName) ?? kindIn(intro);
}

function kindIn(text: string): string | null {
  for (const match of text.matchAll(KIND)) {
    const words = (match[1] as string).toLowerCase().split(/\s+/);
    const cut = words.findIndex((w) => STOP.has(w));
    const phrase = cut === -1 ? words : words.slice(0, cut);
    const kind = phrase[phrase.length - 1];
    if (kind && kind.length > 1) return kind;
  }
  return null;
}
