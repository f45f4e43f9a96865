/**
 * What keeps an idle session small (issue 26) must not change what a client sees: sessions with the same
 * configuration share one copy of it, yet each one's configuration stays its own; every session's clocks live in
 * one queue, yet each fires at its own deadline, in order, and a closed session's clock never fires. Server-free:
 * the session with fakes (test/interact/helpers/fakes.ts).
 */
import { describe, expect, it } from "bun:test";
import type { SessionConfig } from "../../src/interact/model.ts";
import { shareConfiguration } from "../../src/interact/shared-config.ts";
import { harness } from "./helpers/fakes.ts";

const CONFIG = { prompt: "You are Ollie the owl.", context: { player: { name: "Mia", level: 2 } }, language_code: "en" };

async function configured(config: object = CONFIG) {
  const h = harness();
  await h.request("authenticate", { access_token: "good" });
  expect((await h.request("set_configuration", { config })).kind).toBe("set_configuration");
  return h;
}

/** Resolves once every harness's socket has closed, in the order they closed. */
function closings(hs: ReturnType<typeof harness>[]): Promise<number[]> {
  const order: number[] = [];
  return new Promise((resolve) => {
    hs.forEach((h, i) => {
      const close = h.socket.close.bind(h.socket);
      h.socket.close = (code, reason) => {
        close(code, reason);
        order.push(i);
        if (order.length === hs.length) resolve(order);
      };
    });
  });
}

describe("idle sessions: a shared configuration stays each session's own", () => {
  it("a merge on one session changes neither another session with the same configuration nor a session configured later", async () => {
    const a = await configured();
    const b = await configured();
    const merged = await a.request("merge_configuration", { config: { prompt: "You are Pip the penguin.", context: { player: { level: 3 } } } });
    expect(merged.kind).toBe("merge_configuration");
    expect((await a.request("get_configuration")).config).toEqual({
      ...CONFIG,
      prompt: "You are Pip the penguin.",
      context: { player: { name: "Mia", level: 3 } },
    });
    expect((await b.request("get_configuration")).config).toEqual(CONFIG);
    const c = await configured();
    expect((await c.request("get_configuration")).config).toEqual(CONFIG);
    for (const h of [a, b, c]) h.session.closed();
  });

  it("the engine gets each session's own prompt after one of two sessions with the same configuration merged another", async () => {
    const a = await configured();
    const b = await configured();
    await a.request("merge_configuration", { config: { prompt: "You are Pip the penguin." } });
    await b.send({ type: "stream", kind: "interact", uid: "b1", text: "hello" });
    await b.session.idle();
    await a.send({ type: "stream", kind: "interact", uid: "a1", text: "hello" });
    await a.session.idle();
    expect(b.engine.inputs.at(-1)?.config.prompt).toBe("You are Ollie the owl.");
    expect(a.engine.inputs.at(-1)?.config.prompt).toBe("You are Pip the penguin.");
    for (const h of [a, b]) h.session.closed();
  });

  it("hands out one frozen copy per content: equal configurations share it, a different one does not", () => {
    const first = shareConfiguration(structuredClone(CONFIG) as SessionConfig);
    const same = shareConfiguration(structuredClone(CONFIG) as SessionConfig);
    const other = shareConfiguration({ ...structuredClone(CONFIG), prompt: "You are Pip." } as SessionConfig);
    expect(same).toBe(first);
    expect(other).not.toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.context)).toBe(true);
    expect(() => {
      (first as { prompt: string }).prompt = "changed";
    }).toThrow(TypeError);
  });

  it("freezes a copy, never the caller's own objects", () => {
    const mine = { prompt: "You are Ollie.", on_input: ["cats"], context: { player: { name: "Mia" } } } as unknown as SessionConfig;
    const kept = shareConfiguration(mine);
    expect(kept).toEqual(mine);
    expect(Object.isFrozen(mine)).toBe(false);
    (mine as unknown as { on_input: string[] }).on_input.push("dogs");
    expect((kept as unknown as { on_input: string[] }).on_input).toEqual(["cats"]);
  });
});

describe("idle sessions: every session's clocks in one queue", () => {
  it("closes each session that does not authenticate at its own deadline, earliest first", async () => {
    const hs = [harness({ limits: { authTimeoutMs: 60 } }), harness({ limits: { authTimeoutMs: 20 } }), harness({ limits: { authTimeoutMs: 40 } })];
    expect(await closings(hs)).toEqual([1, 2, 0]);
    for (const h of hs) expect(h.socket.sent.at(-1)).toMatchObject({ type: "error", code: "auth_timeout" });
  });

  it("never fires the clock of a session that closed or authenticated; another session with the same deadline still closes", async () => {
    const gone = harness({ limits: { authTimeoutMs: 30 } });
    const authenticated = harness({ limits: { authTimeoutMs: 30 } });
    const waiting = harness({ limits: { authTimeoutMs: 30 } });
    gone.session.closed();
    await authenticated.request("authenticate", { access_token: "good" });
    await closings([waiting]);
    expect(waiting.socket.sent.at(-1)).toMatchObject({ code: "auth_timeout" });
    expect(gone.socket.sent).toEqual([]);
    expect(authenticated.socket.closedWith).toBeNull();
    expect(authenticated.session.state).toBe("authenticated");
    authenticated.session.closed();
  });
});
