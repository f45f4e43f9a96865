/**
 * The logging the engine needs, as a structural type so pino's Logger fits without the engine depending on
 * how the app builds its logger. The engine logs lengths, counts and ids, never the child's words or the reply.
 */

type LogFn = (fields: Record<string, unknown>, message: string) => void;

export interface EngineLogger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Record<string, unknown>): EngineLogger;
}

const noop: LogFn = () => {};

/** A logger that drops everything (the default when none is given). */
export const silentLogger: EngineLogger = { debug: noop, info: noop, warn: noop, error: noop, child: () => silentLogger };
