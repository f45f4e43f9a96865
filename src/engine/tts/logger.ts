/**
 * The logging the speech providers need, as a structural type so pino's Logger fits without this folder
 * depending on how the app builds its logger. Callers log lengths and ids, never the child's text.
 */

type LogFn = (fields: Record<string, unknown>, message: string) => void;

export interface TtsLogger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

const noop: LogFn = () => {};

/** A logger that drops everything (the default when none is given). */
export const silentLogger: TtsLogger = { debug: noop, info: noop, warn: noop, error: noop };
