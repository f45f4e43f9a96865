/**
 * The session's handlers for configurations and utilities: `set_configuration` and `merge_configuration`
 * (with references to what the team stored), `render_prompt`, `run`, and the utilities an `interact` names.
 * The session calls these with plain values and small ports; they never touch the socket.
 *
 * Choices (README "Utilities and stored configurations"):
 * - references resolve when the configuration is set; `get_configuration` returns the resolved configuration;
 * - `merge_configuration` merges its `references` in order, then its `config`, into the current
 *   configuration; a utility given again replaces the old one (definitions are not deep-merged);
 * - an interact's `on_input`/`on_input_non_blocking`/`on_output` list, when it names any utility, wins over
 *   the configuration's list of the same name (clients such as the Python SDK always send empty lists);
 * - `run` answers `{data: {name: value}}` in its response; nothing is kept in the session.
 */

import { type TSchema, Type } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import type { Context, ContextValue, Engine, EngineLogger, HistoryMessage, Utility, UtilityPlan, UtilityRunResult, UtilitySubject } from "../engine/index.ts";
import { fillTemplate } from "../engine/index.ts";
import type { ErrorCode } from "../errors.ts";
import { type ConfigurationLimits, configurationProblem } from "./config-bounds.ts";
import { deepMerge, turnConfig } from "./configuration.ts";
import { ConfigSchema, checkConfig, type RequestOf, type SessionConfig } from "./model.ts";
import { errorResponse, type RequestStamp, response, type ServerMessage } from "./protocol.ts";
import { isReference, parseReference, resolveConfiguration, type StoredFind, type StoredKind } from "./references.ts";
import { checkUtility, firstProblem, MAX_UTILITIES, toUtility, type UtilityBody } from "./utility-schema.ts";

/** The stored configurations of the player's team (src/configs implements it over the database). */
export interface StoredConfigs {
  /** `name` (version null: the latest) in the team of `playerId`, never another team's. */
  find(playerId: number, kind: StoredKind, name: string, version: number | null): StoredFind | Promise<StoredFind>;
}

export type Configured = { ok: true; config: SessionConfig } | { ok: false; error: string; code: ErrorCode };

export interface ConfigureContext {
  playerId: number;
  stored: StoredConfigs | undefined;
  voices: readonly string[];
  /** The current configuration (merge_configuration merges into it). */
  current: SessionConfig | null;
  /** Bounds on the resulting configuration (size, context keys and depth). */
  limits: ConfigurationLimits;
}

const POSITIONS = ["on_input", "on_input_non_blocking", "on_output"] as const;
type Position = (typeof POSITIONS)[number];

/**
 * The configuration `set_configuration` asks for, references resolved and checked.
 * @example await setConfiguration({ reference: "owl@v2" }, ctx)
 */
export async function setConfiguration(raw: unknown, ctx: ConfigureContext): Promise<Configured> {
  const resolved = await resolveConfiguration(raw, lookupFor(ctx));
  if (!resolved.ok) return { ok: false, error: resolved.error, code: resolved.code };
  return finish(resolved.value, ctx);
}

/**
 * The configuration after `merge_configuration`: stored `references` in order, then `config`, onto the current one.
 * @example await mergeConfiguration({ references: [{ reference: "base" }, { reference: "voice" }] }, ctx)
 */
export async function mergeConfiguration(request: Pick<RequestOf<"merge_configuration">, "config" | "references">, ctx: ConfigureContext): Promise<Configured> {
  let merged: Record<string, unknown> = ctx.current ?? {};
  const patches: unknown[] = [...(request.references ?? []), ...(request.config ? [request.config] : [])];
  for (const patch of patches) {
    const resolved = await resolveConfiguration(patch, lookupFor(ctx));
    if (!resolved.ok) return { ok: false, error: resolved.error, code: resolved.code };
    if (!isPlainObject(resolved.value)) return { ok: false, error: 'field "config" must be a configuration object', code: "invalid_configuration" };
    merged = mergeReplacingUtilities(merged, resolved.value);
  }
  return finish(merged, ctx);
}

/** The names of the utilities a configuration defines (null entries are not utilities). */
export function configuredUtilities(config: SessionConfig | null): string[] {
  return Object.entries(config?.utilities ?? {})
    .filter(([, utility]) => utility !== null)
    .map(([name]) => name);
}

