/**
 * Every dependency of the app, built once by server.ts (or cli/admin.ts) and passed to createApp. No feature
 * imports this: each declares the narrow part it needs (`PlayerNeeds`, `AuthNeeds`, ...) and this bag satisfies
 * them all by its shape. Nothing reads the environment or globals. This is also where features hand auth the
 * narrow lookups it needs (auth/lookups.ts), so auth never imports a feature.
 *
 * `store` holds every repository (store.ts, repositories.ts); a service that needs a transaction runs
 * `deps.store.transaction(tx => …)` and hands `{ ...deps, store: tx }` to whatever it calls inside.
 * `database` is the rest of the database's surface (readiness, the SQLite write lock, WAL scrubbing, close).
 *
 * Several nodes (PostgreSQL): `cluster` (src/cluster) holds what the nodes share beyond the tables, and its
 * parts replace the in-process ones here and nowhere else: `revocations` (pg_notify/LISTEN instead of
 * auth/revocations.ts's in-process bus) and `loginLimiter` (counters on the primary instead of memory); the
 * socket leases and the once-per-cluster jobs are used by interact/connections.ts and server.ts. server.ts
 * starts and stops it. On SQLite `cluster` is null.
 */

import { type CallerResolver, createCallerResolver } from "../auth/caller.ts";
import { type CredentialStore, createCredentialStore } from "../auth/credentials.ts";
import type { AuthLookups } from "../auth/lookups.ts";
import { createFailureLimiter, type LoginLimiter } from "../auth/rate-limit.ts";
import { createRevocationBus, type RevocationBus } from "../auth/revocations.ts";
import { createSecrets, type Secrets } from "../auth/secrets.ts";
import { createTokenService, type TokenService } from "../auth/tokens.ts";
import { type Cluster, createCluster } from "../cluster/index.ts";
import type { Config } from "../config.ts";
import { createTextCipher, type TextCipher } from "../conversations/cipher.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import { operatorLookup } from "../operator/repo.ts";
import { playerLookup } from "../players/repo.ts";
import { serviceAccountLookup } from "../service-accounts/repo.ts";
import { teamLookup } from "../teams/repo.ts";
import { developerLookup } from "../users/repo.ts";
import type { Database, Store } from "./repositories.ts";

export interface Deps {
  config: Config;
  /** Every repository, and transactions over them. */
  store: Store;
  /** The database behind the store: readiness, waiting for SQLite's write lock, scrubbing, closing. */
  database: Database;
  logger: Logger;
  metrics: Metrics;
  secrets: Secrets;
  /** Encryption at rest of conversation text (src/conversations/cipher.ts). */
  textCipher: TextCipher;
  /** Read-only credential and membership lookups that features provide to auth. */
  lookups: AuthLookups;
  tokens: TokenService;
  credentials: CredentialStore;
  callers: CallerResolver;
  loginLimiter: LoginLimiter;
  revocations: RevocationBus;
  /** What the nodes share on PostgreSQL (started by server.ts); null on SQLite. */
  cluster: Cluster | null;
}

/** Wires the auth services over an open database and the master secret. */
export function buildDeps(parts: { config: Config; database: Database; logger: Logger; metrics: Metrics; masterKey: Uint8Array }): Deps {
  const { config, database, masterKey, ...rest } = parts;
  const store = database.store;
  const secrets = createSecrets(masterKey);
  const tokens = createTokenService(secrets.tokenKey, config.tokenTtlSeconds, config.clockToleranceSeconds);
  const lookups: AuthLookups = {
    developers: developerLookup(store.users),
    serviceAccounts: serviceAccountLookup(store.serviceAccounts),
    players: playerLookup(store.players),
    teams: teamLookup(store.teams),
    operators: operatorLookup(store.operatorKeys),
  };
  const credentials = createCredentialStore(lookups, secrets, config.env);
  const cluster = database.raw.kind === "postgres" ? createCluster(database.raw.pool, rest.logger, config) : null;
  return {
    ...rest,
    config,
    store,
    database,
    secrets,
    textCipher: createTextCipher(masterKey),
    lookups,
    tokens,
    credentials,
    callers: createCallerResolver(lookups, tokens, credentials),
    loginLimiter: cluster?.loginLimiter ?? createFailureLimiter(config.loginFailuresPerMinute),
    revocations: cluster?.revocations ?? createRevocationBus(),
    cluster,
  };
}
