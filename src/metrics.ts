/**
 * Prometheus metrics (prom-client), served at GET /metrics:
 * - HTTP: request counts and durations, authentication failures by reason, live websocket sessions;
 * - turns (what issue 18 measures, on the operator's own load): interact -> first text and -> first audio,
 *   the model's first token, the speech queue's wait and each sentence's synthesis time, and turns by outcome
 *   (complete, interrupted, each error code) and speech admissions (admitted, or refused because speech is
 *   busy). src/boot/engine-wiring.ts feeds the turn metrics from the engine's and the speech provider's observers;
 * - the process (prom-client's default metrics: CPU, memory, event-loop lag, GC, handles).
 *
 * Start-up: the classes come from prom-client's own modules, not its index, which also loads the Pushgateway
 * client (node:http, node:https, node:zlib); the default metrics start one tick later, off the path to the
 * first request, and at the latest when /metrics is first read.
 */
import Counter from "prom-client/lib/counter";
import Gauge from "prom-client/lib/gauge";
import Histogram from "prom-client/lib/histogram";
import Registry from "prom-client/lib/registry";
import { TURN_ERROR_CODES } from "./engine/index.ts";

/** Latency buckets (seconds) for the turn histograms: 5 ms to 10 s, dense where a child notices. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2.5, 5, 10];

/** Every value `hoot_turns_total` may take for `outcome`. */
export const TURN_OUTCOMES = ["complete", "interrupted", ...TURN_ERROR_CODES] as const;

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<"method" | "route" | "status">;
  httpDuration: Histogram<"method" | "route">;
  authFailures: Counter<"reason">;
  wsSessions: Gauge;
  /** From the interact (or the turn's start) to the reply's first text. */
  turnFirstText: Histogram;
  /** From the interact (or the turn's start) to the reply's first audio. */
  turnFirstAudio: Histogram;
  /** From the model request to its first token. */
  llmFirstToken: Histogram;
  /** How long a sentence waited in the speech queue before synthesis began (local engine). */
  speechQueueWait: Histogram;
  /** How long a sentence took to synthesize (and encode). */
  speechSynthesis: Histogram;
  /** Finished turns by outcome: complete, interrupted, or the error code. */
  turns: Counter<"outcome">;
  /** Turns that asked for speech, by result: admitted, or refused (speech capacity short). */
  speechAdmissions: Counter<"result">;
  /** Starts prom-client's default metrics now if they have not started yet; resolves when they have. */
  startDefaultMetrics(): Promise<void>;
}

/** A fresh registry (one per app, so tests running several apps do not share counters). */
export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const latency = (name: string, help: string) => new Histogram({ name, help, buckets: LATENCY_BUCKETS, registers });
  let defaults: Promise<void> | null = null;
  const startDefaultMetrics = () =>
    (defaults ??= import("prom-client/lib/defaultMetrics").then(({ default: collectDefaultMetrics }) => {
      collectDefaultMetrics({ register: registry });
    }));
  // One tick later: the first request does not wait for them.
  setTimeout(() => void startDefaultMetrics(), 0).unref?.();

  const turns = new Counter({
    name: "hoot_turns_total",
    help: "Finished turns by outcome (complete, interrupted, or the turn's error code)",
    labelNames: ["outcome"],
    registers,
  });
  const speechAdmissions = new Counter({
    name: "hoot_speech_admissions_total",
    help: "Turns that asked for speech, by result (admitted, refused: speech capacity short)",
    labelNames: ["result"],
    registers,
  });
  // Every series exists from the start at 0, so a dashboard's rate() sees the first failure.
  for (const outcome of TURN_OUTCOMES) turns.inc({ outcome }, 0);
  for (const result of ["admitted", "refused"]) speechAdmissions.inc({ result }, 0);
  return {
    registry,
    httpRequests: new Counter({ name: "hoot_http_requests_total", help: "HTTP requests", labelNames: ["method", "route", "status"], registers }),
    httpDuration: new Histogram({
      name: "hoot_http_request_duration_seconds",
      help: "HTTP request duration",
      labelNames: ["method", "route"],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers,
    }),
    authFailures: new Counter({ name: "hoot_auth_failures_total", help: "Failed authentications by reason", labelNames: ["reason"], registers }),
    wsSessions: new Gauge({ name: "hoot_ws_sessions", help: "Open interact websockets", registers }),
    turnFirstText: latency("hoot_turn_first_text_seconds", "From the interact to the reply's first text"),
    turnFirstAudio: latency("hoot_turn_first_audio_seconds", "From the interact to the reply's first audio"),
    llmFirstToken: latency("hoot_llm_first_token_seconds", "From the language model request to its first token"),
    speechQueueWait: latency("hoot_speech_queue_wait_seconds", "How long a sentence waited in the speech queue before synthesis began"),
    speechSynthesis: latency("hoot_speech_synthesis_seconds", "How long one sentence took to synthesize and encode"),
    turns,
    speechAdmissions,
    startDefaultMetrics,
  };
}
