/**
 * Everything the local engine knows about a turn, read from the chat messages alone (as a real model would):
 * the character from the developer's prompt, the app's context facts, the child's words (or the app note that
 * stands in for them on "." turns), the child's name (from the context or "my name is ..." earlier), the
 * previous reply, and the seed that makes the reply deterministic for the same conversation.
 */
import { findCharacter } from "../../prompt/character.ts";
import { CARRY_ON_INSTRUCTION, CHARACTER_HEADING, CONTEXT_HEADING, GREETING_INSTRUCTION, PRECEDENCE_REMINDER } from "../../prompt/preamble.ts";
import type { Context, ContextValue } from "../../types.ts";
import type { ChatMessage, LlmRequest } from "../types.ts";
import { hashString } from "./seed.ts";
import { capitalize, normalize, safeEcho } from "./words.ts";

export interface Fact {
  /** "favorite color" */
  label: string;
  value: string;
}

export interface Situation {
  name: string | null;
  kind: string | null;
  /** The child's words, normalised; null on a "." turn. */
  said: string | null;
  isGreeting: boolean;
  turn: number;
  previousReply: string | null;
  childName: string | null;
  /** A level, score or similar progress value from the context. */
  progress: { label: string; value: string } | null;
  facts: Fact[];
  seed: number;
}

const NAME_KEYS = new Set(["player_name", "name", "child_name", "kid_name", "user_name", "username", "first_name", "nickname", "player"]);
const PROGRESS_KEYS = new Set(["level", "score", "stars", "points", "coins", "gems", "badges", "streak", "stage", "chapter"]);
/** Technical or personal keys that a character should never read out. */
const HIDDEN_KEY = /(?:^|_)(?:id|uuid|token|key|secret|session|url|api|hash|email|phone|address|password)(?:_|$)/;

/** Reads a request into a Situation. */
export function readSituation(request: LlmRequest): Situation {
  const system = request.messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");
  const prompt = characterPrompt(system);
  const context = contextOf(system);
  const character = findCharacter(prompt);
  const lastUser = request.messages.findLast((m) => m.role === "user")?.content ?? ".";
  const speakFirst = lastUser.endsWith(GREETING_INSTRUCTION) || lastUser.endsWith(CARRY_ON_INSTRUCTION) || lastUser.trim() === ".";
  const replies = request.messages.filter((m) => m.role === "assistant");
  const said = speakFirst ? null : normalize(lastUser);
  const earlier = request.messages.filter((m) => m.role === "user").map((m) => normalize(m.content));
  return {
    name: character.name,
    kind: character.kind,
    said,
    isGreeting: speakFirst && !lastUser.endsWith(CARRY_ON_INSTRUCTION) && replies.length === 0,
    turn: replies.length,
    previousReply: replies.at(-1)?.content ?? null,
    childName: nameFromContext(context) ?? nameFromWords([...earlier, said ?? ""]),
    progress: progressFromContext(context),
    facts: factsFromContext(context),
    seed: hashString([prompt, stableJson(context), ...conversation(request.messages)].join("\u0000")),
  };
}

/** The developer's prompt inside hoot's system message, or the whole system text from any other caller. */
function characterPrompt(system: string): string {
  const start = system.indexOf(`${CHARACTER_HEADING}\n`);
  if (start < 0) return system;
  const from = start + CHARACTER_HEADING.length + 1;
  const end = system.indexOf(`\n\n${PRECEDENCE_REMINDER}`, from);
  return system.slice(from, end < 0 ? undefined : end);
}

/** The context lines ("- key: value") under hoot's context heading; numbers and booleans read back as such. */
function contextOf(system: string): Context {
  const start = system.indexOf(`${CONTEXT_HEADING}\n`);
  // A null-prototype object: the keys are the app's, and "constructor" must be just a key.
  const context: Context = Object.create(null) as Context;
  if (start < 0) return context;
  for (const line of system.slice(start + CONTEXT_HEADING.length + 1).split("\n")) {
    const match = /^- (.+?): (.*)$/.exec(line);
    if (!match) break;
    context[match[1] as string] = valueOf(match[2] as string);
  }
  return context;
}

function valueOf(text: string): ContextValue {
  if (text === "true" || text === "false") return text === "true";
  return /^-?\d+(?:\.\d+)?$/.test(text) ? Number(text) : text;
}

/** The conversation so far and the words of this turn, for the seed: every turn of a conversation differs. */
function conversation(messages: ChatMessage[]): string[] {
  return messages.filter((m) => m.role !== "system").map((m) => `${m.role}:${m.content}`);
}

/** "playerName" and "Player-Name" both become "player_name". */
function keyOf(key: string): string {
  return key
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_");
}

function nameFromContext(context: Context): string | null {
  for (const [key, value] of Object.entries(context)) {
    if (NAME_KEYS.has(keyOf(key)) && typeof value === "string") {
      const name = safeEcho(value, 2);
      // A name is letters only: an id or a number in a "player" field is not something to call a child.
      if (name && /^[\p{L}' -]+$/u.test(name)) return capitalize(name);
    }
  }
  return null;
}

function nameFromWords(said: string[]): string | null {
  for (const text of said.toReversed()) {
    const match = /\b(?:my name is|my name's|call me)\s+([\p{L}'-]+)/u.exec(text);
    const name = match ? safeEcho(match[1] as string, 1) : null;
    if (name) return capitalize(name);
  }
  return null;
}

function progressFromContext(context: Context): { label: string; value: string } | null {
  for (const [key, value] of Object.entries(context)) {
    const k = keyOf(key);
    if (PROGRESS_KEYS.has(k) && (typeof value === "number" || typeof value === "string")) {
      const shown = safeEcho(String(value), 2);
      if (shown) return { label: k, value: shown };
    }
  }
  return null;
}

function factsFromContext(context: Context): Fact[] {
  const facts: Fact[] = [];
  for (const [key, value] of Object.entries(context)) {
    const k = keyOf(key);
    if (NAME_KEYS.has(k) || PROGRESS_KEYS.has(k) || HIDDEN_KEY.test(k) || typeof value === "boolean") continue;
    const shown = safeEcho(String(value));
    const label = safeEcho(k.replace(/_/g, " "));
    if (shown && label) facts.push({ label, value: shown });
  }
  return facts;
}

function stableJson(context: Context): string {
  return JSON.stringify(
    Object.keys(context)
      .sort()
      .map((k) => [k, context[k]]),
  );
}
