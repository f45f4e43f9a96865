/**
 * Turns a presented secret into a known credential row. Rules: the key must parse (format and checksum)
 * before any lookup; a key of another environment is refused by name; the row is found by keyed hash and
 * the stored ciphertext is decrypted and compared in constant time, so a hash collision or a tampered row
 * cannot let a wrong key in. Every function returns null on any mismatch, without saying which check failed.
 */
import { WrongEnvironment } from "../errors.ts";
import type { Db } from "../db/client.ts";
import type { Player, ServiceAccount, User } from "../db/schema.ts";
import { findUserByKeyHash } from "../users/repo.ts";
import { findServiceAccountByKeyHash } from "../service-accounts/repo.ts";
import { findPlayerByFederatedHash } from "../players/repo.ts";
import { parseKey, type KeyKind } from "./keys.ts";
import { safeEqual, type Secrets } from "./secrets.ts";

export interface CredentialStore {
  /** The kind of a well-formed key of this environment; throws WrongEnvironment for another environment's key. */
  kindOf(value: string): KeyKind | null;
  developer(key: string): User | null;
  serviceAccount(key: string): ServiceAccount | null;
  player(federatedId: string): Player | null;
}

/** A credential store over `db`, comparing against ciphertext decrypted with `secrets`. */
export function createCredentialStore(db: Db, secrets: Secrets, env: string): CredentialStore {
  const matches = (presented: string, sealed: Uint8Array) => {
    const stored = secrets.decrypt(sealed);
    return stored !== null && safeEqual(stored, presented);
  };
  const kindOf = (value: string): KeyKind | null => {
    const parsed = parseKey(value);
    if (!parsed) return null;
    if (parsed.env !== env) throw new WrongEnvironment(parsed.env, env);
    return parsed.kind;
  };
  return {
    kindOf,
    developer(key) {
      if (kindOf(key) !== "dk") return null;
      const user = findUserByKeyHash(db, secrets.lookupHash(key));
      return user && matches(key, user.apiKeyEnc) ? user : null;
    },
    serviceAccount(key) {
      if (kindOf(key) !== "sk") return null;
      const sa = findServiceAccountByKeyHash(db, secrets.lookupHash(key));
      return sa && matches(key, sa.keyEnc) ? sa : null;
    },
    player(federatedId) {
      if (kindOf(federatedId) !== "fid") return null;
      const player = findPlayerByFederatedHash(db, secrets.lookupHash(federatedId));
      return player && matches(federatedId, player.federatedIdEnc) ? player : null;
    },
  };
}
