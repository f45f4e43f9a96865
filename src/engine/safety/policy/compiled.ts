/**
 * A policy compiled into a checker: the one object the turn calls. Building it compiles the team's terms;
 * each check then normalises the text once and runs the rules (well under a millisecond per sentence).
 *
 *   checkInput(text)      -> allow | redact | redirect | escalate, the redacted text, the reply line, notices
 *   checkOutput(sentence) -> pass | redact | drop | replace (and end the reply), notices
 *
 * Rules it keeps:
 * - the returned `text` is always the redacted one: it is what the model sees and what is stored or logged;
 * - notices carry a category and an action, never text; an escalation carries an incident without text;
 * - self-harm and abuse always answer with the fixed trusted-adult line, whatever the spec says;
 * - an escalation (an incident a parent may hear about) needs a sure finding (a severe rule, or the classifier
 *   above its escalation threshold): an unsure one is answered as a redirect, with the same line, and no incident;
 * - on an input, "block" has no sentence to drop, so it answers like "redirect";
 * - on the heightened stance mild findings count and "allow" becomes "redirect".
 */
import { CATEGORIES, type Category, type Direction, FIXED_CATEGORIES, type Finding } from "../detect/categories.ts";
import { compileTerms, detect, type TermMatchers } from "../detect/detector.ts";
import { type PiiKind, redactPii } from "../detect/pii.ts";
import type { Stance } from "../session/tracker.ts";
import type { PolicySpec } from "./builtin.ts";
import { pickLine } from "./lines.ts";
import type { PolicyAction } from "./model.ts";

/** A category a notice or incident can name: the policy's categories plus the two the engine adds itself. */
export type NoticeCategory = Category | "moderation" | "boundary_testing";
export type NoticeAction = "redact" | "redirect" | "block" | "escalate";

/** One `safety_policy` event: `{ event: "safety_policy", category, action }`. */
export interface Notice {
  category: NoticeCategory;
  action: NoticeAction;
}

/** One incident to record (player, session and time come from the caller); never the text. */
export interface Incident {
  category: NoticeCategory;
  action: "escalate";
  direction: Direction;
}

export interface InputVerdict {
  action: "allow" | "redact" | "redirect" | "escalate";
  /** The child's text with personal information replaced: give this to the model, store it, never the original. */
  text: string;
  /** For redirect and escalate: the line to answer with instead of calling the model. */
  reply: string | null;
  notices: Notice[];
  incident: Incident | null;
  /** Categories the policy acted on (for the session tracker). */
  intercepted: Category[];
  /** Kinds of personal information replaced. */
  redacted: PiiKind[];
}

export interface OutputVerdict {
  action: "pass" | "redact" | "drop" | "replace";
  /** What to send in place of the sentence ("" when dropped). */
  text: string;
  /** True when the reply must stop after this sentence (it was replaced by a safe line). */
  end: boolean;
  notices: Notice[];
  incident: Incident | null;
  intercepted: Category[];
}

export interface CheckOptions {
  stance?: Stance;
}

/** The categories of the findings sure enough to escalate (severe rules, the classifier above its escalation threshold). */
function sureOf(findings: readonly Finding[]): Set<Category> {
  return new Set(findings.filter((f) => f.tier === "severe").map((f) => f.category));
}

/** An escalation without a sure finding is a redirect: a false incident is worse than a false redirect. */
function unsure(action: PolicyAction, category: Category, sure: ReadonlySet<Category> | undefined): PolicyAction {
  return action === "escalate" && sure && !sure.has(category) ? "redirect" : action;
}

const INPUT_RANK = { allow: 0, redact: 1, redirect: 2, escalate: 3 } as const;

export class CompiledPolicy {
  readonly name: string;
  readonly builtin: boolean;
  readonly description: string;
  readonly checksOutput: boolean;
  readonly strictAfter: number;
  private readonly terms: TermMatchers;

  constructor(readonly spec: PolicySpec) {
    this.name = spec.name;
    this.builtin = spec.builtin;
    this.description = spec.description;
    this.checksOutput = spec.checkOutput;
    this.strictAfter = spec.strictAfter;
    this.terms = compileTerms(spec.blockedTerms, spec.allowedTerms);
  }

  /** The action this policy takes for a category in one direction on a stance. */
  action(category: Category, direction: Direction, stance: Stance = "normal"): PolicyAction {
    if (FIXED_CATEGORIES.has(category)) return "escalate";
    const action = this.spec.actions[category][direction];
    return stance === "heightened" && action === "allow" ? (direction === "input" ? "redirect" : "block") : action;
  }

  /** The findings that count on this stance (mild ones only under a strict policy or the heightened stance). */
  counted(findings: readonly Finding[], stance: Stance = "normal"): Category[] {
    const mild = this.spec.strict || stance === "heightened";
    return findings.filter((f) => mild || f.tier !== "mild").map((f) => f.category);
  }

