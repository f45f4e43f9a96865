/**
 * The shortcuts the detector takes (issue 26) change no finding: the rule prefilter that runs a rule only when
 * every part its matches need is in the text, obscenity's one-pass gate, obscenity run once per distinct view,
 * and the classifier's per-word features. Each is compared with the slow path (`prefilter.enabled = false`: every
 * rule and obscenity's full matcher on every text) on a sample of the training lines, alone and joined with the
 * line before (the output gate's joint check), under no team terms and under a team's allowed and blocked terms.
 */
import { describe, expect, it } from "bun:test";
import { loadSet } from "../../scripts/safety-data.ts";
import { builtinPolicy, teamPolicy } from "../../src/engine/safety/checks.ts";
import { compileTerms, detect, NO_TERMS, prefilter, ruleHits } from "../../src/engine/safety/detect/detector.ts";
import { views } from "../../src/engine/safety/detect/normalize.ts";
import { mayBeObscene, obscenityGateActive } from "../../src/engine/safety/detect/obscenity-gate.ts";
import { RuleIndex, requirementOf } from "../../src/engine/safety/detect/prefilter.ts";
import { obscenityFindings } from "../../src/engine/safety/detect/rules/profanity.ts";

const train = loadSet("train");
/** Every 25th training line (~2,500 of them, every writer and kind) and the joint texts of neighbouring ones. */
const sample = train.filter((_, i) => i % 25 === 0);
const joints = sample.slice(1).map((l, i) => ({ text: `${sample[i]?.text} ${l.text}`, direction: l.direction }));
const TERMS = compileTerms(["fortnite", "bad word"], ["kill zone", "shoot", "ass"]);

/** Runs `f` on the slow path, then restores the fast one. */
function slow<T>(f: () => T): T {
  prefilter.enabled = false;
  try {
    return f();
  } finally {
    prefilter.enabled = true;
  }
}

describe("the detector's fast path", () => {
  it("finds exactly what the slow path finds, on training lines alone and joined, with and without team terms", () => {
    expect(sample.length).toBeGreaterThan(2000);
    const differences: string[] = [];
    for (const { text, direction } of [...sample, ...joints]) {
      for (const terms of [NO_TERMS, TERMS]) {
        const fast = JSON.stringify([ruleHits(text, direction, terms), detect(text, direction, terms)]);
        const reference = slow(() => JSON.stringify([ruleHits(text, direction, terms), detect(text, direction, terms)]));
        if (fast !== reference) differences.push(`${direction}: ${text}`);
      }
    }
    expect(differences).toEqual([]);
  }, 300_000);

  it("gives the same verdicts through the policies on both paths", () => {
    const strict = builtinPolicy("children_strict")!;
    const team = teamPolicy({ teamId: 1, name: "t", version: 1, body: { base: "children_standard", allowed_terms: ["shoot"], blocked_terms: ["fortnite"] } });
    const differences: string[] = [];
    for (const { text } of sample) {
      for (const policy of [strict, team]) {
        const fast = JSON.stringify([policy.checkInput(text), policy.checkOutput(text)]);
        if (slow(() => JSON.stringify([policy.checkInput(text), policy.checkOutput(text)])) !== fast) differences.push(text);
      }
    }
    expect(differences).toEqual([]);
  }, 120_000);
});

describe("obscenity's one-pass gate", () => {
  it("is in use with the installed obscenity, and lets through every view in which obscenity finds a word", () => {
    expect(obscenityGateActive).toBe(true);
    let skipped = 0;
    const missed: string[] = [];
    for (const { text } of [...sample, ...joints]) {
      const v = views(text);
      for (const view of [v.clean, v.canon]) {
        if (mayBeObscene(view)) continue;
        skipped++;
        if (obscenityFindings(view).length > 0) missed.push(text);
      }
    }
    expect(missed).toEqual([]);
    // It is worth having: most views of most lines hold no dataset word.
    expect(skipped).toBeGreaterThan(sample.length);
  }, 120_000);

  it("lets a swear word through to obscenity's matcher, disguised or not", () => {
    for (const text of ["what the fuck", "what the fuuuck", "f u c k", "sh1t"])
      expect(mayBeObscene(views(text).clean) || mayBeObscene(views(text).canon)).toBe(true);
    expect(mayBeObscene(" what a lovely day for a story ")).toBe(false);
  });
});

describe("the rule prefilter's requirements", () => {
  it("asks for every part a match must pass through, and any one alternative of a group", () => {
    expect(requirementOf(/\bkill ?(?:myself|yourself)\b/)).toEqual({ all: ["kill", { any: ["myself", "yourself"] }] });
    expect(requirementOf(/\b(?:the )?(?:bomb|grenade)s?\b/)).toEqual({ any: ["bomb", "grenade"] });
    expect(requirementOf(/\b(?:a|an) (?:[a-z]+ ){0,3}x\b/)).toBeNull();
    expect(requirementOf(/(?<!root )beer/)).toBe("beer");
    expect(requirementOf(/kill/i)).toBeNull();
  });

  it("runs a rule only when all its required parts are in the text", () => {
    const index = new RuleIndex([/\bkill ?(?:myself|yourself)\b/, /\bhow ?to ?make ?a ?bomb\b/, /[*#]{2}/]);
    expect([...index.candidates(" i want to kill myself ")]).toEqual([0]);
    expect([...index.candidates(" kill time by yourself ")]).toEqual([0]);
    expect([...index.candidates(" i want to kill time ")]).toEqual([]);
    expect([...index.candidates(" how to make a cake ")]).toEqual([]);
    expect([...index.candidates(" how to make a bomb ")]).toEqual([1]);
    expect([...index.always]).toEqual([2]);
  });
});

describe("a model sentence normalised once", () => {
  const pairs: [string, string][] = [
    ["we spelt k i", "l l it"],
    ["look at my", "id card please"],
    ["I'd say so", "id rather not"],
    ["ΑΣ", "Σα"],
    ["e", "\u0301 accent"],
    ["trailing space\u00a0", " leading"],
    ["it's", "'quoted'"],
    ["k.i.l.l", "m.e"],
    ["f", "u c k"],
    ["u", "r a loser"],
    ["", "alone"],
  ];

  it("gives the joint text exactly the views it would get alone, whatever sits at the join", () => {
    const corpus = sample.filter((l) => l.direction === "output").map((l) => l.text);
    const all: [string, string][] = [...pairs, ...corpus.slice(1).map((t, i): [string, string] => [corpus[i] as string, t])];
    const differences: string[] = [];
    for (const [a, b] of all) {
      views(a, true);
      views(b, true);
      const joint = `${a} ${b}`;
      if (JSON.stringify(views(joint, true)) !== JSON.stringify(views(joint))) differences.push(joint);
    }
    expect(all.length).toBeGreaterThan(500);
    expect(differences).toEqual([]);
  });
});
