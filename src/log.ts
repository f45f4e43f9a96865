/**
 * Structured JSON logs through pino. Rules: never log a secret (keys, tokens, federated ids) or a child's
 * words; log ids and lengths. The redact list is a second line of defence for fields that must never appear.
 */
import pino, { type DestinationStream, type Logger } from "pino";
import type { LogLevel } from "./config.ts";

export type { Logger };

const REDACT = [
  "api_key",
  "access_token",
  "federated_id",
  "authorization",
  "token",
  "text",
  "*.api_key",
  "*.access_token",
  "*.federated_id",
  "*.authorization",
];

/** A JSON logger at `level` writing to `destination` (stdout by default). */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = { level, base: { service: "hoot" }, redact: { paths: REDACT, censor: "[redacted]" }, timestamp: pino.stdTimeFunctions.isoTime };
  return destination ? pino(options, destination) : pino(options, pino.destination({ fd: 1, sync: false }));
}
