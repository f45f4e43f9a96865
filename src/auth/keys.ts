/**
 * Credential strings. Format: `hoot_<env>_<kind>_<body><check>`
 *   env   the deployment's environment label (dev, staging, production…), so a key pasted into the wrong
 *         deployment is refused with a message that says so;
 *   kind  dk = developer key, sk = service account key, fid = federated id, op = operator key;
 *   body  32 base62 characters from 24 random bytes (192 bits);
 *   check 6 base62 characters of CRC32 over everything before it, so secret scanners can tell a real key
 *         from a look-alike and a mistyped key is refused before any database lookup.
 * `parseKey` returns null for anything malformed, without saying which check failed.
 */

export type KeyKind = "dk" | "sk" | "fid" | "op";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BODY_LENGTH = 32;
const CHECK_LENGTH = 6;
const PATTERN = /^hoot_([a-z][a-z0-9]{0,15})_(dk|sk|fid|op)_([0-9A-Za-z]{38})$/;

/** A new random key of `kind` for environment `env`, e.g. `hoot_dev_dk_…`. */
export function generateKey(kind: KeyKind, env: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  const body = toBase62(n, BODY_LENGTH);
  const head = `hoot_${env}_${kind}_${body}`;
  return head + checksum(head);
}

export interface ParsedKey {
  env: string;
  kind: KeyKind;
}

/** The environment and kind of a well-formed key with a valid checksum, else null. */
export function parseKey(value: string): ParsedKey | null {
  const match = PATTERN.exec(value);
  if (!match) return null;
  const head = value.slice(0, value.length - CHECK_LENGTH);
  if (checksum(head) !== value.slice(-CHECK_LENGTH)) return null;
  return { env: match[1]!, kind: match[2] as KeyKind };
}

/** A key with its secret part hidden, for listings: `hoot_dev_sk_Ab12…yz89`. */
export function maskKey(value: string): string {
  const prefixEnd = value.lastIndexOf("_") + 1;
  return `${value.slice(0, prefixEnd + 4)}…${value.slice(-4)}`;
}

function checksum(text: string): string {
  return toBase62(BigInt(Bun.hash.crc32(text)), CHECK_LENGTH);
}

function toBase62(value: bigint, length: number): string {
  let out = "";
  let n = value;
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}
