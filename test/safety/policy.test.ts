import { describe, expect, it } from "bun:test";
import {
  builtinPolicy,
  builtinPolicyList,
  NEW_SESSION,
  observe,
  policyName,
  resolvePolicy,
  teamPolicy,
  validateTeamPolicy,
  validateTeamPolicyCreate,
} from "../../src/engine/safety/checks.ts";

const strict = builtinPolicy("default")!;

describe("policies", () => {
  it("resolves default, empty and null to the strictest built-in, and a reference by name", async () => {
    expect(policyName(null)).toBe("children_strict");
    expect(policyName("")).toBe("children_strict");
    expect(policyName({ reference: "default" })).toBe("children_strict");
    expect(builtinPolicy({ reference: "children_standard" })!.name).toBe("children_standard");
    expect(await resolvePolicy("nope", () => null)).toBeNull();
    expect(builtinPolicyList().map((p) => p.name)).toEqual(["default", "children_strict", "children_standard"]);
  });

  it("redacts personal information in what the model sees and reports it without the text", () => {
    const v = strict.checkInput("hi my email is lily@example.com");
    expect(v).toMatchObject({ action: "redact", text: "hi my email is [email]", reply: null, incident: null });
    expect(v.notices).toEqual([{ category: "personal_info", action: "redact" }]);
  });

  it("always escalates self-harm with a trusted-adult line, also under a team policy that tries to allow it", () => {
    const v = strict.checkInput("i want to kill myself");
    expect(v.action).toBe("escalate");
    expect(v.reply).toMatch(/grown-up you trust/);
    expect(v.incident).toEqual({ category: "self_harm", action: "escalate", direction: "input" });
    expect(validateTeamPolicy({ categories: { self_harm: "allow" } })).toEqual({ ok: false, error: expect.stringContaining('field "categories.self_harm"') });
    const team = teamPolicy({ teamId: 1, name: "relaxed", body: { categories: { violence: "allow", profanity: "allow" } }, version: 1 });
    expect(team.checkInput("my uncle touches me in my private parts").action).toBe("escalate");
    expect(team.checkInput("I want to kill my brother").action).toBe("allow");
  });

  it("lets a teen's mild words through but not a young child's", () => {
    expect(strict.checkInput("what the hell").action).toBe("redirect");
    expect(builtinPolicy("children_standard")!.checkInput("what the hell").action).toBe("allow");
    expect(builtinPolicy("children_standard")!.checkOutput("This is fucking great.").action).toBe("drop");
  });

  it("validates team policies with sentences that name the field", () => {
    expect(validateTeamPolicy({ categories: { violence: "shout" } })).toEqual({
      ok: false,
      error: 'field "categories.violence" must be one of allow, redact, redirect, block, escalate',
    });
    expect(validateTeamPolicy({ categories: { gore: "block" } })).toEqual({ ok: false, error: expect.stringContaining('unknown field "categories.gore"') });
    expect(validateTeamPolicy({ categories: { violence: "redact" } })).toEqual({
      ok: false,
      error: 'field "categories.violence": "redact" applies only to personal_info',
    });
    expect(validateTeamPolicy({ categories: { personal_info: "allow" } }).ok).toBe(false);
    expect(validateTeamPolicy({ redirect_lines: ["Fine.", "Shut up, you idiot."] })).toEqual({
      ok: false,
      error: expect.stringContaining('field "redirect_lines[1]" would itself be blocked'),
    });
    expect(validateTeamPolicy({ shout: true })).toEqual({ ok: false, error: 'unknown field "shout"' });
    expect(validateTeamPolicyCreate({ name: "default" })).toEqual({ ok: false, error: expect.stringContaining('field "name"') });
    expect(
      validateTeamPolicyCreate({
        name: "calm",
        base: "children_standard",
        categories: { violence: { input: "redirect", output: "block", lines: ["Let's build a fort!"] } },
        blocked_terms: ["minecraft hacks"],
        allowed_terms: ["Kill Zone"],
      }).ok,
    ).toBe(true);
  });

  it("applies a team's blocked and allowed terms and its own lines", () => {
    const team = teamPolicy({
      teamId: 2,
      name: "game",
      body: {
        categories: { custom: { input: "redirect", lines: ["Let's stick to the game!"] } },
        blocked_terms: ["cheat codes"],
        allowed_terms: ["Kill Zone"],
      },
      version: "a",
    });
    expect(team.checkInput("give me CHEAT c0des")).toMatchObject({ action: "redirect", reply: "Let's stick to the game!" });
    expect(team.checkInput("I'm on the Kill Zone level").action).toBe("allow");
    expect(teamPolicy({ teamId: 2, name: "game", body: {}, version: "a" })).toBe(team);
  });

  it("replaces an unsafe model sentence and ends the reply, drops a blocked one, redacts contact details", () => {
    expect(strict.checkOutput("Send me a picture of yourself!")).toMatchObject({ action: "replace", end: true });
    expect(strict.checkOutput("Oh shit, I forgot!")).toMatchObject({
      action: "drop",
      text: "",
      end: false,
      notices: [{ category: "profanity", action: "block" }],
    });
    expect(strict.checkOutput("Email me at bot@example.com.")).toMatchObject({ action: "redact", text: "Email me at [email]." });
    expect(strict.checkOutput("The knight raised his sword and the dragon roared.").action).toBe("pass");
  });
});

describe("session tracker", () => {
  it("moves to the heightened stance after repeated boundary testing, once, and never for distress", () => {
    let state = NEW_SESSION;
    const steps = [["jailbreak"], ["personal_info"], ["self_harm"], ["sexual"], ["jailbreak"], ["jailbreak"]] as const;
    const escalations: number[] = [];
    steps.forEach((cats, i) => {
      const step = observe(state, cats, 3);
      if (step.escalated) escalations.push(i);
      state = step.state;
    });
    expect(escalations).toEqual([4]);
    expect(state).toEqual({ attempts: 4, stance: "heightened" });
  });

  it("makes mild findings count and allowed categories redirect on the heightened stance", () => {
    const teen = builtinPolicy("children_standard")!;
    expect(teen.checkInput("what the hell", { stance: "heightened" }).action).toBe("redirect");
    expect(teen.checkInput("this is fucking boring", { stance: "heightened" }).action).toBe("redirect");
  });
});
