/**
 * toWire, the one mapping from engine frames to websocket messages, and the server message union: every
 * message a real session sends is one of its members.
 */
import { describe, expect, it } from "bun:test";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { type RequestStamp, ServerMessageSchema, type StreamFrame, toWire } from "../../src/interact/protocol.ts";
import { createPlayer, serverForFile } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";

const stamp: RequestStamp = { uid: "u1", clientStartTime: "2026-11-22T09:41:07.123000Z", serverStart: Date.parse("2026-11-22T09:41:07.200Z") * 1000 };
const chunk = { data: new Uint8Array([0xff, 0xfb, 0x90, 0x64]), mimeType: "audio/mpeg", sampleRate: 44100 };

const CASES: [string, StreamFrame, Record<string, unknown>[]][] = [
  ["started", { type: "started" }, [{ event: "interaction_started" }]],
  ["a text fragment", { type: "text", text: "Hi" }, [{ event: "text", text: "Hi" }]],
  [
    "sentence audio as base64",
    { type: "audio", chunk, text: "Hi there.", seq: 3, durationSec: 0.026122 },
    [{ event: "audio", audio: "//uQZA==", mime_type: "audio/mpeg", sample_rate: 44100, seq: 3, text: "Hi there.", duration_sec: 0.026122 }],
  ],
  [
    "sentence audio with the marks the turn asked for",
    {
      type: "audio",
      chunk,
      text: "Hi.",
      seq: 0,
      durationSec: 0.5,
      marks: { marks: "engine", subtitles: [{ text: "Hi.", start_time_sec: 0.1, duration_sec: 0.3 }] },
    },
    [
      {
        event: "audio",
        audio: "//uQZA==",
        mime_type: "audio/mpeg",
        sample_rate: 44100,
        seq: 0,
        text: "Hi.",
        duration_sec: 0.5,
        marks: "engine",
        subtitles: [{ text: "Hi.", start_time_sec: 0.1, duration_sec: 0.3 }],
      },
    ],
  ],
  [
    "a notice as safety_policy",
    { type: "notice", category: "violence", action: "replaced" },
    [{ event: "safety_policy", category: "violence", action: "replaced" }],
  ],
  ["data", { type: "data", data: { mood: "happy" } }, [{ event: "data", data: { mood: "happy" } }]],
  ["an engine error", { type: "error", code: "llm_timeout", error: "slow" }, [{ event: "interaction_error", error: "slow", code: "llm_timeout" }]],
  ["complete without audio", { type: "complete", text: "Hi.", audio: false }, [{ event: "text_complete", text: "Hi." }]],
  ["complete with audio", { type: "complete", text: "Hi.", audio: true }, [{ event: "text_complete", text: "Hi." }, { event: "audio_complete" }]],
  ["committed", { type: "committed" }, [{ event: "interaction_complete" }]],
  ["the end of a failed reply's audio", { type: "audio_end" }, [{ event: "audio_complete" }]],
];

const isServerMessage = TypeCompiler.Compile(ServerMessageSchema);

describe("toWire", () => {
  for (const [name, frame, expected] of CASES) {
    it(`turns ${name} into its event`, () => {
      const messages: Record<string, unknown>[] = toWire(frame, stamp);
      expect(messages).toEqual(
        expected.map((payload) => ({
          type: "stream",
          kind: "interact",
          uid: "u1",
          client_start_time: stamp.clientStartTime,
          server_start_time: "2026-11-22T09:41:07.200000Z",
          server_end_time: expect.any(String),
          ...payload,
        })),
      );
      for (const message of messages) expect(isServerMessage.Check(message)).toBe(true);
    });
  }
});

describe("server messages", () => {
  const file = serverForFile();

  it("every message of a real session matches the server message union", async () => {
    const player = await createPlayer(file.server, file.team);
    const probe = await openSession(file.server.url, player.token);
    await probe.request("get_configuration");
    await probe.request("dance");
    await probe.request("generate_image", { prompt: "an owl" });
    await probe.request("get_available_models");
    await probe.request("set_service_profile", { service_profile: "default" });
    await probe.request("clear_audio");
    await probe.interact("   ");
    await probe.interact("Tell me about owls", { audio_output: true }, 30_000);
    const uid = crypto.randomUUID();
    probe.send({ type: "stream", kind: "interact", uid, text: "Tell me a story", context: {}, audio_output: false });
    await probe.next((m) => m.uid === uid && m.event === "interaction_started");
    await probe.request("interrupt", { target_uid: uid });
    probe.send({ type: "request", kind: "ping", uid: "x".repeat(70 * 1024) });
    await probe.closed;
    const kinds = new Set(probe.messages.map((m) => `${m.type}:${m.kind}:${m.event ?? ""}`));
    expect(kinds).toContain("stream:interact:audio");
    expect(kinds).toContain("error:error:");
    const bad = probe.messages.filter((m) => !isServerMessage.Check(m)).map((m) => JSON.stringify(m).slice(0, 200));
    expect(bad).toEqual([]);
  }, 40_000);
});
