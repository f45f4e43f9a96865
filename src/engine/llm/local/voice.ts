/**
 * The character's voice: how it introduces itself and the little sound it makes, from the kind of creature
 * the prompt describes ("owl" -> "Hoo-hoo!"). Characters of unknown kinds simply make no sound.
 */
import type { Situation } from "./situation.ts";

// A Map, not an object: the kind comes from the developer's prompt, and "the constructor" must find nothing.
const SOUNDS = new Map(
  Object.entries({
    owl: "Hoo-hoo!",
    cat: "Purr!",
    kitten: "Mew!",
    dog: "Woof!",
    puppy: "Woof woof!",
    dragon: "Rawr!",
    dinosaur: "Rawr!",
    robot: "Beep boop!",
    lion: "Roar!",
    tiger: "Roar!",
    bee: "Bzzz!",
    frog: "Ribbit!",
    duck: "Quack!",
    cow: "Moo!",
    monkey: "Ooh-ooh!",
    pig: "Oink!",
    sheep: "Baa!",
    lamb: "Baa!",
    bird: "Tweet tweet!",
    horse: "Neigh!",
    pony: "Neigh!",
    mouse: "Squeak!",
    penguin: "Honk honk!",
    dolphin: "Eee-eee!",
    bear: "Grr-hello!",
    unicorn: "Neigh-hee!",
  }),
);

/** The character's sound ("Hoo-hoo!") or null. */
export function soundOf(situation: Situation): string | null {
  return situation.kind ? (SOUNDS.get(situation.kind) ?? null) : null;
}

/** "Ollie the owl", "Ollie", "a friendly owl" or "your friend". */
export function selfName(situation: Situation): string {
  const { name, kind } = situation;
  if (name && kind) return `${name} the ${kind}`;
  if (name) return name;
  if (kind) return `a friendly ${kind}`;
  return "your friend";
}

/** ", Mia" when the child's name is known, else "" ("Great question, Mia!"). */
export function toChild(situation: Situation): string {
  return situation.childName ? `, ${situation.childName}` : "";
}
