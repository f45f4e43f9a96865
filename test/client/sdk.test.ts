import { describe, expect, it } from "bun:test";
import { type AudioEvent, HootApi, HootError, InteractClient, type InteractEvent, markAt, type Viseme, wsUrl } from "../../src/client/index.ts";
import { createTeamFixture, serverForFile, startTestServer } from "../helpers/server.ts";

const file = serverForFile();

async function collect(events: AsyncIterable<InteractEvent>): Promise<InteractEvent[]> {
  const out: InteractEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe("HootApi (developer helpers)", () => {
  it("logs in and manages players", async () => {
    const hoot = new HootApi(file.server.url);
    const answer = await hoot.login(file.team.developerKey);
    expect(answer.expires_in).toBe(3600);
    const player = await hoot.createPlayer("sdk-kid");
    expect((await hoot.getPlayer(player.pk)).federated_id).toBe(player.federated_id);
    expect((await hoot.listPlayers()).players.map((p) => p.pk)).toContain(player.pk);
    await hoot.deletePlayer(player.pk);
    const error = await hoot.getPlayer(player.pk).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HootError);
    expect((error as HootError).status).toBe(404);
  });

  it("answers a parent's requests: consent, the player's data, erasure and the audit trail", async () => {
    const hoot = new HootApi(file.server.url);
    await hoot.login(file.team.developerKey);
    const player = await hoot.createPlayer(`sdk-parent-${Date.now()}`);
    expect(player.consent).toBe("none");
    expect((await hoot.setConsent(player.pk, "granted")).consent).toBe("granted");
    const data = await hoot.playerData(player.pk);
    expect(data.player.pk).toBe(player.pk);
    expect(data.consent.consent).toBe("granted");
    await hoot.eraseHistory(player.pk);
    const trail = await hoot.audit({ playerPk: player.pk });
    expect(trail.audit.map((r) => r.action)).toEqual(["player.history_erase", "player.export", "player.consent"]);
  });

  it("derives the socket URL from an API URL", () => {
    expect(wsUrl("https://hoot.example.com/api")).toBe("wss://hoot.example.com/interact");
    expect(wsUrl("http://127.0.0.1:8080/")).toBe("ws://127.0.0.1:8080/interact");
  });
});