  /**
   * Checks what a child typed, before the model is called.
   * @example policy.checkInput("my email is sam@example.com") // { action: "redact", text: "my email is [email]", ... }
   */
  checkInput(text: string, options: CheckOptions = {}): InputVerdict {
    const stance = options.stance ?? "normal";
    const redaction = redactPii(text);
    const findings = detect(text, "input", this.terms);
    const categories = this.counted(findings, stance);
    if (redaction.kinds.length > 0) categories.push("personal_info");
    return this.decideInput(redaction.text, categories, redaction.kinds, stance, text, sureOf(findings));
  }

  /**
   * Turns categories (from the rules or a moderation model) into an input verdict. `sure` names the categories
   * found with enough confidence to escalate; without it (a moderation model's answer) every category is.
   */
  decideInput(
    text: string,
    categories: readonly Category[],
    redacted: PiiKind[] = [],
    stance: Stance = "normal",
    key = text,
    sure?: ReadonlySet<Category>,
  ): InputVerdict {
    const notices: Notice[] = [];
    const intercepted: Category[] = [];
    let action: InputVerdict["action"] = "allow";
    let lineCategory: Category | null = null;
    let incident: Incident | null = null;
    for (const category of CATEGORIES) {
      if (!categories.includes(category)) continue;
      const raw = unsure(this.action(category, "input", stance), category, sure);
      if (raw === "allow") continue;
      const applied: InputVerdict["action"] = raw === "block" ? "redirect" : raw === "redact" ? (category === "personal_info" ? "redact" : "redirect") : raw;
      if (category === "personal_info" && applied === "redact" && redacted.length === 0) continue;
      intercepted.push(category);
      notices.push({ category, action: applied });
      if (applied === "escalate" && !incident) incident = { category, action: "escalate", direction: "input" };
      if ((applied === "redirect" || applied === "escalate") && !lineCategory) lineCategory = category;
      if (INPUT_RANK[applied] > INPUT_RANK[action]) action = applied;
    }
    const reply = lineCategory ? pickLine(this.spec.lines[lineCategory], key) : null;
    return { action, text, reply, notices, incident, intercepted, redacted };
  }

  /**
   * Checks one sentence the model wrote, before it leaves as text or audio.
   * @example policy.checkOutput("Send me a photo of you!") // { action: "replace", end: true, ... }
   */
  checkOutput(sentence: string, options: CheckOptions = {}): OutputVerdict {
    const stance = options.stance ?? "normal";
    const redaction = redactPii(sentence, true);
    const findings = detect(sentence, "output", this.terms);
    const categories = this.counted(findings, stance);
    if (redaction.kinds.length > 0) categories.push("personal_info");
    return this.decideOutput(sentence, redaction.text, categories, stance, sureOf(findings));
  }

  /** Turns categories into an output verdict; `redactedText` is the sentence with contact details replaced. */
  decideOutput(
    sentence: string,
    redactedText: string,
    categories: readonly Category[],
    stance: Stance = "normal",
    sure?: ReadonlySet<Category>,
  ): OutputVerdict {
    const notices: Notice[] = [];
    const intercepted: Category[] = [];
    let verdict: OutputVerdict["action"] = "pass";
    let lineCategory: Category | null = null;
    let incident: Incident | null = null;
    const rank = { pass: 0, redact: 1, drop: 2, replace: 3 } as const;
    for (const category of CATEGORIES) {
      if (!categories.includes(category)) continue;
      const raw = unsure(this.action(category, "output", stance), category, sure);
      if (raw === "allow") continue;
      const applied: OutputVerdict["action"] = raw === "redact" ? (category === "personal_info" ? "redact" : "drop") : raw === "block" ? "drop" : "replace";
      intercepted.push(category);
      notices.push({ category, action: raw === "redact" && category !== "personal_info" ? "block" : raw });
      if (raw === "escalate" && !incident) incident = { category, action: "escalate", direction: "output" };
      if (applied === "replace" && !lineCategory) lineCategory = category;
      if (rank[applied] > rank[verdict]) verdict = applied;
    }
    if (verdict === "pass") return { action: "pass", text: sentence, end: false, notices, incident, intercepted };
    if (verdict === "redact") return { action: "redact", text: redactedText, end: false, notices, incident, intercepted };
    if (verdict === "drop") return { action: "drop", text: "", end: false, notices, incident, intercepted };
    return {
      action: "replace",
      text: pickLine(this.spec.outputLines[lineCategory as Category] ?? this.spec.lines[lineCategory as Category], sentence),
      end: true,
      notices,
      incident,
      intercepted,
    };
  }

  /** Replaces personal information (for anything stored or logged outside a check). */
  redact(text: string): string {
    return redactPii(text).text;
  }

  /** A line to end a reply with when a check could not finish. */
  fallbackLine(key: string): string {
    return pickLine(this.spec.fallbackLines, key);
  }
}
