/**
 * Runs a set of named utilities at once and collects their values by name, in the order asked.
 *
 * Rules it keeps:
 * - every utility has its own deadline (`timeoutMs`) and stops with the caller's signal;
 * - a utility never throws out of here: a failure, a timeout or an answer the safety policy withholds is an
 *   error value `{error, code}` under its name (codes utility_failed, utility_timeout, utility_blocked);
 * - every answer passes guardUtilityResult before it is returned, and a check that itself fails withholds
 *   the answer (fails safe);
 * - names are looked up in the plan's Map only, and the result object is built with Object.fromEntries, so
 *   a utility called "__proto__" or "constructor" is an ordinary name.
 */

import type { EngineLogger } from "../logger.ts";
import type { Notice } from "../safety/checks.ts";
import type { Context, HistoryMessage } from "../types.ts";
import { guardUtilityResult, type UtilityChecker } from "./guard.ts";
import { buildQuery } from "./query.ts";
import { type Utility, UtilityFailure, type UtilityModel, type UtilitySubject, type UtilityValue } from "./types.ts";

export interface UtilityRunnerDeps {
  model: UtilityModel;
  /** Deadline of one utility call. */
  timeoutMs: number;
  logger: EngineLogger;
}

export interface UtilitySetRequest {
  definitions: ReadonlyMap<string, Utility>;
  names: readonly string[];
  context: Context;
  subject: UtilitySubject | null;
  history: readonly HistoryMessage[];
  checker: UtilityChecker;
  signal: AbortSignal;
}

export interface UtilitySetResult {
  /** Values by name, in the order asked (duplicates run once). */
  data: Record<string, UtilityValue>;
  notices: Notice[];
}

/**
 * Runs `request.names` in parallel; names without a definition are skipped (the caller refused them earlier).
 * @example const { data } = await runUtilitySet({ definitions, names: ["cats"], context, subject, history, checker, signal }, deps)
 */
export async function runUtilitySet(request: UtilitySetRequest, deps: UtilityRunnerDeps): Promise<UtilitySetResult> {
  const names = [...new Set(request.names)].filter((name) => request.definitions.has(name));
  const outcomes = await Promise.all(names.map((name) => runOne(name, request.definitions.get(name) as Utility, request, deps)));
  return {
    data: Object.fromEntries(names.map((name, i) => [name, (outcomes[i] as Outcome).value])),
    notices: outcomes.flatMap((outcome) => outcome.notices),
  };
}

interface Outcome {
  value: UtilityValue;
  notices: Notice[];
}

async function runOne(name: string, utility: Utility, request: UtilitySetRequest, deps: UtilityRunnerDeps): Promise<Outcome> {
  const began = performance.now();
  const deadline = AbortSignal.timeout(deps.timeoutMs);
  const signal = AbortSignal.any([request.signal, deadline]);
  const query = buildQuery(utility, request.context, request.subject, request.history, signal);
  const log = (outcome: string) =>
    deps.logger.debug({ utility: name, type: utility.type, model: deps.model.name, outcome, ms: Math.round(performance.now() - began) }, "utility finished");
  let answer: string;
  try {
    const asked = utility.type === "classify" ? deps.model.classify(query, utility.answers) : deps.model.extract(query);
    answer = await untilSignal(asked, signal);
  } catch (error) {
    const failure =
      deadline.aborted && !request.signal.aborted
        ? new UtilityFailure(`the utility took longer than ${deps.timeoutMs} ms`, "utility_timeout")
        : error instanceof UtilityFailure
          ? error
          : new UtilityFailure("the utility failed");
    log(failure.code);
    if (!(error instanceof UtilityFailure) && !signal.aborted)
      deps.logger.warn({ utility: name, err: (error as Error).message }, "utility failed unexpectedly");
    return { value: { error: failure.message, code: failure.code }, notices: [] };
  }
  try {
    const guarded = await guardUtilityResult(request.checker, answer);
    log(typeof guarded.value === "string" ? "answered" : guarded.value.code);
    return guarded;
  } catch {
    // A check that cannot finish never lets the answer through.
    log("utility_blocked");
    return { value: { error: "the answer could not be checked by the safety policy", code: "utility_blocked" }, notices: [] };
  }
}

/** `promise`, or a rejection as soon as `signal` aborts (for a model that does not stop on its own). */
function untilSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new UtilityFailure("the utility was stopped", "utility_timeout"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new UtilityFailure("the utility was stopped", "utility_timeout"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