/**
 * The utilities one interact runs, or a sentence naming the first unknown one (field `on_input[1]`, ...).
 * @example planUtilities(config, { on_input: ["cats"] }) // { ok: true, plan: { onInput: ["cats"], ... } }
 */
export function planUtilities(
  config: SessionConfig,
  request: Partial<Record<Position, readonly string[] | undefined>>,
): { ok: true; plan: UtilityPlan | undefined } | { ok: false; error: string } {
  const definitions = definitionsOf(config);
  const lists = new Map<Position, readonly string[]>();
  for (const position of POSITIONS) {
    const asked = request[position];
    const list = asked && asked.length > 0 ? asked : configDefault(config, position);
    const problem = unknownName(list, definitions, position);
    if (problem) return { ok: false, error: problem };
    lists.set(position, list);
  }
  if (definitions.size === 0) return { ok: true, plan: undefined };
  return {
    ok: true,
    plan: {
      definitions,
      onInput: lists.get("on_input") ?? [],
      onInputNonBlocking: lists.get("on_input_non_blocking") ?? [],
      onOutput: lists.get("on_output") ?? [],
    },
  };
}

/**
 * `render_prompt`: the configured prompt with `{{name}}` filled from the configuration's context and the request's.
 * @example renderPrompt({ prompt: "Hi {{name}}" }, { name: "Mia" }) // "Hi Mia"
 */
export function renderPrompt(config: SessionConfig, context: Record<string, unknown> | undefined): string {
  return fillTemplate(config.prompt, { ...configContext(config), ...toContext(context) }).text;
}

export interface RunPorts {
  engine: Partial<Pick<Engine, "runUtilities">>;
  history: { load(playerId: number): Promise<HistoryMessage[]> };
  safetyPolicy: string;
  signal: AbortSignal;
}

/**
 * `run`: the named utilities on the conversation (or on `bindings.input` / `bindings.output`), without a reply.
 * @example await runUtilities(config, { utilities: ["cats"], bindings: { input: "I love cats" } }, playerId, ports)
 */
export async function runUtilities(
  config: SessionConfig,
  request: Pick<RequestOf<"run">, "utilities" | "context" | "bindings">,
  playerId: number,
  ports: RunPorts,
): Promise<{ ok: true; result: UtilityRunResult } | { ok: false; error: string; code: ErrorCode }> {
  const definitions = definitionsOf(config);
  const names = request.utilities ?? [];
  const problem = unknownName(names, definitions, "utilities");
  if (problem) return { ok: false, error: problem, code: "unknown_utility" };
  if (names.length === 0) return { ok: true, result: { data: {}, notices: [] } };
  if (!ports.engine.runUtilities) return { ok: false, error: "utilities are not available on this server", code: "internal" };
  const bindings = new Map(Object.entries(request.bindings ?? {}));
  let history = await ports.history.load(playerId);
  let subject: UtilitySubject | null = null;
  const output = bindings.get("output");
  const input = bindings.get("input");
  if (output !== undefined) {
    subject = { role: "character", text: output };
    if (input !== undefined) history = [...history, { role: "user", text: input }];
  } else if (input !== undefined) {
    subject = { role: "child", text: input };
  } else if (history.length > 0) {
    const last = history.at(-1) as HistoryMessage;
    subject = { role: last.role === "user" ? "child" : "character", text: last.text };
    history = history.slice(0, -1);
  }
  bindings.delete("input");
  bindings.delete("output");
  const context: Context = { ...configContext(config), ...toContext(request.context), ...Object.fromEntries(bindings) };
  const result = await ports.engine.runUtilities({ definitions, names, context, subject, history, safetyPolicy: ports.safetyPolicy, signal: ports.signal });
  return { ok: true, result };
}

/** What a `run` started by a session answers through. */
export interface RunSession extends Pick<RunPorts, "engine" | "history"> {
  sessionId: string;
  logger: EngineLogger;
  send(message: ServerMessage): void;
}

/**
 * `run` in the background (like a turn, so an interrupt is not queued behind it): its answer or its error is sent
 * when it is done, never after the socket closed (`runs` aborts it then); a throw inside is logged and answered
 * "internal error".
 */
