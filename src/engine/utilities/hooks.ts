/**
 * The utility hooks of a turn, wrapped around the turn pipeline (turn.ts) without changing it:
 *
 *   on_input               run first, on the child's redacted words; their `data` frame comes before any
 *                          reply frame, and their answers join the context, so `{{name}}` fills the prompt;
 *   on_input_non_blocking  start with the reply; their `data` frame comes whenever they finish, and always
 *                          before the reply's `complete` frame;
 *   on_output              run on the reply as sent, once the pipeline yields `complete`; their `data` frame
 *                          comes just before that `complete` frame.
 *
 * Each position sends one `data` frame holding every result of that position (`{name: value}`), after the
 * `notice` frames of any safety decision on those results. When the turn's signal aborts nothing more is
 * yielded and the utilities stop; when the turn fails (an `error` frame) pending utilities are dropped, since
 * nothing may follow an error frame. On a "." turn there are no child's words: on_input utilities see only the
 * conversation so far.
 */
import type { DataFrame, NoticeFrame, TurnFrame } from "../frames.ts";
import { childController } from "../pipeline/index.ts";
import { isSpeakFirst } from "../prompt/index.ts";
import type { Context, TurnInput } from "../types.ts";
import { guardUtilityInput, type UtilityChecker } from "./guard.ts";
import { runUtilitySet, type UtilityRunnerDeps, type UtilitySetResult } from "./run.ts";
import type { UtilityPlan, UtilityRunRequest, UtilitySubject } from "./types.ts";

export interface UtilityHookDeps extends UtilityRunnerDeps {
  /**
   * The safety checks utilities go through: for a turn (`input` given) or a `run` (policy name only). This is
   * the one seam where the caller's own policy (a team policy, the session's stance, a moderation model) can
   * replace the built-in one; see guard.ts.
   */
  checker(policyName: string, input?: TurnInput): UtilityChecker;
}

type Step = { kind: "frame"; result: IteratorResult<TurnFrame> } | { kind: "utilities"; result: UtilitySetResult };

/** True when the plan asks for at least one utility. */
export function hasUtilities(plan: UtilityPlan | undefined): plan is UtilityPlan {
  return plan !== undefined && plan.onInput.length + plan.onInputNonBlocking.length + plan.onOutput.length > 0;
}

/**
 * Runs `turn` with the utilities of `input.config.utilities` around it.
 * @example for await (const frame of withUtilities(input, deps, (i) => runTurn(i, turnDeps))) send(frame)
 */
export async function* withUtilities(input: TurnInput, deps: UtilityHookDeps, turn: (input: TurnInput) => AsyncIterable<TurnFrame>): AsyncGenerator<TurnFrame> {
  const plan = input.config.utilities;
  if (!hasUtilities(plan)) {
    yield* turn(input);
    return;
  }
  const checker = deps.checker(input.config.safety_policy, input);
  const childWords = isSpeakFirst(input.text) ? null : await guardUtilityInput(checker, input.text);
  if (input.signal.aborted) return;
  const child: UtilitySubject | null = childWords === null ? null : { role: "child", text: childWords };
  const { controller, dispose } = childController(input.signal);
  const run = (names: readonly string[], context: Context, subject: UtilitySubject | null, history = input.history) =>
    runUtilitySet({ definitions: plan.definitions, names, context, subject, history, checker, signal: controller.signal }, deps);

  let context = input.context;
  let pending: Promise<UtilitySetResult> | null = null;
  let iterator: AsyncIterator<TurnFrame> | null = null;
  let next: Promise<IteratorResult<TurnFrame>> | null = null;
  try {
    if (plan.onInput.length > 0) {
      const result = await run(plan.onInput, context, child);
      if (input.signal.aborted) return;
      yield* framesOf(result);
      context = withAnswers(context, result);
    }
    if (plan.onInputNonBlocking.length > 0) pending = run(plan.onInputNonBlocking, context, child);
    iterator = turn({ ...input, context, signal: controller.signal })[Symbol.asyncIterator]();
    for (;;) {
      next ??= iterator.next();
      const frameStep = next.then((result): Step => ({ kind: "frame", result }));
      const step: Step = pending ? await Promise.race([frameStep, pending.then((result): Step => ({ kind: "utilities", result }))]) : await frameStep;
      if (input.signal.aborted) return;
      if (step.kind === "utilities") {
        pending = null;
        yield* framesOf(step.result);
        continue;
      }
      next = null;
      if (step.result.done) return;
      const frame = step.result.value;
      if (frame.type === "error") {
        controller.abort();
        yield frame;
        continue;
      }
      if (frame.type === "complete") {
        if (pending) {
          const result = await pending;
          pending = null;
          if (input.signal.aborted) return;
          yield* framesOf(result);
        }
        if (plan.onOutput.length > 0) {
          const history = child ? [...input.history, { role: "user" as const, text: child.text }] : input.history;
          const result = await run(plan.onOutput, context, { role: "character", text: frame.text }, history);
          if (input.signal.aborted) return;
          yield* framesOf(result);
        }
      }
      yield frame;
    }
  } finally {
    controller.abort();
    // The inner turn ends promptly once its signal aborts; wait for it so no stage outlives this turn.
    await next?.catch(() => undefined);
    await iterator?.return?.();
    await pending?.catch(() => undefined);
    dispose();
  }
}

/** Notice frames for the safety decisions on the results, then one data frame with every result. */
function framesOf(result: UtilitySetResult): (NoticeFrame | DataFrame)[] {
  const notices = result.notices.map((n): NoticeFrame => ({ type: "notice", category: n.category, action: n.action }));
  return Object.keys(result.data).length > 0 ? [...notices, { type: "data", data: result.data }] : notices;
}

/** The context with the utilities' answers added by name (error values are left out). */
function withAnswers(context: Context, result: UtilitySetResult): Context {
  const answers = Object.entries(result.data).filter((entry): entry is [string, string] => typeof entry[1] === "string");
  // fromEntries defines own properties: a utility called "__proto__" stays a key.
  return Object.fromEntries([...Object.entries(context), ...answers]);
}

/**
 * Runs utilities outside a turn (the `run` request): the child's words, when they are the subject, are
 * guarded as in a turn, and every answer passes the output checks.
 * @example const { data } = await runStandalone(request, deps)
 */
export async function runStandalone(request: UtilityRunRequest, deps: UtilityHookDeps): Promise<UtilitySetResult> {
  const checker = deps.checker(request.safetyPolicy);
  const subject =
    request.subject?.role === "child" ? { role: "child" as const, text: await guardUtilityInput(checker, request.subject.text) } : request.subject;
  return runUtilitySet(
    { definitions: request.definitions, names: request.names, context: request.context, subject, history: request.history, checker, signal: request.signal },
    deps,
  );
}
