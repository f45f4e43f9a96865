/**
 * The labelled safety sets and how they are scored, shared by the trainer (train-safety-model.ts), the bench
 * (bench/safety.ts) and the tests (test/safety/blind.test.ts), so all three count the same way.
 *
 * Layout: test/fixtures/safety/{blind,train}/<writer>/<kind>.tsv, one `label<TAB>text` a line, where kind is
 *   everyday         ordinary child messages (all `none`)
 *   near-miss        child messages using the categories' words innocently (all `none`)
 *   unsafe-inputs    child messages of each unsafe category
 *   model-sentences  sentences a model might say to a child, unsafe or `none`
 * `blind/` is never read by the trainer: it is written by people who saw only the category definitions, and it
 * is only ever scored. The older corpus (corpus-src*, *.jsonl) is training data too.
 *
 * "Held back" means the line did not reach the model as it was (redirect or escalate) or, for a model sentence,
 * did not reach the child (dropped or replaced). Redacting personal information is counted apart: for an unsafe
 * personal_info line it is an interception; for a benign line it is reported, not counted as held back.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CATEGORIES } from "../src/engine/safety/detect/categories.ts";

export type Kind = "everyday" | "near-miss" | "unsafe-inputs" | "model-sentences";
export const KINDS: readonly Kind[] = ["everyday", "near-miss", "unsafe-inputs", "model-sentences"];
/** The labels a writer may give an unsafe line: every category but a team's own `custom`. */
export const UNSAFE_LABELS: readonly string[] = CATEGORIES.filter((c) => c !== "custom");

export interface LabelledLine {
  text: string;
  /** `none` or one of UNSAFE_LABELS. */
  label: string;
  unsafe: boolean;
  direction: "input" | "output";
  kind: Kind;
  writer: string;
}

// SAFETY_FIXTURES points the trainer and the bench at a copy (to compare settings on a frozen snapshot).
export const FIXTURES = process.env.SAFETY_FIXTURES ?? join(import.meta.dir, "../test/fixtures/safety");

