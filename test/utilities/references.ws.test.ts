/**
 * References in configurations, resolved at set_configuration / merge_configuration time against the
 * player's team only: whole configurations, prompts, voice profiles and utilities, versions, "default",
 * nesting, unknown names and versions, and another team's names (refused as unknown).
 */
import { beforeAll, describe, expect, it } from "bun:test";
import { DEFAULT_PROMPT } from "../../src/interact/references.ts";
import { api, createPlayer, createTeamFixture, serverForFile, type TeamFixture } from "../helpers/server.ts";
import { type Msg, openSession, WsProbe } from "../helpers/ws.ts";

const file = serverForFile();
let other: TeamFixture;
const CATS = { type: "classify", classification_question: "Did the user mention cats?", answers: ["yes", "no"] };

async function store(team: TeamFixture, kind: "configs" | "utilities", name: string, body: Msg): Promise<void> {
  const res = await api(file.server.url, "PUT", `/api/${kind}/${name}`, {
    token: team.developerToken,
    body: kind === "configs" ? { config: body } : { utility: body },
  });
  if (res.status !== 200 && res.status !== 201) throw new Error(`store ${name}: ${res.status} ${JSON.stringify(res.body)}`);
}

async function socket(team: TeamFixture = file.team): Promise<WsProbe> {
  const player = await createPlayer(file.server, team);
  const probe = await WsProbe.open(file.server.url);
  await probe.request("authenticate", { access_token: player.token });
  return probe;
}

beforeAll(async () => {
  other = await createTeamFixture(file.server);
  const team = file.team;
  await store(team, "configs", "owl", { prompt: "You are Ollie the owl, version one.", temperature: 0.3 });
  await store(team, "configs", "owl", { prompt: "You are Ollie the owl, version two.", temperature: 0.6, voice_profile: { speed: 0.9 } });
  await store(team, "utilities", "cats", CATS);
  await store(team, "utilities", "cats", { ...CATS, answers: ["yes", "no", "maybe"] });
  await store(team, "configs", "base", { prompt: { reference: "owl@v1" }, utilities: { cats: { reference: "cats@v1" }, mood: "mood" } });
  await store(team, "utilities", "mood", {
    type: "classify",
    classification_question: "How does the child feel?",
    answers: ["positive", "neutral", "negative"],
  });
  await store(team, "configs", "voice_override", { voice_profile: { speed: 1.1 }, temperature: 1 });
  await store(team, "configs", "loop", { prompt: { reference: "loop" } });
  await store(other, "configs", "theirs", { prompt: "Another team's character." });
  await store(other, "utilities", "their-cats", CATS);
});

