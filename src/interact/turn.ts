/**
 * One interaction on the socket: `interaction_started`, the engine's frames in order (through toWire), then
 * the turn is saved to the player's history, and only then `interaction_complete`: an acknowledged turn is
 * never lost. If saving fails the stream ends with `interaction_error` (history_not_saved) instead. Every
 * stream ends with its `close`. An interrupted turn sends its close at once, then saves only what left the
 * server (cut at the client's `at_character` when it says how far it got). A turn the client ended itself
 * (its own stream `close` or `error`) stops the same way but sends nothing more at all: the client has
 * forgotten that uid. A reply that asked for audio always has `audio_complete` after its last `audio`, also
 * when it fails (then `interaction_error` follows it).
 *
 * An interact without text (voice input) first asks the recogniser for the child's words (`listen`): only
 * then does the interaction start, with `interaction_started` and a `transcript` event before the reply. A
 * transcription that fails is a refusal (a stream error, then the close; nothing started, nothing saved),
 * as is one interrupted before it finished. The transcript then takes exactly the path typed text takes:
 * the safety checks, the model (redacted), the history (redacted).
 */
import type { Context, Engine, EngineLogger, MarksWanted, TurnConfig } from "../engine/index.ts";
import { isSpeakFirst, VoiceInputError } from "../engine/index.ts";
import type { History } from "./history.ts";
import { type RequestStamp, type ServerMessage, type StreamFrame, streamClose, streamError, toWire } from "./protocol.ts";
import { BUILTIN_ONLY, SessionGuard, type TurnGuard, WITHHELD } from "./safety.ts";
import { type Spoken, voiceFailure } from "./voice.ts";

export interface TurnDeps {
  engine: Pick<Engine, "runTurn">;
  history: History;
  logger: EngineLogger;
}

export interface TurnRequest {
  stamp: RequestStamp;
  playerId: number;
  sessionId: string;
  config: TurnConfig;
  text: string;
  context: Context;
  audioOutput: boolean;
  /** Speech marks on the audio (absent: none). */
  marks?: MarksWanted;
  /** The session's safety checks for this turn (default: the built-in default policy). */
  guard?: TurnGuard;
  /** An interact without text: the child's words come from the recogniser first (`text` is then ignored). Throws VoiceInputError. */
  listen?: (signal: AbortSignal) => Promise<Spoken>;
  send(message: ServerMessage): void;
}

export interface RunningTurn {
  uid: string;
  /** The interaction has started: the reply is on its way (false while a voice turn is still being transcribed). */
  readonly replying: boolean;
  /** Resolves once the close has been sent and the history written (or given up). */
  done: Promise<void>;
  /** Stops at once without waiting. */
  abort(): void;
  /** Stops, optionally noting how much of the reply the client used, and waits for the close. */
  stop(atCharacter?: number): Promise<void>;
  /** Stops and sends the stream's close right now (the socket is about to close). */
  closeNow(): void;
  /** The client ended the stream: stop at once, send nothing more with its uid, and wait for the history. */
  endByClient(): Promise<void>;
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
  const progress = { replying: false };
  const done = run(deps, request, controller.signal, () => cutAt, sendClose, progress);
  return {
    uid: request.stamp.uid,
    get replying() {
      return progress.replying;
    },
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
    async endByClient() {
      // As if the close had been sent: nothing with this uid goes out any more.
      closeSent = true;
      controller.abort();
      await done;
    },
  };
}

type Outcome = "complete" | "failed" | "interrupted";

