/**
 * Splits a streamed reply into units of speech: an early first clause, then whole sentences.
 *
 * Rules it keeps:
 * - the same text gives the same units however it is split into pushes (one character at a time or whole):
 *   whenever a decision needs a character that has not arrived yet, the scanner waits instead of guessing;
 * - a sentence ends at . ! ? … (runs like "?!" and "..." included, then closing quotes/brackets) followed by
 *   whitespace, at CJK 。！？ with no space needed, and at a line break;
 * - a full stop does not end a sentence after an abbreviation ("Mr.", "e.g."), inside a number ("2.54"),
 *   or when the next word starts in lowercase ("Well... maybe", '"Hi!" said the owl');
 * - the first unit of a turn may be a clause cut at , ; : or a dash once it has `firstClauseMinWords` words,
 *   so speech can start before the first sentence is complete;
 * - units with nothing to say (only emoji or punctuation) are carried into the next unit, never emitted alone;
 * - a unit that runs past `maxChars` without punctuation is cut at the next space to bound speech latency.
 */

import { isSpeakable } from "../speech/speakable.ts";
import {
  ABBREVIATIONS,
  CJK_CLAUSE_MARKS,
  CJK_TERMINALS,
  CLOSERS,
  countWords,
  isLower,
  isSpace,
  LATIN_CLAUSE_MARKS,
  LATIN_TERMINALS,
  wordBefore,
} from "./rules.ts";

export interface ChunkerOptions {
  /** Emit a short first clause before the first sentence ends (default true). */
  firstClause?: boolean;
  /** Words needed before a clause mark for the early first clause (default 3). */
  firstClauseMinWords?: number;
  /** Cut a unit without punctuation at the next space after this many characters (default 300). */
  maxChars?: number;
}

type Decision = { kind: "skip"; next: number } | { kind: "wait" } | { kind: "cut"; end: number };

const WAIT: Decision = { kind: "wait" };

export class SentenceChunker {
  private buf = "";
  private pos = 0;
  private emitted = 0;
  private readonly firstClause: boolean;
  private readonly minWords: number;
  private readonly maxChars: number;

  constructor(options: ChunkerOptions = {}) {
    this.firstClause = options.firstClause ?? true;
    this.minWords = options.firstClauseMinWords ?? 3;
    this.maxChars = options.maxChars ?? 300;
  }

  /** Adds streamed text; returns the units it completed (trimmed), in order. */
  push(text: string): string[] {
    this.buf += text;
    return this.scan(false);
  }

  /** The reply ended: returns the remaining units and resets the chunker. */
  flush(): string[] {
    const out = this.scan(true);
    const rest = this.buf.trim();
    if (isSpeakable(rest)) out.push(rest);
    this.buf = "";
    this.pos = 0;
    this.emitted = 0;
    return out;
  }

  private scan(final: boolean): string[] {
    const out: string[] = [];
    let i = this.pos;
    while (i < this.buf.length) {
      const decision = this.decide(i, final);
      if (decision.kind === "wait") break;
      if (decision.kind === "skip") {
        i = decision.next;
        continue;
      }
      const unit = this.buf.slice(0, decision.end).trim();
      if (!isSpeakable(unit)) {
        // Nothing to say yet (emoji, a lone "..."): keep it as the start of the next unit.
        i = decision.end;
        continue;
      }
      out.push(unit);
      this.emitted++;
      this.buf = this.buf.slice(decision.end);
      i = 0;
    }
    this.pos = i;
    return out;
  }

  private decide(i: number, final: boolean): Decision {
    const buf = this.buf;
    const ch = buf[i] as string;
    if (ch === "\n") return { kind: "cut", end: i + 1 };
    if (CJK_TERMINALS.has(ch)) {
      const end = this.afterRun(i);
      return end === buf.length && !final ? WAIT : { kind: "cut", end };
    }
    if (LATIN_TERMINALS.has(ch)) return this.decideLatinEnd(i, final);
    if (this.emitted === 0 && this.firstClause && (LATIN_CLAUSE_MARKS.has(ch) || CJK_CLAUSE_MARKS.has(ch))) {
      return this.decideClause(i, ch, final);
    }
    if (i >= this.maxChars && isSpace(ch)) return { kind: "cut", end: i };
    return { kind: "skip", next: i + 1 };
  }

  /** Index after a run of terminal punctuation starting at `i` and the closing quotes that follow it. */
  private afterRun(i: number): number {
    const buf = this.buf;
    let j = i + 1;
    while (j < buf.length && (LATIN_TERMINALS.has(buf[j] as string) || CJK_TERMINALS.has(buf[j] as string))) j++;
    while (j < buf.length && CLOSERS.has(buf[j] as string)) j++;
    return j;
  }

  private decideLatinEnd(i: number, final: boolean): Decision {
    const buf = this.buf;
    const end = this.afterRun(i);
    if (end === buf.length) return final ? { kind: "cut", end } : WAIT;
    // "2.54", "e.g" mid-word, "Hi!How": punctuation glued to the next character is not an ending.
    if (!isSpace(buf[end] as string)) return { kind: "skip", next: end };
    const run = buf.slice(i, end).replace(/[^.!?…。！？．]+$/, "");
    if (run === "." && ABBREVIATIONS.has(wordBefore(buf, i))) return { kind: "skip", next: end };
    // A lowercase word next means the sentence goes on: "Well... maybe", '"Hello!" said the owl'.
    let k = end;
    while (k < buf.length && isSpace(buf[k] as string)) k++;
    if (k === buf.length) return final ? { kind: "cut", end } : WAIT;
    if (isLower(buf[k] as string)) return { kind: "skip", next: end };
    return { kind: "cut", end };
  }

  private decideClause(i: number, ch: string, final: boolean): Decision {
    const buf = this.buf;
    const enough = (): boolean => countWords(buf.slice(0, i)) >= this.minWords;
    if (CJK_CLAUSE_MARKS.has(ch) || ch === "—" || ch === "–") {
      return enough() ? { kind: "cut", end: i + 1 } : { kind: "skip", next: i + 1 };
    }
    // A comma at the very end of the reply is flushed with the rest; mid-stream we need the next character.
    if (i + 1 === buf.length) return final ? { kind: "skip", next: i + 1 } : WAIT;
    // "1,000" and "3:30" are not clause ends.
    if (!isSpace(buf[i + 1] as string)) return { kind: "skip", next: i + 1 };
    return enough() ? { kind: "cut", end: i + 1 } : { kind: "skip", next: i + 1 };
  }
}
