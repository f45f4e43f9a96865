/**
 * The one list of repositories, per backend: the only place that names every feature's repository (src/db is
 * generic and names none). The SQLite list is here; the PostgreSQL one is in repositories-pg.ts, loaded only when
 * the deployment runs on PostgreSQL.
 */

import { sqliteAuditRepo } from "../audit/repo-sqlite.ts";
import { sqliteStoredConfigRepo } from "../configs/repo-sqlite.ts";
import { sqliteConsoleRepo } from "../console/repo-sqlite.ts";
import { sqliteConversationRepo } from "../conversations/repo-sqlite.ts";
import type { Db } from "../db/client.ts";
import { type ConnectOptions, connectDatabaseWith, type DatabaseSettings, type RepositoryList } from "../db/database.ts";
import { sqliteMetaRepo } from "../db/meta.ts";
import type { SynchronousRepositories } from "../db/store.ts";
import { sqliteIncidentRepo } from "../incidents/repo-sqlite.ts";
import { sqliteInvitationRepo } from "../invitations/repo-sqlite.ts";
import { sqliteOperatorKeyRepo } from "../operator/repo-sqlite.ts";
import { sqlitePlayerRepo } from "../players/repo-sqlite.ts";
import { sqliteSafetyPolicyRepo } from "../safety-policies/repo-sqlite.ts";
import { sqliteServiceAccountRepo } from "../service-accounts/repo-sqlite.ts";
import { sqliteTeamRepo } from "../teams/repo-sqlite.ts";
import { sqliteUserRepo } from "../users/repo-sqlite.ts";
import type { Database, Repositories } from "./store.ts";

export { type ConnectOptions, type DatabaseSettings, DatabaseUnreachable } from "../db/database.ts";
export type { Database, Repositories, Store } from "./store.ts";

/** The synchronous repositories over one SQLite handle. */
export function sqliteRepositories(db: Db): SynchronousRepositories<Repositories> {
  return {
    users: sqliteUserRepo(db),
    teams: sqliteTeamRepo(db),
    players: sqlitePlayerRepo(db),
    serviceAccounts: sqliteServiceAccountRepo(db),
    operatorKeys: sqliteOperatorKeyRepo(db),
    conversations: sqliteConversationRepo(db),
    console: sqliteConsoleRepo(db),
    invitations: sqliteInvitationRepo(db),
    incidents: sqliteIncidentRepo(db),
    safetyPolicies: sqliteSafetyPolicyRepo(db),
    storedConfigs: sqliteStoredConfigRepo(db),
    audit: sqliteAuditRepo(db),
    meta: sqliteMetaRepo(db),
  };
}

/** Both lists; the PostgreSQL one is imported on first use. */
export const repositories: RepositoryList<Repositories> = {
  sqlite: sqliteRepositories,
  postgres: async () => (await import("./repositories-pg.ts")).pgRepositories,
};

/**
 * Opens (creating if needed) and migrates the configured database, with every repository.
 * @example const database = await connectDatabase(config, { busyTimeoutMs: SERVER_BUSY_TIMEOUT_MS })
 */
export function connectDatabase(config: DatabaseSettings, options: ConnectOptions = {}): Promise<Database> {
  return connectDatabaseWith(config, repositories, options);
}
