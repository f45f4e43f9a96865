/**
 * Files only the account that runs hoot may read. The data folder is 0700 and everything hoot writes in it
 * (database, its -wal and -shm, secret.key, dev credentials, backups) is 0600: the database holds children's
 * words and, with the key beside it, every credential. SQLite gives -wal and -shm the permissions of the
 * database file, so a 0600 database keeps them 0600 too.
 */
import { chmodSync, closeSync, copyFileSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` (and missing parents) as 0700, or tightens an existing one to 0700 (unless `tighten` is false:
 * a folder of the operator's, such as a backup target); returns true when an existing folder was tightened.
 * @example ensurePrivateDir("./data")
 */
export function ensurePrivateDir(dir: string, options: { tighten?: boolean } = {}): boolean {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    chmodSync(dir, PRIVATE_DIR_MODE);
    return false;
  }
  if (options.tighten === false || (statSync(dir).mode & 0o777) === PRIVATE_DIR_MODE) return false;
  chmodSync(dir, PRIVATE_DIR_MODE);
  return true;
}

/** Makes `path` 0600 if it exists (an older hoot, or SQLite itself, may have made it 0644). */
export function restrictFile(path: string): void {
  if (existsSync(path) && (statSync(path).mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(path, PRIVATE_FILE_MODE);
}

/** Creates an empty 0600 file at `path` unless one exists, so whatever writes it next keeps that mode. */
export function createPrivateFile(path: string): void {
  closeSync(openSync(path, "a", PRIVATE_FILE_MODE));
  restrictFile(path);
}

/**
 * Writes `data` to `path` atomically and durably: a 0600 temp file in the same folder, fsync, then into place
 * and fsync of the folder, so a crash leaves either no file or the whole file, never a torn one. With
 * `exclusive`, an existing file is an error (two servers starting at once cannot both write a key).
 * @example writePrivateFileAtomic("data/secret.key", key + "\n", { exclusive: true })
 */
export function writePrivateFileAtomic(path: string, data: string | Uint8Array, options: { exclusive?: boolean } = {}): void {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(temp, "wx", PRIVATE_FILE_MODE);
  try {
    writeSync(fd, typeof data === "string" ? Buffer.from(data, "utf8") : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    // link() fails when the target exists, where rename() would silently replace it.
    if (options.exclusive) linkSync(temp, path);
    else renameSync(temp, path);
  } finally {
    if (existsSync(temp)) unlinkSync(temp);
  }
  chmodSync(path, PRIVATE_FILE_MODE);
  syncDir(dir);
}

/** Copies `source` over `path` atomically and durably (0600 temp file, fsync, rename, fsync of the folder). */
export function copyPrivateFileAtomic(source: string, path: string): void {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    copyFileSync(source, temp);
    chmodSync(temp, PRIVATE_FILE_MODE);
    const fd = openSync(temp, "r+");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } finally {
    if (existsSync(temp)) unlinkSync(temp);
  }
  syncDir(dir);
}

function syncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } catch {
    // Some filesystems cannot fsync a directory; the file itself is already synced.
  } finally {
    closeSync(fd);
  }
}
