/**
 * The data-mode wrapper (src/interact/data-mode.ts) as a plain object over fakes of its ports: which history a
 * call reaches in each mode, how much a socket remembers in RAM, and which recognisers count as on this machine.
 * The same behaviour through the real server is in data-lite.test.ts.
 */
import { describe, expect, it } from "bun:test";
import type { SttProvider } from "../../src/engine/voice-in/index.ts";
import { withDataMode } from "../../src/interact/data-mode.ts";
import type { DataMode, SessionPorts } from "../../src/interact/session-ports.ts";
import { isLoopbackUrl, NO_RECOGNISER } from "../../src/interact/voice.ts";
import { FakeHistory, LIMITS } from "./helpers/fakes.ts";

function ports(mode: { current: DataMode }, memoryChars = 20) {
  const stored = new FakeHistory();
  stored.messages = [{ role: "user", text: "stored words" }];
  const asked: number[] = [];
  const recogniser: SttProvider = { name: "openai", transcribe: async () => ({ text: "heard" }) };
  const shared = {
    history: stored,
    limits: LIMITS,
    voice: { ...NO_RECOGNISER, stt: () => recogniser, leavesMachine: () => true },
    dataModes: { mode: async (id: number) => (asked.push(id), mode.current), memoryChars },
  } as unknown as SessionPorts;
  return { stored, asked, socket: withDataMode(shared, () => 7) };
}

describe("withDataMode", () => {
  it("reads and writes the stored history in full mode, and nothing of it in lite mode", async () => {
    const mode = { current: "full" as DataMode };
    const { stored, socket } = ports(mode);
    expect(await socket.history.load(7)).toEqual([{ role: "user", text: "stored words" }]);
    await socket.history.record(7, { userText: "hi", reply: "hello" });
    expect(stored.records).toHaveLength(1);
    mode.current = "lite";
    expect(await socket.history.load(7)).toEqual([]);
    await socket.history.record(7, { userText: "secret", reply: "ok" });
    expect(stored.records).toHaveLength(1);
    expect(await socket.history.load(7)).toEqual([
      { role: "user", text: "secret" },
      { role: "assistant", text: "ok" },
    ]);
  });

  it("keeps at most memoryChars characters in RAM, forgetting the oldest messages, and nothing of a '.' turn's input", async () => {
    const { socket } = ports({ current: "lite" }, 20);
    await socket.history.record(7, { userText: "0123456789", reply: "abcdefghij" });
    await socket.history.record(7, { userText: null, reply: "klmnopqrst" });
    expect(await socket.history.load(7)).toEqual([
      { role: "assistant", text: "abcdefghij" },
      { role: "assistant", text: "klmnopqrst" },
    ]);
    await socket.history.record(7, { userText: "x".repeat(25), reply: " " });
    expect(await socket.history.load(7)).toEqual([]);
  });

  it("gives each socket its own memory", async () => {
    const mode = { current: "lite" as DataMode };
    const a = ports(mode);
    const b = withDataMode({ ...a.socket, history: a.stored, voice: NO_RECOGNISER } as SessionPorts, () => 7);
    await a.socket.history.record(7, { userText: "only on a", reply: "" });
    expect(await b.history.load(7)).toEqual([]);
  });

  it("refuses a recogniser outside the machine in lite mode with stt_consent_required, asking the mode each time", async () => {
    const mode = { current: "lite" as DataMode };
    const { socket, asked } = ports(mode);
    const wav = new Uint8Array(44);
    const refused = await socket
      .voice!.stt()
      .transcribe({ wav, languageCode: "en" })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "stt_consent_required" });
    mode.current = "full";
    expect(await socket.voice!.stt().transcribe({ wav, languageCode: "en" })).toEqual({ text: "heard" });
    expect(asked).toEqual([7, 7]);
  });
});

describe("isLoopbackUrl", () => {
  it.each([
    ["http://127.0.0.1:9000/v1", true],
    ["http://127.9.8.7/v1", true],
    ["http://localhost:8000/v1", true],
    ["http://LOCALHOST/v1", true],
    ["http://[::1]:9000/v1", true],
    ["http://0.0.0.0:9000/v1", false],
    ["https://api.openai.com/v1", false],
    ["http://127.0.0.1.example.com/v1", false],
    ["http://10.0.0.5/v1", false],
    ["not a url", false],
  ])("%s -> %p", (url, expected) => {
    expect(isLoopbackUrl(url)).toBe(expected);
  });
});
