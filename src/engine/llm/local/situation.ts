/**
 * Everything the local engine knows about a turn, gathered from the request: the character, the child's words,
 * the child's name (from the context or from "my name is ..." earlier), the context facts worth mentioning, and
 * the seed that makes the reply deterministic. Works from hints when the engine sends them, else from messages.
 */
import { findCharacter } from "../../prompt/character.ts";
import type { Context } from "../../types.ts";
import type { LlmRequest } from "../types.ts";
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
  const hints = request.hints;
  const system = request.messages.filter((m) => m.role === "system").map((m) => m.content).join("\n");
  const character = hints ? { name: hints.characterName, kind: hints.characterKind } : findCharacter(system);
  const lastUser = request.messages.findLast((m) => m.role === "user")?.content ?? ".";
  const userText = hints ? hints.userText : lastUser.trim() === "." || lastUser.startsWith("[") ? null : lastUser;
  const replies = request.messages.filter((m) => m.role === "assistant");
  const context = hints?.context ?? {};
  const said = userText === null ? null : normalize(userText);
  const earlier = request.messages.filter((m) => m.role === "user").map((m) => normalize(m.content));
  const prompt = hints?.characterPrompt ?? system;
  return {
    name: character.name,
    kind: character.kind,
    said,
    isGreeting: hints ? hints.isGreeting : userText === null && replies.length === 0,
    turn: hints ? hints.turn : replies.length,
    previousReply: hints ? hints.previousReply : (replies.at(-1)?.content ?? null),
    childName: nameFromContext(context) ?? nameFromWords([...earlier, said ?? ""]),
    progress: progressFromContext(context),
    facts: factsFromContext(context),
    seed: hashString([prompt, userText ?? ".", stableJson(context), String(hints?.turn ?? replies.length)].join("\u0000")),
  };
}

/** "playerName" and "Player-Name" both become "player_name". */
function keyOf(key: string): string {
  return key.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase().replace(/[^a-z0-9]+/g, "_");
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
  return JSON.stringify(Object.keys(context).sort().map((k) => [k, context[k]]));
}