describe("set_configuration with references", () => {
  it("takes a whole stored configuration: the latest, or a version; get_configuration shows it resolved", async () => {
    const probe = await socket();
    expect((await probe.request("set_configuration", { config: { reference: "owl" } })).kind).toBe("set_configuration");
    expect((await probe.request("get_configuration")).config).toEqual({
      prompt: "You are Ollie the owl, version two.",
      temperature: 0.6,
      voice_profile: { speed: 0.9 },
    });
    await probe.request("set_configuration", { config: { reference: "owl@v1" } });
    expect((await probe.request("get_configuration")).config).toEqual({ prompt: "You are Ollie the owl, version one.", temperature: 0.3 });
    const { events } = await probe.interact("hello");
    expect(events.at(-2)?.event).toBe("interaction_complete");
    probe.close();
  });

  it("resolves a prompt, a voice profile and utilities given by reference or by name", async () => {
    const probe = await socket();
    const res = await probe.request("set_configuration", {
      config: {
        prompt: { reference: "owl@v2" },
        voice_profile: { reference: "voice_override" },
        utilities: { cats: { reference: "cats" }, old_cats: "cats@v1", none: null },
      },
    });
    expect(res.kind).toBe("set_configuration");
    const config = (await probe.request("get_configuration")).config;
    expect(config).toEqual({
      prompt: "You are Ollie the owl, version two.",
      voice_profile: { speed: 1.1 },
      utilities: { cats: { ...CATS, answers: ["yes", "no", "maybe"] }, old_cats: CATS, none: null },
    });
    const { events } = await probe.interact("I have a cat", { on_input: ["old_cats"] });
    expect(events.find((e) => e.event === "data")?.data).toEqual({ old_cats: "yes" });
    probe.close();
  });

  it("resolves references inside stored configurations", async () => {
    const probe = await socket();
    await probe.request("set_configuration", { config: { reference: "base" } });
    const config = (await probe.request("get_configuration")).config;
    expect(config.prompt).toBe("You are Ollie the owl, version one.");
    expect(Object.keys(config.utilities)).toEqual(["cats", "mood"]);
    expect(config.utilities.cats).toEqual(CATS);
    probe.close();
  });

  it('takes "default" and "" as hoot\'s default', async () => {
    const probe = await socket();
    for (const reference of ["default", ""]) {
      expect((await probe.request("set_configuration", { config: { reference } })).kind).toBe("set_configuration");
      expect((await probe.request("get_configuration")).config).toEqual({ prompt: DEFAULT_PROMPT });
    }
    await probe.request("set_configuration", { config: { prompt: { reference: "default" }, voice_profile: { reference: "default" } } });
    expect((await probe.request("get_configuration")).config).toEqual({ prompt: DEFAULT_PROMPT });
    probe.close();
  });

  it("refuses unknown names and versions with the field, and keeps the old configuration", async () => {
    const probe = await socket();
    await probe.request("set_configuration", { config: { prompt: "kept" } });
    const cases: [Msg, string, string][] = [
      [{ reference: "nope" }, "unknown_reference", 'field "config": no stored configuration "nope" in this team'],
      [{ reference: "owl@v3" }, "unknown_reference", 'field "config": stored configuration "owl" has no version 3 (the latest is 2)'],
      [{ prompt: { reference: "nope@v2" } }, "unknown_reference", 'field "config.prompt": no stored configuration "nope"'],
      [{ prompt: "p", utilities: { x: { reference: "dogs" } } }, "unknown_reference", 'field "config.utilities.x": no stored utility "dogs" in this team'],
      [{ prompt: "p", utilities: { x: "cats@v9" } }, "unknown_reference", 'stored utility "cats" has no version 9 (the latest is 2)'],
      [{ prompt: { reference: "voice_override" } }, "unknown_reference", 'stored configuration "voice_override" has no prompt'],
      [{ reference: "bad name" }, "invalid_configuration", 'field "config": "bad name" is not a reference'],
      [{ reference: "loop" }, "invalid_configuration", "references nest more than 4 deep"],
      [{ prompt: "p", utilities: { x: { reference: "cats", extra: 1 } } }, "invalid_configuration", "config.utilities.x.type"],
    ];
    for (const [config, code, sentence] of cases) {
      const res = await probe.request("set_configuration", { config });
      expect({ config, kind: res.kind, code: res.code }).toEqual({ config, kind: "error", code });
      expect(res.error).toContain(sentence);
    }
    expect((await probe.request("get_configuration")).config).toEqual({ prompt: "kept" });
    probe.close();
  });

  it("never resolves another team's names, and another team never resolves ours", async () => {
    const ours = await socket();
    for (const config of [{ reference: "theirs" }, { prompt: { reference: "theirs@v1" } }, { prompt: "p", utilities: { c: { reference: "their-cats" } } }]) {
      const res = await ours.request("set_configuration", { config });
      expect(res).toMatchObject({ kind: "error", code: "unknown_reference" });
      expect(res.error).toContain("in this team");
    }
    const theirs = await socket(other);
    expect(await theirs.request("set_configuration", { config: { reference: "owl" } })).toMatchObject({ kind: "error", code: "unknown_reference" });
    expect((await theirs.request("set_configuration", { config: { reference: "theirs" } })).kind).toBe("set_configuration");
    ours.close();
    theirs.close();
  });

  it("keeps what it resolved when the stored configuration changes or is deleted later", async () => {
    await store(file.team, "configs", "short-lived", { prompt: "first words" });
    const probe = await socket();
    await probe.request("set_configuration", { config: { reference: "short-lived" } });
    await store(file.team, "configs", "short-lived", { prompt: "second words" });
    await api(file.server.url, "DELETE", "/api/configs/short-lived", { token: file.team.developerToken });
    expect((await probe.request("get_configuration")).config).toEqual({ prompt: "first words" });
    probe.close();
  });
});

describe("merge_configuration with references", () => {
  it("merges stored configurations in order and answers the utilities configured now", async () => {
    const probe = await socket();
    const res = await probe.request("merge_configuration", { references: [{ reference: "base" }, { reference: "voice_override" }] });
    expect(res).toMatchObject({ kind: "merge_configuration", utilities: ["cats", "mood"] });
    expect((await probe.request("get_configuration")).config).toEqual({
      prompt: "You are Ollie the owl, version one.",
      utilities: { cats: CATS, mood: { type: "classify", classification_question: "How does the child feel?", answers: ["positive", "neutral", "negative"] } },
      voice_profile: { speed: 1.1 },
      temperature: 1,
    });
    // references first, then config; later ones win.
    const both = await probe.request("merge_configuration", { references: [{ reference: "owl@v2" }], config: { temperature: 0.2, utilities: { mood: null } } });
    expect(both).toMatchObject({ kind: "merge_configuration", utilities: ["cats"] });
    expect((await probe.request("get_configuration")).config).toMatchObject({
      prompt: "You are Ollie the owl, version two.",
      temperature: 0.2,
      voice_profile: { speed: 0.9 },
    });
    probe.close();
  });

  it("refuses an unknown reference and changes nothing", async () => {
    const probe = await openSession(file.server.url, (await createPlayer(file.server, file.team)).token, { prompt: "kept" });
    const res = await probe.request("merge_configuration", { references: [{ reference: "voice_override" }, { reference: "theirs" }] });
    expect(res).toMatchObject({ kind: "error", code: "unknown_reference" });
    expect((await probe.request("get_configuration")).config).toEqual({ prompt: "kept" });
    probe.close();
  });

  it("before any configuration, needs the references to give a prompt", async () => {
    const probe = await socket();
    const res = await probe.request("merge_configuration", { references: [{ reference: "voice_override" }] });
    expect(res).toMatchObject({ kind: "error", code: "invalid_configuration" });
    expect(res.error).toContain('"config.prompt" is required');
    expect((await probe.request("merge_configuration", { references: [] })).code).toBe("invalid_configuration");
    expect((await probe.request("merge_configuration", { references: [{ reference: "owl" }] })).utilities).toEqual([]);
    probe.close();
  });
});
