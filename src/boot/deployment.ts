/**
 * Opening a deployment's data: the 0700 data folder, the database (SQLite, or PostgreSQL with
 * HOOT_DATABASE_URL), and the master key that opens what the database stores. Used by `hoot serve` and the
 * admin commands. Rules:
 *  - a key is generated only for a database that holds nothing encrypted (a new install);
 *  - a database that holds encrypted data is opened only with the key that made it: its key check value
 *    must match (older databases without one are checked by opening one stored credential, then stamped);
 *  - otherwise nothing starts, and the message says which key is missing and where to put it.
 *  - the key check value is written once, then read back: of several nodes starting at once with different
 *    keys, only the one whose key was stored starts;
 * Then plain-text conversation rows of older versions are sealed.
 */

import { createSecrets, safeEqual } from "../auth/secrets.ts";
import type { Config } from "../config.ts";
import { createTextCipher } from "../conversations/cipher.ts";
import { sealPlainMessages } from "../conversations/service.ts";
import { ensurePrivateDir } from "../private-files.ts";
import { findMasterKey, generatedKeyWarning, generateMasterKey, keyCheckValue, keyFilePath } from "../secret-key.ts";
import { type ConnectOptions, connectDatabase, type Database } from "./repositories.ts";

/** A refusal to start, with a message written for the operator. */
export class StartupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupRefused";
  }
}

export interface Deployment {
  database: Database;
  masterKey: Uint8Array;
  /** Things worth a log line: a generated key, a tightened folder, sealed old rows. */
  notices: { event: string; message: string }[];
}

/** Opens the data folder, the database and the key; throws StartupRefused when the key cannot open the data. */
export async function openDeployment(config: Config, options: ConnectOptions = {}): Promise<Deployment> {
  const notices: Deployment["notices"] = [];
  if (ensurePrivateDir(config.dataDir)) {
    notices.push({ event: "data_dir_tightened", message: `${config.dataDir} was readable by other users; it is now 0700` });
  }
  const database = await connectDatabase(config, options);
  try {
    const masterKey = await resolveKey(config, database, notices);
    const sealed = await sealPlainMessages({ store: database.store, database, textCipher: createTextCipher(masterKey) });
    if (sealed > 0)
      notices.push({ event: "conversations_sealed", message: `encrypted ${sealed} conversation messages stored in plain text by an older version` });
    return { database, masterKey, notices };
  } catch (error) {
    await database.close();
    throw error;
  }
}

async function resolveKey(config: Config, database: Database, notices: Deployment["notices"]): Promise<Uint8Array> {
  const meta = database.store.meta;
  const stored = await meta.readKeyCheck();
  const sample = await meta.sampleCiphertext();
  const found = findMasterKey(config);
  if (!found) {
    if (stored !== null || sample !== null) throw new StartupRefused(missingKeyMessage(config, database));
    const generated = generateMasterKey(config);
    notices.push({ event: "generated_secret_key", message: generatedKeyWarning(generated.source) });
    await stamp(config, database, keyCheckValue(generated.key), generated.source);
    return generated.key;
  }
  const check = keyCheckValue(found.key);
  if (stored !== null) {
    if (!safeEqual(stored, check)) throw new StartupRefused(wrongKeyMessage(config, database, found.source));
    return found.key;
  }
  // A database from before key check values: it must open with this key before it is stamped with it.
  if (sample !== null && createSecrets(found.key).decrypt(sample) === null) throw new StartupRefused(wrongKeyMessage(config, database, found.source));
  await stamp(config, database, check, found.source);
  return found.key;
}

// Writes the key check value unless one is there, then reads back what won: another node may have stamped first.
async function stamp(config: Config, database: Database, check: string, source: string): Promise<void> {
  await database.store.meta.writeKeyCheck(check);
  const stored = await database.store.meta.readKeyCheck();
  if (stored === null || !safeEqual(stored, check)) throw new StartupRefused(wrongKeyMessage(config, database, source));
}

function missingKeyMessage(config: Config, database: Database): string {
  return (
    `the database ${database.location} holds credentials and conversations encrypted with a secret key, but no key was found ` +
    `(HOOT_SECRET_KEY is not set and ${keyFilePath(config)} does not exist). ` +
    `Put back the key that was used with this database: copy the key file that \`hoot admin backup\` wrote beside the backup to ${keyFilePath(config)} ` +
    `(or run \`hoot admin restore\`), or set HOOT_SECRET_KEY to it. Without that key nothing stored can be read, so hoot did not start.`
  );
}

function wrongKeyMessage(config: Config, database: Database, source: string): string {
  return (
    `the database ${database.location} was encrypted with a different secret key than the one in ${source}, so every stored credential and conversation would be unreadable. ` +
    `Use the key that was used with this database (the key file \`hoot admin backup\` wrote beside the backup, via ${keyFilePath(config)} or HOOT_SECRET_KEY), ` +
    `or point ${database.kind === "sqlite" ? "HOOT_DATABASE" : "HOOT_DATABASE_URL"} at the database that belongs to this key. hoot did not start.`
  );
}
