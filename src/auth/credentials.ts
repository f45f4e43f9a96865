/**
 * Turns a presented secret into a known credential. Rules: the key must parse (format and checksum)
 * before any lookup; a key of another environment is refused by name; the row is found by keyed hash and
 * the stored ciphertext is decrypted and compared in constant time, so a hash collision or a tampered row
 * cannot let a wrong key in. Every function returns null on any mismatch, without saying which check failed.
 */
import { WrongEnvironment } from "../errors.ts";
import { type KeyKind, parseKey } from "./keys.ts";
import type { AuthLookups, SealedCredential, ServiceAccountState } from "./lookups.ts";
import { type Secrets, safeEqual } from "./secrets.ts";

export type DeveloperCredential = SealedCredential;
export type ServiceAccountCredential = SealedCredential & ServiceAccountState;
export type PlayerCredential = SealedCredential & { teamId: number };
export type OperatorCredential = { id: number; version: number };

export interface CredentialStore {
  /** The kind of a well-formed key of this environment; throws WrongEnvironment for another environment's key. */
  kindOf(value: string): KeyKind | null;
  developer(key: string): Promise<DeveloperCredential | null>;
  serviceAccount(key: string): Promise<ServiceAccountCredential | null>;
  player(federatedId: string): Promise<PlayerCredential | null>;
  operator(key: string): Promise<OperatorCredential | null>;
}

/** A credential store over the features' lookups, comparing against ciphertext decrypted with `secrets`. */
export function createCredentialStore(lookups: AuthLookups, secrets: Secrets, env: string): CredentialStore {
  const kindOf = (value: string): KeyKind | null => {
    const parsed = parseKey(value);
    if (!parsed) return null;
    if (parsed.env !== env) throw new WrongEnvironment(parsed.env, env);
    return parsed.kind;
  };
  // The same three steps for every kind: well-formed key of the right kind, row by keyed hash, constant-time compare.
  const find = async <T extends SealedCredential>(kind: KeyKind, presented: string, byHash: (hash: string) => Promise<T | null>): Promise<T | null> => {
    if (kindOf(presented) !== kind) return null;
    const row = await byHash(secrets.lookupHash(presented));
    if (!row) return null;
    const stored = secrets.decrypt(row.sealed);
    return stored !== null && safeEqual(stored, presented) ? row : null;
  };
  return {
    kindOf,
    developer: (key) => find("dk", key, (hash) => lookups.developers.byKeyHash(hash)),
    serviceAccount: (key) => find("sk", key, (hash) => lookups.serviceAccounts.byKeyHash(hash)),
    player: (federatedId) => find("fid", federatedId, (hash) => lookups.players.byFederatedHash(hash)),
    // Found by keyed hash alone: HMAC-SHA256 under a server-only key cannot collide by accident, and no
    // ciphertext is kept to compare against (see operator/repo.ts).
    operator: async (key) => (kindOf(key) === "op" ? lookups.operators.byKeyHash(secrets.lookupHash(key)) : null),
  };
}
