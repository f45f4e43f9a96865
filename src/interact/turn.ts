/**
 * One interaction: sends `interaction_started`, forwards the engine's events in order, then
 * `interaction_complete` (unless it failed), and always the stream's `close`. It records what was actually
 * sent: on interruption the history keeps only the reply text that left the server (cut at the client's
 * `at_character` when it says how far it got).
 */
import type { Db } from "../db/client.ts";
import type { Engine, TurnEvent } from "../engine/types.ts";
import type { Logger } from "../log.ts";
import { loadHistory, recordTurn } from "../conversations/service.ts";
import type { SessionConfig } from "./model.ts";
import { streamClose, streamEvent, type RequestStamp } from "./protocol.ts";

export interface TurnDeps {
  db: Db;
  engine: Engine;
  logger: Logger;
  historyBudgetChars: number;
}

export interface TurnRequest {
  stamp: RequestStamp;
  playerId: number;
  sessionId: string;
  config: SessionConfig;
  text: string;
  context: Record<string, string | number | boolean>;
  audioOutput: boolean;
  send(data: string): void;
}

export interface RunningTurn {
  uid: string;
  /** Resolves once the close has been sent and the history written. */
  done: Promise<void>;
  /** Stops at once without waiting. */
  abort(): void;
  /** Stops, optionally noting how much of the reply the client used, and waits for the close. */
  stop(atCharacter?: number): Promise<void>;
  /** Stops and sends the stream's close right now (the socket is about to close). */
  closeNow(): void;
}

/** Starts a turn; the caller awaits `done`. */
export function runTurn(deps: TurnDeps, request: TurnRequest): RunningTurn {
  const controller = new AbortController();
  let cutAt: number | undefined;
  let closeSent = false;
  // The close goes out exactly once, whoever sends it first: the turn's own end, or closeNow().
  const sendClose = () => {
    if (closeSent) return;
    closeSent = true;
    request.send(streamClose(request.stamp));
  };
  const done = run(deps, request, controller.signal, () => cutAt, sendClose);
  return {
    uid: request.stamp.uid,
    done,
    abort: () => controller.abort(),
    closeNow() {
      controller.abort();
      sendClose();
    },
    async stop(atCharacter) {
      if (atCharacter !== undefined) cutAt = atCharacter;
      controller.abort();
      await done;
    },
  };
}

async function run(deps: TurnDeps, request: TurnRequest, signal: AbortSignal, cutAt: () => number | undefined, sendClose: () => void): Promise<void> {
  const { stamp, send } = request;
  const started = performance.now();
  let sent = "";
  let failed = false;
  let events = 0;
  try {
    send(streamEvent(stamp, { event: "interaction_started" }));
    const history = loadHistory(deps.db, request.playerId, deps.historyBudgetChars);
    const turn = deps.engine.runTurn({
      text: request.text,
      context: request.context,
      config: {
        prompt: request.config.prompt,
        temperature: request.config.temperature,
        voice_profile: request.config.voice_profile,
        audio_format: request.config.audio_format ?? "mp3",
        language_code: request.config.language_code ?? "en",
      },
      history,
      audioOutput: request.audioOutput,
      signal,
    });
    for await (const event of turn) {
      if (signal.aborted) break;
      send(streamEvent(stamp, event as TurnEvent & Record<string, unknown>));
      events++;
      if (event.event === "text") sent += event.text;
      if (event.event === "interaction_error") failed = true;
    }
    if (!signal.aborted && !failed) send(streamEvent(stamp, { event: "interaction_complete" }));
  } catch (error) {
    if (!signal.aborted) {
      deps.logger.error({ event: "turn_failed", session: request.sessionId, err: (error as Error).message }, "turn failed");
      send(streamEvent(stamp, { event: "interaction_error", error: "the interaction failed", code: "internal" }));
    }
  } finally {
    sendClose();
    const cut = cutAt();
    const kept = cut !== undefined ? sent.slice(0, cut) : sent;
    try {
      recordTurn(deps.db, request.playerId, request.text === "." ? null : request.text, kept);
    } catch (error) {
      // The player may have been deleted mid-turn: their rows are gone and must stay gone.
      deps.logger.warn({ event: "history_not_saved", session: request.sessionId, err: (error as Error).message }, "turn history not saved");
    }
    deps.logger.info(
      {
        event: "turn",
        session: request.sessionId,
        player: request.playerId,
        inputChars: request.text.length,
        replyChars: kept.length,
        events,
        interrupted: signal.aborted,
        failed,
        ms: Math.round(performance.now() - started),
      },
      "turn finished",
    );
  }
}