export function startRun(
  runs: BackgroundRuns,
  config: SessionConfig,
  playerId: number,
  request: RequestOf<"run">,
  stamp: RequestStamp,
  session: RunSession,
): void {
  const safetyPolicy = turnConfig(config, [], config.language_code || "en").safety_policy;
  runs.start(
    async (signal) => {
      const outcome = await runUtilities(config, request, playerId, { engine: session.engine, history: session.history, safetyPolicy, signal });
      if (signal.aborted) return;
      session.send(outcome.ok ? response("run", stamp, { data: outcome.result.data }) : errorResponse(stamp, outcome.error, outcome.code));
    },
    (error) => {
      session.logger.error({ event: "ws_handler_error", session: session.sessionId, err: (error as Error).message }, "run failed");
      session.send(errorResponse(stamp, "internal error", "internal"));
    },
  );
}

/** `run` (and `transcribe`) requests one socket may have working at once by default (HOOT_WS_MAX_RUNS_AT_ONCE). */
export const MAX_RUNS_AT_ONCE = 4;

/** Tracks the `run` requests working in the background: a cap on how many at once, and a stop when the socket closes. */
export class BackgroundRuns {
  // Created by the first run: most sockets never start one, and ten thousand idle sessions should not hold ten
  // thousand empty Sets.
  private running: Set<AbortController> | null = null;

  /** `limit`: requests that may work at once (each `run` may call the model once per utility). */
  constructor(readonly limit: number = MAX_RUNS_AT_ONCE) {}

  /** True when another run may start now. */
  get available(): boolean {
    return (this.running?.size ?? 0) < this.limit;
  }

  /** Starts `work` with its own signal; a throw inside is passed to `onError`, never lost. */
  start(work: (signal: AbortSignal) => Promise<void>, onError: (error: unknown) => void): void {
    const controller = new AbortController();
    const running = (this.running ??= new Set());
    running.add(controller);
    void work(controller.signal)
      .catch(onError)
      .finally(() => running.delete(controller));
  }

  abortAll(): void {
    if (!this.running) return;
    for (const controller of this.running) controller.abort();
    this.running.clear();
  }
}

// Compiled on the first merge, not at start-up.
let partialConfig: TypeCheck<TSchema> | null = null;

/**
 * Null when `body` may be stored as a configuration (`/api/configs`): a configuration object, whole or
 * partial, whose prompt, voice_profile and utilities may hold references; else a sentence naming the field.
 * @example checkStoredConfiguration({ prompt: { reference: "owl@v2" }, temperature: 3 }) // 'field "config.temperature" is not valid: ...'
 */
export function checkStoredConfiguration(body: Record<string, unknown>): string | null {
  if (isReference(body)) return 'field "config" must be a configuration object, not a reference';
  const copy = new Map(Object.entries(body));
  for (const field of ["prompt", "voice_profile"]) {
    const value = copy.get(field);
    if (!isReference(value)) continue;
    if (parseReference(value.reference) === null) return badReference(`config.${field}`, value.reference);
    copy.delete(field);
  }
  const utilities = copy.get("utilities");
  if (isPlainObject(utilities)) {
    const entries = Object.entries(utilities);
    if (entries.length > MAX_UTILITIES) return `field "config.utilities" has ${entries.length} utilities; at most ${MAX_UTILITIES} are allowed`;
    for (const [name, utility] of entries) {
      const ref = typeof utility === "string" ? utility : isReference(utility) ? utility.reference : null;
      const problem =
        ref !== null
          ? parseReference(ref) === null
            ? badReference(`config.utilities.${name}`, ref)
            : null
          : utility === null
            ? null
            : checkUtility(utility, `config.utilities.${name}`);
      if (problem) return problem;
    }
    copy.set("utilities", {});
  }
  return firstProblem((partialConfig ??= TypeCompiler.Compile(Type.Partial(ConfigSchema))), Object.fromEntries(copy), "config");
}

function badReference(path: string, text: string): string {
  return `field "${path}": ${JSON.stringify(text)} is not a reference (use "name", "name@v2" or "name@latest")`;
}

