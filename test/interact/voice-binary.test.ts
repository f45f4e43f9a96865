/**
 * Voice input in the compiled executable, run from an empty folder: the session loads the codecs and the VAD
 * with a dynamic import on the first `add_audio`, which must resolve inside the bundle (nothing next to the
 * binary), and a voice turn must reach the recogniser (a fake on loopback) and the reply.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unityChunks } from "../engine/voice-in/helpers/ogg.ts";
import { envelopeMatch, fixture, speech } from "../engine/voice-in/helpers/speech.ts";
import { startFakeOpenAi } from "../helpers/fake-openai.ts";
import { spawnServer } from "../helpers/process.ts";
import { api, login } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";

let dir: string;
let binary: string;
const stt = startFakeOpenAi();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hoot-voice-bin-"));
  binary = join(dir, "build/hoot");
  const build = Bun.spawn([process.execPath, join(import.meta.dir, "../../scripts/build.ts"), "--outfile", binary], { stdout: "pipe", stderr: "pipe" });
  if ((await build.exited) !== 0) throw new Error(`build failed: ${await new Response(build.stderr).text()}`);
}, 180_000);
afterAll(async () => {
  await stt.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("voice input in the compiled binary", () => {
  it("decodes Unity's Ogg/Vorbis, answers check_turn and takes a voice turn from an empty folder", async () => {
    const empty = join(dir, "run");
    mkdirSync(empty);
    expect(readdirSync(empty)).toEqual([]);
    const { proc, url } = await spawnServer(empty, { HOOT_STT_BASE_URL: stt.url }, [binary]);
    try {
      const creds = JSON.parse(readFileSync(join(empty, "data/dev-credentials.json"), "utf8"));
      const token = (await login(url, { api_key: creds.developer_api_key })).access_token;
      const player = (await api(url, "POST", "/api/players", { token, body: { external_id: "voice-kid" } })).body;
      const playerToken = (await login(url, { api_key: creds.service_account_api_key, federated_id: player.federated_id })).access_token;
      const probe = await openSession(url, playerToken);
      for (const part of unityChunks(fixture("puppy.unity.ogg"))) {
        expect(
          (await probe.request("add_audio", { audio: Buffer.from(part).toString("base64"), config: { sampling_rate: 16000, mime_type: "audio/ogg" } })).kind,
        ).toBe("add_audio");
      }
      expect(await probe.request("check_turn")).toMatchObject({ kind: "check_turn", is_user_still_speaking: false });
      const uid = crypto.randomUUID();
      probe.send({ type: "stream", kind: "interact", uid, context: {}, audio_output: false });
      const events = await probe.collect(uid, 30_000);
      probe.close();
      expect(events.map((e) => e.event ?? e.kind).slice(0, 2)).toEqual(["interaction_started", "transcript"]);
      expect(events.at(-2)!.event).toBe("interaction_complete");
      expect(stt.transcriptions).toHaveLength(1);
      expect(envelopeMatch(await speech(), stt.transcriptions[0]!.samples!)).toBeGreaterThan(0.9);
    } finally {
      proc.kill("SIGTERM");
      await proc.exited;
    }
  }, 60_000);
});
