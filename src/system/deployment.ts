/**
 * Opening a deployment's data: the 0700 data folder, the database, and the master key that opens what the
 * database stores. Used by `hoot serve` and the admin commands. Rules:
 *  - a key is generated only for a database that holds nothing encrypted (a new install);
 *  - a database that holds encrypted data is opened only with the key that made it: its key check value
 *    must match (older databases without one are checked by opening one stored credential, then stamped);
 *  - otherwise nothing starts, and the message says which key is missing and where to put it.
 * Then the conversation cipher is bound to the handle and plain-text conversation rows of older versions
 * are sealed.
 */
import type { Config } from "../config.ts";
import { openDatabase, type DbHandle } from "../db/client.ts";
import { readKeyCheck, sampleCiphertext, writeKeyCheck } from "../db/meta.ts";
import { createSecrets, safeEqual } from "../auth/secrets.ts";
import { bindTextCipher, createTextCipher } from "../conversations/cipher.ts";
import { sealPlainMessages } from "../conversations/service.ts";
import { findMasterKey, generateMasterKey, generatedKeyWarning, keyCheckValue, keyFilePath } from "../secret-key.ts";
import { ensurePrivateDir } from "./private-files.ts";

/** A refusal to start, with a message written for the operator. */
export class StartupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupRefused";
  }
}

export interface Deployment {
  handle: DbHandle;
  masterKey: Uint8Array;
  /** Things worth a log line: a generated key, a tightened folder, sealed old rows. */
  notices: { event: string; message: string }[];
}

/** Opens the data folder, the database and the key; throws StartupRefused when the key cannot open the data. */
export function openDeployment(config: Config, options: { busyTimeoutMs?: number } = {}): Deployment {
  const notices: Deployment["notices"] = [];
  if (ensurePrivateDir(config.dataDir)) {
    notices.push({ event: "data_dir_tightened", message: `${config.dataDir} was readable by other users; it is now 0700` });
  }
  const handle = openDatabase(config.databasePath, options);
  try {
    const masterKey = resolveKey(config, handle, notices);
    bindTextCipher(handle.db, createTextCipher(masterKey));
    const sealed = sealPlainMessages(handle.db);
    if (sealed > 0) notices.push({ event: "conversations_sealed", message: `encrypted ${sealed} conversation messages stored in plain text by an older version` });
    return { handle, masterKey, notices };
  } catch (error) {
    handle.close();
    throw error;
  }
}

function resolveKey(config: Config, handle: DbHandle, notices: Deployment["notices"]): Uint8Array {
  const stored = readKeyCheck(handle.db);
  const sample = sampleCiphertext(handle.db);
  const found = findMasterKey(config);
  if (!found) {
    if (stored !== null || sample !== null) throw new StartupRefused(missingKeyMessage(config));
    const generated = generateMasterKey(config);
    notices.push({ event: "generated_secret_key", message: generatedKeyWarning(generated.source) });
    writeKeyCheck(handle.db, keyCheckValue(generated.key));
    return generated.key;
  }
  const check = keyCheckValue(found.key);
  if (stored !== null) {
    if (!safeEqual(stored, check)) throw new StartupRefused(wrongKeyMessage(config, found.source));
    return found.key;
  }
  // A database from before key check values: it must open with this key before it is stamped with it.
  if (sample !== null && createSecrets(found.key).decrypt(sample) === null) throw new StartupRefused(wrongKeyMessage(config, found.source));
  writeKeyCheck(handle.db, check);
  return found.key;
}

function missingKeyMessage(config: Config): string {
  return (
    `the database ${config.databasePath} holds credentials and conversations encrypted with a secret key, but no key was found ` +
    `(HOOT_SECRET_KEY is not set and ${keyFilePath(config)} does not exist). ` +
    `Put back the key that was used with this database: copy the key file that \`hoot admin backup\` wrote beside the backup to ${keyFilePath(config)} ` +
    `(or run \`hoot admin restore\`), or set HOOT_SECRET_KEY to it. Without that key nothing stored can be read, so hoot did not start.`
  );
}

function wrongKeyMessage(config: Config, source: string): string {
  return (
    `the database ${config.databasePath} was encrypted with a different secret key than the one in ${source}, so every stored credential and conversation would be unreadable. ` +
    `Use the key that was used with this database (the key file \`hoot admin backup\` wrote beside the backup, via ${keyFilePath(config)} or HOOT_SECRET_KEY), ` +
    `or point HOOT_DATABASE at the database that belongs to this key. hoot did not start.`
  );
}