function lookupFor(ctx: ConfigureContext) {
  const stored = ctx.stored;
  return stored ? (kind: StoredKind, name: string, version: number | null) => stored.find(ctx.playerId, kind, name, version) : null;
}

/**
 * Checks a resolved configuration: its size first (a merge must not grow a session without end, and a huge
 * value should cost no more than the bound), then utilities (their sentences are clearer than the schema's),
 * then the schema, then what the server offers.
 */
function finish(value: unknown, ctx: ConfigureContext): Configured {
  if (isPlainObject(value)) {
    const tooLarge = configurationProblem(value, ctx.limits);
    if (tooLarge) return { ok: false, error: tooLarge, code: "configuration_too_large" };
  }
  const utilities = isPlainObject(value) ? value.utilities : undefined;
  if (isPlainObject(utilities)) {
    const entries = Object.entries(utilities);
    if (entries.length > MAX_UTILITIES) return invalid(`field "config.utilities" has ${entries.length} utilities; at most ${MAX_UTILITIES} are allowed`);
    for (const [name, utility] of entries) {
      if (name.length === 0 || name.length > 100) return invalid(`field "config.utilities": a utility name must be 1 to 100 characters`);
      const problem = utility === null ? null : checkUtility(utility, `config.utilities.${name}`);
      if (problem) return invalid(problem);
    }
  }
  const checked = checkConfig(value);
  if (!checked.ok) return invalid(checked.error);
  const definitions = definitionsOf(checked.value);
  for (const position of POSITIONS) {
    const unknown = unknownName(configDefault(checked.value, position), definitions, `config.${position}`);
    if (unknown) return invalid(unknown);
  }
  return { ok: true, config: checked.value };
}

function invalid(error: string): Configured {
  return { ok: false, error, code: "invalid_configuration" };
}

/** The configuration's utilities as the engine takes them, in a Map (never looked up on an object). */
function definitionsOf(config: SessionConfig): Map<string, Utility> {
  const out = new Map<string, Utility>();
  for (const [name, body] of Object.entries(config.utilities ?? {})) if (body !== null) out.set(name, toUtility(body as UtilityBody));
  return out;
}

function unknownName(names: readonly string[], definitions: ReadonlyMap<string, Utility>, field: string): string | null {
  const index = names.findIndex((name) => !definitions.has(name));
  if (index === -1) return null;
  const known = [...definitions.keys()];
  return `field "${field}[${index}]": no utility ${JSON.stringify(names[index])} is configured (${known.length > 0 ? `configured: ${known.join(", ")}` : "the configuration has no utilities"})`;
}

/**
 * A configuration-level default (`on_input`, ... or `context`) if the configuration carries one. Read by
 * name from the checked configuration, so these work as soon as the configuration schema accepts them.
 */
function configDefault(config: SessionConfig, position: Position): readonly string[] {
  const value = (config as Record<string, unknown>)[position];
  return Array.isArray(value) ? value.filter((name): name is string => typeof name === "string") : [];
}

function configContext(config: SessionConfig): Context {
  const value = (config as Record<string, unknown>).context;
  return isPlainObject(value) ? toContext(value) : {};
}

/** Context values as templates take them: strings, numbers and booleans as they are, other values as JSON, null left out. */
function toContext(value: Record<string, unknown> | undefined): Context {
  const out = new Map<string, ContextValue>();
  for (const [key, item] of Object.entries(value ?? {})) {
    if (item === null || item === undefined) continue;
    out.set(key, typeof item === "string" || typeof item === "number" || typeof item === "boolean" ? item : JSON.stringify(item));
  }
  return Object.fromEntries(out);
}

/** Deep-merges like merge_configuration always did, except that a utility given again replaces the old one. */
function mergeReplacingUtilities(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const baseUtilities = base.utilities;
  const patchUtilities = patch.utilities;
  if (!isPlainObject(baseUtilities) || !isPlainObject(patchUtilities)) return deepMerge(base, patch);
  const kept = new Map(Object.entries(baseUtilities));
  for (const [name, utility] of Object.entries(patchUtilities)) if (isPlainObject(utility)) kept.delete(name);
  return deepMerge({ ...base, utilities: Object.fromEntries(kept) }, patch);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
