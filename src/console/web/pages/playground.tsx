/**
 * Playground: talk to the character as a player would, over the real websocket. Pick a player (or make a
 * test player), write the prompt, pick policy and voice, then talk: the reply streams in as text, is heard
 * through Web Audio as its audio arrives, with captions and a mouth that follow the voice (speech marks), and
 * every event lands on a timeline with its timing.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { api, messageOf } from "../api.ts";
import { Notice, Page } from "../components.tsx";
import { type AudioStats, type EventMarks, ReplyPlayer } from "../playground/audio.ts";
import { Conversation, type PlaygroundConfig, type ServerMessage } from "../playground/conversation.ts";
import { LipSync } from "../playground/lip-sync.tsx";
import { type Entry, Timeline, type Turn } from "../playground/timeline.tsx";
import type { ConsolePlayer } from "./players.tsx";

interface Options {
  voices: string[];
  policies: string[];
  default_prompt: string;
}

interface Line {
  uid: string;
  who: "child" | "character";
  text: string;
  state: "streaming" | "done" | "interrupted" | "failed";
}

const MAX_ENTRIES = 400;

export function PlaygroundPage(props: { playerPk: string | null }) {
  const [options, setOptions] = useState<Options | null>(null);
  const [players, setPlayers] = useState<ConsolePlayer[]>([]);
  const [playerPk, setPlayerPk] = useState<string>(props.playerPk ?? "");
  const [prompt, setPrompt] = useState("");
  const [policy, setPolicy] = useState("");
  const [voice, setVoice] = useState("");
  const [audioOn, setAudioOn] = useState(true);
  const [marksOn, setMarksOn] = useState(true);
  const [status, setStatus] = useState<"idle" | "connecting" | "connected">("idle");
  const [lines, setLines] = useState<Line[]>([]);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [turns, setTurns] = useState<Record<string, Turn>>({});
  const [running, setRunning] = useState<string | null>(null);
  const [said, setSaid] = useState("");
  const [stats, setStats] = useState<AudioStats>({ clips: 0, seconds: 0, errors: 0 });
  const [announce, setAnnounce] = useState("");
  const [error, setError] = useState("");
  const [info, setInfo] = useState("");
  const conversation = useRef<Conversation | null>(null);
  const player = useRef<ReplyPlayer | null>(null);
  const turnsRef = useRef<Record<string, Turn>>({});
  const counter = useRef(0);

  useEffect(() => {
    api<Options>("GET", "/playground").then((o) => {
      setOptions(o);
      setPrompt((p) => p || o.default_prompt);
    }, (e) => setError(messageOf(e)));
    loadPlayers();
    return () => conversation.current?.close();
  }, []);

  const loadPlayers = (select?: number) =>
    api<{ players: ConsolePlayer[] }>("GET", "/players?limit=100").then((r) => {
      setPlayers(r.players);
      if (select !== undefined) setPlayerPk(String(select));
      else setPlayerPk((pk) => pk || (r.players[0] ? String(r.players[0].pk) : ""));
    }, (e) => setError(messageOf(e)));

  const newTestPlayer = async () => {
    setError("");
    try {
      const p = await api<ConsolePlayer>("POST", "/players", {});
      await loadPlayers(p.pk);
      setInfo(`Test player ${p.external_id} created and selected.`);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const updateTurn = (uid: string, change: (t: Turn) => void) => {
    const turn = turnsRef.current[uid];
    if (!turn) return;
    change(turn);
    setTurns({ ...turnsRef.current });
  };

  const log = (uid: string, at: number, label: string, detail = "") => {
    const turn = turnsRef.current[uid];
    const ms = turn ? Math.round(at - turn.began) : 0;
    const entry = { n: ++counter.current, uid, ms, label, detail };
    setEntries((list) => [...list.slice(-(MAX_ENTRIES - 1)), entry]);
  };

  const onMessage = (m: ServerMessage, at: number) => {
    const uid = typeof m.uid === "string" ? m.uid : "";
    if (m.type === "response") {
      log(uid, at, `response ${m.kind}`, m.kind === "error" ? String(m.error ?? "") : "");
      return;
    }
    if (m.type === "error") {
      setError(String(m.error ?? "The server ended the conversation."));
      return;
    }
    if (m.type !== "stream") return;
    if (m.kind === "close") {
      updateTurn(uid, (t) => (t.closed = at));
      log(uid, at, "close");
      setRunning((r) => (r === uid ? null : r));
      setLines((ls) => ls.map((l) => (l.uid === uid && l.who === "character" && l.state === "streaming" ? { ...l, state: "done" } : l)));
      return;
    }
    if (m.kind === "error") {
      log(uid, at, "stream error", String(m.error ?? ""));
      setError(String(m.error ?? "The interaction failed."));
      return;
    }
    const event = m.event ?? "";
    switch (event) {
      case "text": {
        const text = String(m.text ?? "");
        updateTurn(uid, (t) => (t.firstText ??= at));
        setLines((ls) => ls.map((l) => (l.uid === uid && l.who === "character" ? { ...l, text: l.text + text } : l)));
        log(uid, at, "text", `${text.length} characters`);
        break;
      }
      case "audio": {
        updateTurn(uid, (t) => {
          t.firstAudio ??= at;
          t.audioChunks++;
        });
        const audio = String(m.audio ?? "");
        const marks = typeof m.duration_sec === "number" ? { duration: m.duration_sec, subtitles: m.subtitles, visemes: m.visemes } : undefined;
        player.current?.push(uid, audio, String(m.text ?? ""), marks as EventMarks | undefined);
        log(uid, at, "audio", `#${String(m.seq ?? "")}, ${Math.round((audio.length * 3) / 4 / 1024)} KiB ${String(m.mime_type ?? "")}`);
        break;
      }
      case "audio_complete":
        player.current?.flush();
        log(uid, at, "audio_complete");
        break;
      case "text_complete":
        setAnnounce(String(m.text ?? ""));
        log(uid, at, "text_complete");
        break;
      case "interaction_error":
        setLines((ls) => ls.map((l) => (l.uid === uid && l.who === "character" ? { ...l, state: "failed" } : l)));
        setError(String(m.error ?? "The interaction failed."));
        log(uid, at, "interaction_error", String(m.code ?? ""));
        break;
      case "safety_policy":
        log(uid, at, "safety_policy", `${String(m.category ?? "")}: ${String(m.action ?? "")}`);
        break;
      default:
        log(uid, at, event || String(m.kind ?? "message"));
    }
  };

  const config = (): PlaygroundConfig => ({
    prompt,
    audio_format: "mp3",
    subtitles: marksOn,
    visemes: marksOn,
    ...(policy ? { safety_policy: policy } : {}),
    ...(voice ? { voice_profile: { voice_id: voice } } : {}),
  });

  const connect = async () => {
    setError("");
    setInfo("");
    if (!playerPk) {
      setError("Pick a player first, or create a test player.");
      return;
    }
    setStatus("connecting");
    player.current ??= new ReplyPlayer((s, heardAt, uid) => {
      setStats({ ...s });
      if (heardAt !== null) updateTurn(uid, (t) => (t.firstHeard ??= heardAt));
    });
    player.current.unlock();
    try {
      const token = await api<{ access_token: string; created_key: boolean }>("POST", `/players/${playerPk}/token`);
      if (token.created_key) setInfo('A login-only key named "console playground" was created for this team, to log the player in.');
      const c = new Conversation(onMessage, (code) => {
        setStatus("idle");
        setRunning(null);
        if (code !== 1000) setError(`The conversation socket closed (${code}).`);
      });
      conversation.current = c;
      await c.open(token.access_token, config());
      setStatus("connected");
    } catch (e) {
      conversation.current?.close();
      conversation.current = null;
      setStatus("idle");
      setError(messageOf(e));
    }
  };

  const apply = async () => {
    setError("");
    try {
      await conversation.current?.configure(config());
      setInfo("Settings applied to the conversation.");
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const hangUp = () => {
    if (running) player.current?.stop(running);
    conversation.current?.close();
    conversation.current = null;
    setStatus("idle");
    setRunning(null);
  };

  const talk = (text: string) => {
    const c = conversation.current;
    if (!c) return;
    setError("");
    player.current?.unlock();
    if (running) {
      // A new interact interrupts the running one on the server; silence it here too.
      player.current?.stop(running);
      setLines((ls) => ls.map((l) => (l.uid === running && l.who === "character" && l.state === "streaming" ? { ...l, state: "interrupted" } : l)));
    }
    const began = performance.now();
    const uid = c.interact(text, audioOn);
    turnsRef.current[uid] = { began, audioChunks: 0 };
    setTurns({ ...turnsRef.current });
    setRunning(uid);
    setLines((ls) => [
      ...ls,
      ...(text === "." ? [] : [{ uid, who: "child" as const, text, state: "done" as const }]),
      { uid, who: "character", text: "", state: "streaming" },
    ]);
    log(uid, began, text === "." ? "interact (speak first)" : "interact", text === "." ? "" : `${text.length} characters`);
  };

  const interrupt = async () => {
    const uid = running;
    if (!uid || !conversation.current) return;
    player.current?.stop(uid);
    setLines((ls) => ls.map((l) => (l.uid === uid && l.who === "character" ? { ...l, state: "interrupted" } : l)));
    try {
      await conversation.current.interrupt(uid);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const submit = (event: Event) => {
    event.preventDefault();
    const text = said.trim();
    if (!text) return;
    setSaid("");
    talk(text);
  };

  const connected = status === "connected";

  return (
    <Page title="Playground">
      {error ? <Notice kind="error">{error}</Notice> : null}
      {info ? <Notice kind="info">{info}</Notice> : null}
      <form class="stack settings" onSubmit={(e) => e.preventDefault()} aria-label="Conversation settings">
        <div class="row">
          <label for="pg-player">Player</label>
          <select id="pg-player" value={playerPk} disabled={status !== "idle"} onChange={(e) => setPlayerPk(e.currentTarget.value)}>
            <option value="">Choose a player</option>
            {players.map((p) => (
              <option value={String(p.pk)}>
                {p.external_id} (pk {p.pk})
              </option>
            ))}
          </select>
          <button type="button" class="secondary" disabled={status !== "idle"} onClick={newTestPlayer}>
            New test player
          </button>
        </div>
        <label for="pg-prompt">Prompt</label>
        <textarea id="pg-prompt" rows={5} value={prompt} onInput={(e) => setPrompt(e.currentTarget.value)} />
        <div class="row">
          <label for="pg-policy">Safety policy</label>
          <select id="pg-policy" value={policy} onChange={(e) => setPolicy(e.currentTarget.value)}>
            <option value="">default</option>
            {(options?.policies ?? []).map((p) => (
              <option value={p}>{p}</option>
            ))}
          </select>
          <label for="pg-voice">Voice</label>
          <select id="pg-voice" value={voice} onChange={(e) => setVoice(e.currentTarget.value)}>
            <option value="">default</option>
            {(options?.voices ?? []).map((v) => (
              <option value={v}>{v}</option>
            ))}
          </select>
          <label class="check">
            <input type="checkbox" checked={audioOn} onChange={(e) => setAudioOn(e.currentTarget.checked)} />
            Speak the reply
          </label>
          <label class="check">
            <input type="checkbox" checked={marksOn} onChange={(e) => setMarksOn(e.currentTarget.checked)} />
            Captions and mouth
          </label>
        </div>
        <div class="actions">
          {status === "idle" ? (
            <button type="button" onClick={connect}>
              Start conversation
            </button>
          ) : status === "connecting" ? (
            <button type="button" disabled>
              Connecting…
            </button>
          ) : (
            <>
              <button type="button" class="secondary" onClick={apply}>
                Apply settings
              </button>
              <button type="button" class="secondary" onClick={hangUp}>
                Hang up
              </button>
            </>
          )}
        </div>
      </form>

      <h2>Conversation</h2>
      <ol class="transcript" aria-label="Transcript">
        {lines.map((l) => (
          <li class={`line ${l.who}`} data-state={l.state} data-uid={l.uid}>
            <span class="who">{l.who === "child" ? "You" : "Character"}</span> <span class="said">{l.text || (l.state === "streaming" ? "…" : "")}</span>
            {l.state === "interrupted" ? <em> (interrupted)</em> : l.state === "failed" ? <em> (failed)</em> : null}
          </li>
        ))}
      </ol>
      {marksOn ? <LipSync player={player.current} /> : null}
      <p class="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
      <form class="row talk" onSubmit={submit}>
        <label for="pg-say">Say</label>
        <input id="pg-say" type="text" value={said} maxLength={4000} disabled={!connected} onInput={(e) => setSaid(e.currentTarget.value)} placeholder="Tell me a story about a dragon" />
        <button type="submit" disabled={!connected}>
          Send
        </button>
        <button type="button" class="secondary" disabled={!connected} onClick={() => talk(".")}>
          Speak first
        </button>
        <button type="button" class="danger" disabled={!connected || running === null} onClick={interrupt}>
          Interrupt
        </button>
      </form>
      <p id="pg-audio" class="muted" data-clips={stats.clips} data-seconds={stats.seconds.toFixed(3)} data-errors={stats.errors}>
        Audio heard: {stats.clips} clips, {stats.seconds.toFixed(1)} s{stats.errors ? `, ${stats.errors} could not be decoded` : ""}.
      </p>

      <Timeline turns={turns} entries={entries} />
    </Page>
  );
}