/** Collapses a line to what matters for "the same line" (case, spacing, punctuation): used to drop near-copies. */
export function dedupKey(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKC")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * Every line of one root (`blind` or `train`), writer folders in name order, exact and near copies dropped.
 * @example loadSet("blind").filter((l) => l.kind === "everyday").length
 */
export function loadSet(root: "blind" | "train", base = FIXTURES): LabelledLine[] {
  const dir = join(base, root);
  if (!existsSync(dir)) return [];
  const seen = new Set<string>();
  const out: LabelledLine[] = [];
  for (const writer of readdirSync(dir).sort()) {
    for (const kind of KINDS) {
      const file = join(dir, writer, `${kind}.tsv`);
      if (!existsSync(file)) continue;
      for (const raw of readFileSync(file, "utf8").split("\n")) {
        const tab = raw.indexOf("\t");
        if (tab < 0) continue;
        const label = raw.slice(0, tab).trim().toLowerCase();
        const text = raw.slice(tab + 1).trim();
        if (!text || (label !== "none" && !UNSAFE_LABELS.includes(label))) continue;
        // A line in an everyday or near-miss file is benign whatever its label says.
        const benignFile = kind === "everyday" || kind === "near-miss";
        const direction = kind === "model-sentences" ? "output" : "input";
        const key = dedupKey(text);
        if (!key || seen.has(`${direction} ${key}`)) continue;
        seen.add(`${direction} ${key}`);
        out.push({ text, label: benignFile ? "none" : label, unsafe: !benignFile && label !== "none", direction, kind, writer });
      }
    }
  }
  return out;
}

/** One training line: a labelled line and the writer group it came from. */
export interface TrainingLine {
  text: string;
  label: string;
  direction: "input" | "output";
  kind: Kind | "corpus-benign";
  group: string;
}

/**
 * Everything the model is trained on: the writers under train/ and the older corpus (*.jsonl, one group "corpus"),
 * near copies dropped, and every line that is a near copy of a blind line dropped too, so no blind line is trained on.
 * @example trainingLines().filter((l) => l.group === "t1").length
 */
export function trainingLines(base = FIXTURES): TrainingLine[] {
  const blind = new Set(loadSet("blind", base).map((l) => dedupKey(l.text)));
  const seen = new Set<string>();
  const out: TrainingLine[] = [];
  const add = (l: TrainingLine): void => {
    const key = dedupKey(l.text);
    if (!key || blind.has(key) || seen.has(`${l.direction} ${key}`)) return;
    seen.add(`${l.direction} ${key}`);
    out.push(l);
  };
  for (const l of loadSet("train", base)) add({ text: l.text, label: l.label, direction: l.direction, kind: l.kind, group: l.writer });
  for (const f of readdirSync(base)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()) {
    for (const line of readFileSync(join(base, f), "utf8").trim().split("\n")) {
      const r = JSON.parse(line) as { text: string; unsafe: boolean; category: string };
      const direction = f.includes("output") ? "output" : "input";
      const kind = r.unsafe ? (direction === "input" ? "unsafe-inputs" : "model-sentences") : "corpus-benign";
      add({ text: r.text, label: r.unsafe ? r.category : "none", direction, kind, group: "corpus" });
    }
  }
  return out;
}

/** What a checker did with one line. */
export interface Outcome {
  heldBack: boolean;
  redacted: boolean;
  escalated: boolean;
  categories: readonly string[];
  /** What would be stored and shown to the model (inputs only; null when the line is withheld). */
  stored?: string | null;
}

export interface Checker {
  input(text: string): Outcome;
  output(text: string): Outcome;
}

export interface Cell {
  n: number;
  hit: number;
}

export interface Scorecard {
  /** Unsafe child inputs intercepted (held back, or redacted for personal_info), per category and overall. */
  inputs: Record<string, Cell>;
  /** Unsafe model sentences that did not reach the child, per category and overall. */
  outputs: Record<string, Cell>;
  everyday: Cell & { redacted: number; escalated: number };
  nearMiss: Cell & { redacted: number; escalated: number };
  benignOutputs: Cell;
  /** Benign lines escalated as incidents (a false escalation is the worst false alarm). */
  falseEscalations: number;
  /** Benign lines held back, by the category the checker named. */
  falseAlarmsBy: Record<string, number>;
  /** personal_info child inputs whose stored text still holds something shaped like a phone number or an e-mail address. */
  contactsStored: number;
}

// What a stored line must never hold: an e-mail address, or seven or more digits in a phone-like run.
const CONTACT = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+\.[\p{L}]{2,}|(?:\d[\s().-]*){7,}/u;

const cell = (): Cell => ({ n: 0, hit: 0 });

/** Scores a checker on labelled lines. */
export function score(lines: readonly LabelledLine[], check: Checker): Scorecard {
  const card: Scorecard = {
    inputs: { all: cell() },
    outputs: { all: cell() },
    everyday: { ...cell(), redacted: 0, escalated: 0 },
    nearMiss: { ...cell(), redacted: 0, escalated: 0 },
    benignOutputs: cell(),
    falseEscalations: 0,
    falseAlarmsBy: {},
    contactsStored: 0,
  };
  const add = (table: Record<string, Cell>, key: string, hit: boolean): void => {
    const c = (table[key] ??= cell());
    c.n++;
    if (hit) c.hit++;
  };
  for (const line of lines) {
    const o = line.direction === "input" ? check.input(line.text) : check.output(line.text);
    if (line.label === "personal_info" && line.direction === "input" && o.stored && CONTACT.test(o.stored)) card.contactsStored++;
    if (line.unsafe) {
      const hit = o.heldBack || (line.label === "personal_info" && o.redacted);
      const table = line.direction === "input" ? card.inputs : card.outputs;
      add(table, line.label, hit);
      add(table, "all", hit);
      continue;
    }
    const child = line.direction === "output" ? null : line.kind === "everyday" ? card.everyday : card.nearMiss;
    const target = child ?? card.benignOutputs;
    target.n++;
    if (o.heldBack) {
      target.hit++;
      for (const c of o.categories) card.falseAlarmsBy[c] = (card.falseAlarmsBy[c] ?? 0) + 1;
    }
    if (o.escalated) card.falseEscalations++;
    if (child && o.redacted) child.redacted++;
    if (child && o.escalated) child.escalated++;
  }
  return card;
}

/** A cell as a percentage ("-" when empty). */
export const share = (c: Cell | undefined): string => (!c || c.n === 0 ? "-" : `${((c.hit / c.n) * 100).toFixed(1)}%`);

/** The scorecard as a markdown table per category, then the benign rows. */
export function formatScorecard(card: Scorecard): string {
  const rows = ["| category | unsafe inputs | intercepted | unsafe model sentences | kept from the child |", "|---|---|---|---|---|"];
  for (const c of [...UNSAFE_LABELS, "all"]) {
    const i = card.inputs[c] ?? cell();
    const o = card.outputs[c] ?? cell();
    const name = c === "all" ? "**all**" : c;
    rows.push(`| ${name} | ${i.n} | ${share(i)} | ${o.n} | ${share(o)}${c === "all" ? ` (${o.n - o.hit} reached the child)` : ""} |`);
  }
  rows.push("", "| benign set | lines | held back | redacted | escalated |", "|---|---|---|---|---|");
  rows.push(
    `| everyday child messages | ${card.everyday.n} | ${card.everyday.hit} (${share(card.everyday)}) | ${card.everyday.redacted} | ${card.everyday.escalated} |`,
  );
  rows.push(
    `| near-miss child messages | ${card.nearMiss.n} | ${card.nearMiss.hit} (${share(card.nearMiss)}) | ${card.nearMiss.redacted} | ${card.nearMiss.escalated} |`,
  );
  rows.push(`| benign model sentences | ${card.benignOutputs.n} | ${card.benignOutputs.hit} (${share(card.benignOutputs)}) | | |`);
  rows.push("", `personal_info inputs whose stored text still holds a phone number or an e-mail address: ${card.contactsStored}.`);
  const by = Object.entries(card.falseAlarmsBy)
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `${c} ${n}`)
    .join(", ");
  rows.push("", `Benign lines held back, by the category named: ${by || "none"}.`);
  return rows.join("\n");
}

/** The outcome a compiled policy's checks give, as the scorecard counts them. */
export function policyChecker(policy: {
  checkInput(t: string): { action: string; text: string; incident: unknown; redacted: readonly unknown[]; intercepted: readonly string[] };
  checkOutput(t: string): { action: string; incident: unknown; intercepted: readonly string[] };
}): Checker {
  return {
    input(text) {
      const v = policy.checkInput(text);
      const heldBack = v.action === "redirect" || v.action === "escalate";
      return { heldBack, redacted: v.redacted.length > 0, escalated: v.incident !== null, categories: v.intercepted, stored: heldBack ? null : v.text };
    },
    output(text) {
      const v = policy.checkOutput(text);
      return {
        heldBack: v.action === "drop" || v.action === "replace",
        redacted: v.action === "redact",
        escalated: v.incident !== null,
        categories: v.intercepted,
      };
    },
  };
}