describe("InteractClient", () => {
  it("holds a conversation with the local engine: the character speaks first on '.', then answers", async () => {
    const hoot = new HootApi(file.server.url);
    await hoot.login(file.team.developerKey);
    const player = await hoot.createPlayer("chatty");
    const client = new InteractClient({
      baseUrl: `${file.server.url}/api`,
      apiKey: file.team.publicKey,
      federatedId: player.federated_id,
      config: { prompt: "You are Ollie the owl, a wise and kind friend." },
    });
    await client.connect();
    const greeting = await collect(client.interact(".", { context: { player_name: "Mia" }, audioOutput: false }));
    const greetingText = greeting.find((e) => e.event === "text_complete") as { text: string };
    expect(greetingText.text).toContain("Ollie");
    expect(greeting.at(-1)!.event).toBe("interaction_complete");
    const answer = await collect(client.interact("Can you tell me a story about a dragon?", { audioOutput: false }));
    const story = (answer.find((e) => e.event === "text_complete") as { text: string }).text;
    expect(story.toLowerCase()).toContain("dragon");
    expect(story).not.toBe(greetingText.text);
    client.close();
  });

  it("asks for speech marks for one turn and finds the word and mouth shape of any moment with markAt", async () => {
    const hoot = new HootApi(file.server.url);
    await hoot.login(file.team.developerKey);
    const player = await hoot.createPlayer("lip-sync");
    const client = new InteractClient({
      baseUrl: `${file.server.url}/api`,
      apiKey: file.team.publicKey,
      federatedId: player.federated_id,
      config: { prompt: "You are Ollie the owl, a wise and kind friend." },
    });
    const marked = await collect(client.interact("Hello!", { subtitles: true, visemes: true }));
    const plain = await collect(client.interact("Hello!"));
    client.close();
    const audio = marked.filter((e): e is AudioEvent => e.event === "audio");
    expect(audio.length).toBeGreaterThan(0);
    for (const e of audio) {
      expect(e.marks).toBe("engine");
      const visemes = e.visemes ?? [];
      const first: Viseme | undefined = markAt(visemes, 0)?.viseme;
      expect(first).toBe("sil");
      const word = e.subtitles?.[0];
      if (word) expect(markAt(e.subtitles ?? [], word.start_time_sec + word.duration_sec / 2)).toEqual(word);
      expect(markAt(visemes, e.duration_sec + 1)).toBeNull();
    }
    expect(plain.filter((e) => e.event === "audio").every((e) => !("visemes" in e) && !("subtitles" in e))).toBe(true);
  });

  it("interrupt() ends the interaction early", async () => {
    const slow = await startTestServer({ HOOT_LOCAL_TOKENS_PER_SECOND: "20" });
    try {
      const t = await createTeamFixture(slow);
      const hoot = new HootApi(slow.url);
      await hoot.login(t.developerKey);
      const player = await hoot.createPlayer("interrupter");
      const client = new InteractClient({ baseUrl: slow.url, apiKey: t.publicKey, federatedId: player.federated_id, config: { prompt: "You are Ollie." } });
      const interaction = client.interact("Tell me a long story about space", { audioOutput: false });
      const events: InteractEvent[] = [];
      const started = performance.now();
      for await (const e of interaction) {
        events.push(e);
        if (e.event === "text") interaction.interrupt();
      }
      expect(performance.now() - started).toBeLessThan(2000);
      expect(events.some((e) => e.event === "interaction_complete")).toBe(false);
      client.close();
    } finally {
      await slow.close();
    }
  });

  it("leaving an interaction early (break) ends it on the server with the stream's close; the socket goes on", async () => {
    const slow = await startTestServer({ HOOT_LOCAL_TOKENS_PER_SECOND: "20" });
    try {
      const t = await createTeamFixture(slow);
      const hoot = new HootApi(slow.url);
      await hoot.login(t.developerKey);
      const player = await hoot.createPlayer("leaver");
      const client = new InteractClient({ baseUrl: slow.url, apiKey: t.publicKey, federatedId: player.federated_id, config: { prompt: "You are Ollie." } });
      for await (const e of client.interact("Tell me a long story about space", { audioOutput: false })) if (e.event === "text") break;
      const turnLog = async () => {
        for (let i = 0; i < 100; i++) {
          const line = slow.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.event === "turn");
          if (line) return line;
          await Bun.sleep(20);
        }
        throw new Error("no turn log line");
      };
      expect(await turnLog()).toMatchObject({ outcome: "interrupted" });
      expect(slow.logs.some((l) => l.includes('"ws_stream_ended_by_client"'))).toBe(true);
      const next = await collect(client.interact("Hi!", { audioOutput: false }));
      expect(next.at(-1)).toMatchObject({ event: "interaction_complete" });
      client.close();
    } finally {
      await slow.close();
    }
  });

  it("re-logs in and re-authenticates before the token expires, so the socket outlives the first token", async () => {
    const short = await startTestServer({ HOOT_TOKEN_TTL_SECONDS: "3", HOOT_CLOCK_TOLERANCE_SECONDS: "0" });
    try {
      const t = await createTeamFixture(short);
      const hoot = new HootApi(short.url);
      await hoot.login(t.developerKey);
      const player = await hoot.createPlayer("long-session");
      const client = new InteractClient({
        baseUrl: short.url,
        apiKey: t.publicKey,
        federatedId: player.federated_id,
        config: { prompt: "You are Ollie." },
        refreshLeadSeconds: 2,
      });
      await client.connect();
      await Bun.sleep(4500);
      const events = await collect(client.interact("hello", { audioOutput: false }));
      expect(events.at(-1)!.event).toBe("interaction_complete");
      expect(short.logs.some((l) => l.includes('"ws_closed"'))).toBe(false);
      client.close();
    } finally {
      await short.close();
    }
  }, 15_000);

  it("keeps working after close(): the next interaction reconnects and completes, with audio to save", async () => {
    const hoot = new HootApi(file.server.url);
    await hoot.login(file.team.developerKey);
    const player = await hoot.createPlayer("closer");
    const client = new InteractClient({
      baseUrl: file.server.url,
      apiKey: file.team.publicKey,
      federatedId: player.federated_id,
      config: { prompt: "You are Ollie." },
    });
    for (let round = 0; round < 3; round++) {
      const first = await collect(client.interact("hello", { audioOutput: false }));
      expect(first.at(-1)!.event).toBe("interaction_complete");
      // The README's walk-through ends with close(); the "save reply.mp3" snippet then runs on the same client.
      client.close();
      const events = await collect(client.interact("Tell me a story about a dragon"));
      expect(events.filter((e) => e.event === "interaction_error")).toEqual([]);
      expect(events.at(-1)!.event).toBe("interaction_complete");
      const bytes = events.reduce((n, e) => n + (e.event === "audio" ? Buffer.from(e.audio, "base64").length : 0), 0);
      expect(bytes).toBeGreaterThan(1000);
    }
    client.close();
  }, 30_000);

  it("ends only the streams of the socket that dropped", async () => {
    const hoot = new HootApi(file.server.url);
    await hoot.login(file.team.developerKey);
    const player = await hoot.createPlayer("dropper");
    const client = new InteractClient({
      baseUrl: file.server.url,
      apiKey: file.team.publicKey,
      federatedId: player.federated_id,
      config: { prompt: "You are Ollie." },
      reconnect: false,
    });
    await client.connect();
    client.close();
    // Started while the first socket is still closing: it goes out on a new socket and must not see that close.
    const events = await collect(client.interact("hi", { audioOutput: false }));
    expect(events.at(-1)!.event).toBe("interaction_complete");
    client.close();
  });

  it("reconnects after the connection drops", async () => {
    const hoot = new HootApi(file.server.url);
    await hoot.login(file.team.developerKey);
    const player = await hoot.createPlayer("reconnector");
    const client = new InteractClient({
      baseUrl: file.server.url,
      apiKey: file.team.publicKey,
      federatedId: player.federated_id,
      config: { prompt: "You are Ollie." },
    });
    await client.connect();
    await file.server.interact.connections.shutdown();
    await Bun.sleep(600);
    const events = await collect(client.interact("are you there?", { audioOutput: false }));
    expect(events.at(-1)!.event).toBe("interaction_complete");
    client.close();
  });
});
