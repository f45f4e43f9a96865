/**
 * The dependencies every feature receives, built once by server.ts (or cli/admin.ts) and passed to createApp.
 * Services take what they need from here explicitly; nothing reads the environment or globals. This is also
 * where features hand auth the narrow lookups it needs (auth/lookups.ts), so auth never imports a feature.
 */
import type { Database } from "bun:sqlite";
import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import type { Logger } from "./log.ts";
import type { Metrics } from "./metrics.ts";
import { createSecrets, type Secrets } from "./auth/secrets.ts";
import { createTokenService, type TokenService } from "./auth/tokens.ts";
import { createCredentialStore, type CredentialStore } from "./auth/credentials.ts";
import { createCallerResolver, type CallerResolver } from "./auth/caller.ts";
import { createFailureLimiter, type FailureLimiter } from "./auth/rate-limit.ts";
import { createRevocationBus, type RevocationBus } from "./auth/revocations.ts";
import type { AuthLookups } from "./auth/lookups.ts";
import { developerLookup } from "./users/repo.ts";
import { serviceAccountLookup } from "./service-accounts/repo.ts";
import { playerLookup } from "./players/repo.ts";
import { teamLookup } from "./teams/repo.ts";
import { operatorLookup } from "./operator/repo.ts";

export interface Deps {
  config: Config;
  db: Db;
  sqlite: Database;
  logger: Logger;
  metrics: Metrics;
  secrets: Secrets;
  /** Read-only credential and membership lookups that features provide to auth. */
  lookups: AuthLookups;
  tokens: TokenService;
  credentials: CredentialStore;
  callers: CallerResolver;
  loginLimiter: FailureLimiter;
  revocations: RevocationBus;
}

/** Wires the auth services over an open database and the master secret. */
export function buildDeps(parts: { config: Config; db: Db; sqlite: Database; logger: Logger; metrics: Metrics; masterKey: Uint8Array }): Deps {
  const { config, db } = parts;
  const secrets = createSecrets(parts.masterKey);
  const tokens = createTokenService(secrets.tokenKey, config.tokenTtlSeconds, config.clockToleranceSeconds);
  const lookups: AuthLookups = {
    developers: developerLookup(db),
    serviceAccounts: serviceAccountLookup(db),
    players: playerLookup(db),
    teams: teamLookup(db),
    operators: operatorLookup(db),
  };
  const credentials = createCredentialStore(lookups, secrets, config.env);
  return {
    ...parts,
    secrets,
    lookups,
    tokens,
    credentials,
    callers: createCallerResolver(lookups, tokens, credentials),
    loginLimiter: createFailureLimiter(config.loginFailuresPerMinute),
    revocations: createRevocationBus(),
  };
}
