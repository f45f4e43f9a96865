/**
 * The master secret: HOOT_SECRET_KEY when set; otherwise `$HOOT_DATA_DIR/secret.key` (0600), generated once
 * so a development install keeps working across restarts. Production labels refuse to start without
 * HOOT_SECRET_KEY (checked in config.ts).
 *
 * Every credential and every conversation stored in the database is encrypted with keys derived from this
 * secret. A key check value (an HMAC of a fixed label, which reveals nothing about the key) is stored in the
 * database, so a server started with another key, or with none beside a restored database, refuses to start
 * with a message that says what to do, instead of generating a fresh key and answering 401 to everyone.
 */
import { createHmac, hkdfSync } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { writePrivateFileAtomic } from "./private-files.ts";

export interface MasterKey {
  key: Uint8Array;
  /** Where it came from, for messages: the setting, or the key file's path. */
  source: "HOOT_SECRET_KEY" | string;
}

const MIN_KEY_BYTES = 32;

/** `$HOOT_DATA_DIR/secret.key`. */
export function keyFilePath(config: Pick<Config, "dataDir">): string {
  return join(config.dataDir, "secret.key");
}

/** The configured key, or the key file's key, or null when there is neither. Never creates anything. */
export function findMasterKey(config: Pick<Config, "secretKey" | "dataDir">): MasterKey | null {
  if (config.secretKey) return { key: Uint8Array.from(Buffer.from(config.secretKey, "base64")), source: "HOOT_SECRET_KEY" };
  const path = keyFilePath(config);
  if (!existsSync(path)) return null;
  return { key: readKeyFile(path), source: path };
}

/** Reads a key file (base64 of at least 32 bytes); throws a message naming the file otherwise. */
export function readKeyFile(path: string): Uint8Array {
  const text = readFileSync(path, "utf8").trim();
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) ? Uint8Array.from(Buffer.from(text, "base64")) : new Uint8Array();
  if (key.length < MIN_KEY_BYTES) throw new Error(`${path} does not hold a base64 key of at least ${MIN_KEY_BYTES} bytes`);
  return key;
}

/** Generates a key into the key file (atomically, fsynced, 0600; never over an existing file). */
export function generateMasterKey(config: Pick<Config, "dataDir">): MasterKey {
  const path = keyFilePath(config);
  const key = crypto.getRandomValues(new Uint8Array(MIN_KEY_BYTES));
  writePrivateFileAtomic(path, encodeKey(key), { exclusive: true });
  return { key, source: path };
}

/** The key as a key file holds it. */
export function encodeKey(key: Uint8Array): string {
  return Buffer.from(key).toString("base64") + "\n";
}

/** The value stored in the database to recognise the key that encrypted it; it reveals nothing about the key. */
export function keyCheckValue(master: Uint8Array): string {
  const checkKey = new Uint8Array(hkdfSync("sha256", master, "hoot", "key-check", 32));
  return createHmac("sha256", checkKey).update("hoot deployment key check v1").digest("hex");
}

/** The warning logged when a key was generated. */
export function generatedKeyWarning(path: string): string {
  return (
    `HOOT_SECRET_KEY is not set: generated ${path}. Set HOOT_SECRET_KEY for any shared or production deployment, and back the key up: without it stored ` +
    `credentials and conversations cannot be read.`
  );
}
