/**
 * What auth needs to know about the credentials features own, as narrow read-only interfaces. Auth depends
 * on these and never on a feature's repo; each feature implements its part over its repository
 * (`users/repo.ts`, `service-accounts/repo.ts`, `players/repo.ts`, `teams/repo.ts`, `operator/repo.ts`) and
 * deps.ts hands them in. So auth can be tested with fakes, and features may import auth without a cycle.
 * Every lookup is async (one query, so one round trip on PostgreSQL); the token checks that run on every
 * request each answer in one query (a developer's key version together with their membership of the team).
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
  byKeyHash(hash: string): Promise<SealedCredential | null>;
  /** The key version and whether the developer is in `teamId`; null when the developer is gone (every developer token check). */
  tokenState(id: number, teamId: number): Promise<{ keyVersion: number; member: boolean } | null>;
}

export interface ServiceAccountState {
  version: number;
  teamId: number;
  playerCreate: boolean;
}

/** Service accounts and their keys. */
export interface ServiceAccountLookup {
  byKeyHash(hash: string): Promise<(SealedCredential & ServiceAccountState) | null>;
  /** Null when the account is gone (every service token check). */
  state(id: number): Promise<ServiceAccountState | null>;
}

/** Players and their federated ids. */
export interface PlayerLookup {
  byFederatedHash(hash: string): Promise<(SealedCredential & { teamId: number }) | null>;
  /**
   * The player's version and team, with the team of the service account that logged them in (null when that
   * account is gone); null when the player is gone (every player token check).
   */
  tokenState(id: number, serviceAccountId: number): Promise<{ version: number; teamId: number; serviceAccountTeamId: number | null } | null>;
}

/** Teams and membership. */
export interface TeamLookup {
  teamsOf(userId: number): Promise<{ id: number; name: string }[]>;
  byName(name: string): Promise<{ id: number } | null>;
  isMember(userId: number, teamId: number): Promise<boolean>;
}

/** Operator keys: only a keyed hash is stored (the key is never shown again), so there is nothing to decrypt. */
export interface OperatorLookup {
  byKeyHash(hash: string): Promise<{ id: number; version: number } | null>;
  /** Null when the key was deleted (every operator token check). */
  version(id: number): Promise<number | null>;
}

export interface AuthLookups {
  developers: DeveloperLookup;
  serviceAccounts: ServiceAccountLookup;
  players: PlayerLookup;
  teams: TeamLookup;
  operators: OperatorLookup;
}
