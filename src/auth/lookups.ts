/**
 * What auth needs to know about the credentials features own, as narrow read-only interfaces. Auth depends
 * on these and never on a feature's repo; each feature implements its part next to its queries
 * (`users/repo.ts`, `service-accounts/repo.ts`, `players/repo.ts`, `teams/repo.ts`, `operator/repo.ts`) and
 * deps.ts hands them in. So auth can be tested with fakes, and features may import auth without a cycle.
 *
 * `sealed` is the AES-GCM ciphertext of the credential, decrypted and compared in constant time after the
 * keyed-hash lookup; `version` is stamped into every token the credential mints.
 */

/** A credential row found by its lookup hash. */
export interface SealedCredential {
  id: number;
  version: number;
  sealed: Uint8Array;
}

/** Developers (users) and their keys. */
export interface DeveloperLookup {
  byKeyHash(hash: string): SealedCredential | null;
  /** The current key version, or null when the developer is gone (every developer token check). */
  keyVersion(id: number): number | null;
}

export interface ServiceAccountState {
  version: number;
  teamId: number;
  playerCreate: boolean;
}

/** Service accounts and their keys. */
export interface ServiceAccountLookup {
  byKeyHash(hash: string): (SealedCredential & ServiceAccountState) | null;
  /** Null when the account is gone (every service and player token check). */
  state(id: number): ServiceAccountState | null;
}

/** Players and their federated ids. */
export interface PlayerLookup {
  byFederatedHash(hash: string): (SealedCredential & { teamId: number }) | null;
  /** Null when the player is gone (every player token check). */
  state(id: number): { version: number; teamId: number } | null;
}

/** Teams and membership. */
export interface TeamLookup {
  teamsOf(userId: number): { id: number; name: string }[];
  byName(name: string): { id: number } | null;
  isMember(userId: number, teamId: number): boolean;
}

/** Operator keys: only a keyed hash is stored (the key is never shown again), so there is nothing to decrypt. */
export interface OperatorLookup {
  byKeyHash(hash: string): { id: number; version: number } | null;
  /** Null when the key was deleted (every operator token check). */
  version(id: number): number | null;
}

export interface AuthLookups {
  developers: DeveloperLookup;
  serviceAccounts: ServiceAccountLookup;
  players: PlayerLookup;
  teams: TeamLookup;
  operators: OperatorLookup;
}
