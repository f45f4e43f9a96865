/**
 * `hoot admin restore --from FILE [--key FILE] [--force]`: puts a backup made by `hoot admin backup` in place
 * of the database, with its key. Rules, checked before anything is written:
 *  - the backup is an intact hoot database;
 *  - the key (--key, else FILE.key beside the backup, else this deployment's key) opens it;
 *  - HOOT_SECRET_KEY, when set, is that key (restore cannot change an environment variable);
 *  - an existing database is replaced only with --force, only while no process has it open (the server
 *    must be stopped), and is kept beside it as `<database>.before-restore-<time>`.
 * The copy is atomic (temp file, fsync, rename), 0600; stale -wal and -shm of the old database are removed
 * (they would otherwise be replayed into the restored one).
 */
import { Database } from "bun:sqlite";
import { existsSync, readFileSync, renameSync, statSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";
import { createSecrets, safeEqual } from "../auth/secrets.ts";
import type { Config } from "../config.ts";
import { copyPrivateFileAtomic, ensurePrivateDir, writePrivateFileAtomic } from "../private-files.ts";
import { encodeKey, findMasterKey, keyCheckValue, keyFilePath, readKeyFile } from "../secret-key.ts";

export interface RestoreRequest {
  from: string;
  keyFile?: string;
  force: boolean;
}

/** Restores a backup; returns what was done, or throws a message that says what to do. */
export function restoreBackup(config: Config, request: RestoreRequest, warn: (message: string) => void): object {
  const { from } = request;
  if (!existsSync(from)) throw new Error(`${from} does not exist`);
  const facts = inspectBackup(from);

  const keyPath = request.keyFile ?? (existsSync(`${from}.key`) ? `${from}.key` : null);
  const key = keyPath ? { key: readKeyFile(keyPath), source: keyPath } : findMasterKey(config);
  if (!key) {
    if (facts.encrypted) throw new Error(`no key for ${from}: give the key file written beside it by \`hoot admin backup\` with --key FILE`);
  } else if (!opens(facts, key.key)) {
    throw new Error(`the key in ${key.source} does not open ${from}; give the key file written beside that backup with --key FILE`);
  }
  if (key && config.secretKey && !safeEqual(encodeKey(key.key), encodeKey(Uint8Array.from(Buffer.from(config.secretKey, "base64"))))) {
    throw new Error(
      `HOOT_SECRET_KEY is set to a different key than the one that opens ${from}: set HOOT_SECRET_KEY to the contents of ${key.source}, then run restore again`,
    );
  }

  const target = config.databasePath;
  let previous: string | null = null;
  if (existsSync(target) && statSync(target).size > 0) {
    if (!request.force)
      throw new Error(`a database already exists at ${target}; stop the server, then add --force to replace it (the current one is kept beside it)`);
    previous = `${target}.before-restore-${stamp()}`;
    releaseWal(target);
    renameSync(target, previous);
  }
  for (const suffix of ["-wal", "-shm", "-journal"]) if (existsSync(target + suffix)) unlinkSync(target + suffix);
  ensurePrivateDir(dirname(target), { tighten: false });
  ensurePrivateDir(config.dataDir);
  copyPrivateFileAtomic(from, target);

  let keyResult: string;
  if (!key) {
    keyResult = "none needed: the backup holds no encrypted data";
  } else if (config.secretKey) {
    keyResult = "HOOT_SECRET_KEY";
  } else {
    const path = keyFilePath(config);
    const current = existsSync(path) ? readFileSync(path, "utf8") : null;
    if (current !== encodeKey(key.key)) {
      if (current !== null) {
        const kept = `${path}.before-restore-${stamp()}`;
        renameSync(path, kept);
        warn(`kept the previous key as ${kept}: it opens ${previous ?? "the previous database"}`);
      }
      writePrivateFileAtomic(path, encodeKey(key.key), { exclusive: true });
    }
    keyResult = path;
  }
  warn(`restored ${from} to ${target}; start the server as usual`);
  return { restored: target, from, key: keyResult, previous_database: previous };
}

interface BackupFacts {
  keyCheck: string | null;
  sample: Uint8Array | null;
  encrypted: boolean;
}

function inspectBackup(path: string): BackupFacts {
  let db: Database;
  try {
    db = new Database(path, { readonly: true });
  } catch {
    throw new Error(`${path} is not a SQLite database`);
  }
  try {
    const integrity = db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get();
    if (integrity?.integrity_check !== "ok") throw new Error(`${path} is damaged (integrity check failed); use another backup`);
    const tables = new Set(
      db
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((r) => r.name),
    );
    if (!tables.has("players") || !tables.has("users")) throw new Error(`${path} is not a hoot database`);
    const keyCheck = tables.has("hoot_meta")
      ? (db.query<{ value: string }, []>("SELECT value FROM hoot_meta WHERE name = 'key_check'").get()?.value ?? null)
      : null;
    const sample =
      db
        .query<{ sealed: Uint8Array }, []>(
          "SELECT api_key_enc AS sealed FROM users UNION ALL SELECT key_enc FROM service_accounts UNION ALL SELECT federated_id_enc FROM players LIMIT 1",
        )
        .get()?.sealed ?? null;
    return { keyCheck, sample, encrypted: keyCheck !== null || sample !== null };
  } catch (error) {
    if (error instanceof Error && error.message.startsWith(path)) throw error;
    throw new Error(`${path} is not a hoot database`);
  } finally {
    db.close();
  }
}

function opens(facts: BackupFacts, key: Uint8Array): boolean {
  if (facts.keyCheck !== null) return safeEqual(facts.keyCheck, keyCheckValue(key));
  if (facts.sample !== null) return createSecrets(key).decrypt(facts.sample) !== null;
  return true;
}

// Leaving WAL mode needs every other connection gone: it fails while a server has the database open, and
// on success folds the WAL into the file, so the file alone is the whole old database.
function releaseWal(path: string): void {
  const db = new Database(path);
  try {
    db.exec("PRAGMA busy_timeout = 0");
    db.query("PRAGMA journal_mode = DELETE").get();
  } catch {
    throw new Error(`${path} is open in another process (is the server running?); stop it, then run restore again`);
  } finally {
    db.close();
  }
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, "-");
}