async function run(
  deps: TurnDeps,
  request: TurnRequest,
  signal: AbortSignal,
  cutAt: () => number | undefined,
  sendClose: () => void,
  progress: { replying: boolean },
): Promise<void> {
  const started = performance.now();
  let spoken: Spoken | null = null;
  if (request.listen) {
    spoken = await listen(deps, request, signal);
    if (!spoken) {
      // Refused or interrupted before it started: nothing more than the close, nothing saved.
      sendClose();
      return;
    }
  }
  const text = spoken ? spoken.text : request.text;
  progress.replying = true;
  let audioEnded = !request.audioOutput;
  const emit = (frame: StreamFrame) => {
    // A failed reply that asked for audio still ends its audio, so a player waiting for the end plays what it has.
    if (frame.type === "error" && !audioEnded) emit({ type: "audio_end" });
    if (frame.type === "audio_end" || (frame.type === "complete" && frame.audio)) audioEnded = true;
    for (const message of toWire(frame, request.stamp)) request.send(message);
  };
  let sent = "";
  let frames = 0;
  let outcome: Outcome = "complete";
  // Until the check has run (a turn interrupted before it), the words are not known to be safe to keep.
  let stored: string | null = isSpeakFirst(text) ? null : WITHHELD;
  try {
    emit({ type: "started" });
    // The child's own words go back to their own device as heard, so the app can show them; everything
    // after this (the model, the history, the logs) gets only what the safety checks let through.
    if (spoken) emit({ type: "transcript", text: spoken.transcript });
    // Child safety: the words are checked before the model; it gets the redacted text, or the policy answers.
    const screened = await (request.guard ?? new SessionGuard(request.sessionId, BUILTIN_ONLY, deps.logger).forTurn(request)).screen(text, signal);
    stored = screened.stored;
    for (const notice of screened.notices) emit({ type: "notice", ...notice });
    const history = screened.reply === null ? await deps.history.load(request.playerId) : [];
    const input = {
      text: screened.text,
      context: request.context,
      config: request.config,
      history,
      audioOutput: request.audioOutput,
      marks: request.marks,
      signal,
      receivedAt: started,
    };
    const turn = deps.engine.runTurn({ ...input, safety: screened.safety, ...(screened.reply === null ? {} : { reply: screened.reply }) });
    for await (const frame of turn) {
      if (signal.aborted) break;
      emit(frame);
      frames++;
      if (frame.type === "text") sent += frame.text;
      else if (frame.type === "error") outcome = "failed";
    }
  } catch (error) {
    if (!signal.aborted) {
      outcome = "failed";
      deps.logger.error({ event: "turn_failed", session: request.sessionId, err: (error as Error).message }, "turn failed");
      emit({ type: "error", error: "the interaction failed", code: "internal" });
    }
  }
  if (signal.aborted) {
    outcome = "interrupted";
    // The client (or the server) stopped this stream: it ends now, nothing more is acknowledged.
    sendClose();
  }
  const cut = cutAt();
  const kept = cut !== undefined ? sent.slice(0, cut) : sent;
  const saved = await save(deps, request, stored, kept);
  if (outcome === "complete" && !signal.aborted) {
    emit(
      saved
        ? { type: "committed" }
        : { type: "error", error: "the reply could not be saved to the conversation history; it will not be remembered", code: "history_not_saved" },
    );
  }
  sendClose();
  deps.logger.info(
    {
      event: "turn",
      session: request.sessionId,
      player: request.playerId,
      inputChars: text.length,
      ...(spoken ? { voice: { audioMs: Math.round(spoken.audioMs), sttMs: Math.round(spoken.sttMs) } } : {}),
      replyChars: kept.length,
      frames,
      outcome,
      saved,
      ms: Math.round(performance.now() - started),
    },
    "turn finished",
  );
}

/**
 * The child's words from the recogniser, or null when the turn must end here: the transcription failed (its
 * stream error has been sent) or the turn was stopped meanwhile.
 */
async function listen(deps: TurnDeps, request: TurnRequest, signal: AbortSignal): Promise<Spoken | null> {
  try {
    const spoken = await request.listen!(signal);
    return signal.aborted ? null : spoken;
  } catch (error) {
    if (signal.aborted) return null;
    const known = error instanceof VoiceInputError;
    if (known) deps.logger.warn({ event: "voice_turn_refused", session: request.sessionId, code: error.code }, "voice turn not transcribed");
    else deps.logger.error({ event: "voice_turn_failed", session: request.sessionId, err: (error as Error).message }, "voice turn failed");
    const failure = known ? voiceFailure(error) : { error: "the audio could not be transcribed", code: "internal" as const };
    request.send(streamError(request.stamp, failure.error, failure.code));
    return null;
  }
}

/** Records the turn; false (logged) when it could not be stored. */
async function save(deps: TurnDeps, request: TurnRequest, userText: string | null, reply: string): Promise<boolean> {
  try {
    await deps.history.record(request.playerId, { userText, reply });
    return true;
  } catch (error) {
    // A busy database, or a player deleted mid-turn (their rows are gone and must stay gone).
    deps.logger.warn({ event: "history_not_saved", session: request.sessionId, err: (error as Error).message }, "turn history not saved");
    return false;
  }
}
