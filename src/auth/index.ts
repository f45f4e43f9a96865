/**
 * The auth folder owns every credential mechanism and nothing about the things credentials belong to:
 * key strings (keys.ts), encryption at rest and keyed lookup hashes (secrets.ts), access tokens (tokens.ts),
 * presented secret -> credential (credentials.ts), bearer value -> Caller with revocation checked on every
 * use (caller.ts), the `auth` macro every route uses (plugin.ts), failed-login limits (rate-limit.ts), the
 * revocation bus that closes sockets (revocations.ts). POST /api/auth/login is a feature of its own (src/login/).
 * It reads developers, service accounts, players and teams only through the lookups in lookups.ts, which
 * the features implement; features import auth through this file, never the other way round.
 */

export { generateKey, type KeyKind, maskKey, parseKey } from "./keys.ts";
export type * from "./lookups.ts";
export { type AuthNeeds, authPlugin, type Caller, type CallerKind, credentialGate, developerId, type OperatorCaller, type TeamCaller } from "./plugin.ts";
