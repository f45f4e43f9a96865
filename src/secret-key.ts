/**
 * The master secret: HOOT_SECRET_KEY when set; otherwise a key generated once into
 * `$HOOT_DATA_DIR/secret.key` (mode 0600) so a development install keeps working across restarts.
 * Production labels refuse to start without HOOT_SECRET_KEY (checked in config.ts).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";

/** The master key bytes, and a warning to log when one was generated. */
export function loadMasterKey(config: Config): { key: Uint8Array; warning: string | null } {
  if (config.secretKey) return { key: Uint8Array.from(Buffer.from(config.secretKey, "base64")), warning: null };
  const path = join(config.dataDir, "secret.key");
  if (existsSync(path)) {
    const key = Uint8Array.from(Buffer.from(readFileSync(path, "utf8").trim(), "base64"));
    if (key.length < 32) throw new Error(`${path} does not hold a base64 key of at least 32 bytes`);
    return { key, warning: null };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const key = crypto.getRandomValues(new Uint8Array(32));
  writeFileSync(path, Buffer.from(key).toString("base64") + "\n", { mode: 0o600, flag: "wx" });
  chmodSync(path, 0o600);
  return { key, warning: `HOOT_SECRET_KEY is not set: generated ${path}. Set HOOT_SECRET_KEY for any shared or production deployment, and back the key up: without it stored credentials cannot be read.` };
}
