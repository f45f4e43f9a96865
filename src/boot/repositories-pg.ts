/** The PostgreSQL list of repositories (see repositories.ts), loaded only when the deployment runs on PostgreSQL. */

import { pgAuditRepo } from "../audit/repo-pg.ts";
import { pgStoredConfigRepo } from "../configs/repo-pg.ts";
import { pgConsoleRepo } from "../console/repo-pg.ts";
import { pgConversationRepo } from "../conversations/repo-pg.ts";
import type { PgDb } from "../db/pg/client.ts";
import { pgMetaRepo } from "../db/pg/meta.ts";
import { pgIncidentRepo } from "../incidents/repo-pg.ts";
import { pgInvitationRepo } from "../invitations/repo-pg.ts";
import { pgOperatorKeyRepo } from "../operator/repo-pg.ts";
import { pgPlayerRepo } from "../players/repo-pg.ts";
import { pgSafetyPolicyRepo } from "../safety-policies/repo-pg.ts";
import { pgServiceAccountRepo } from "../service-accounts/repo-pg.ts";
import { pgTeamRepo } from "../teams/repo-pg.ts";
import { pgUserRepo } from "../users/repo-pg.ts";
import type { Repositories } from "./store.ts";

/** The repositories over one drizzle handle (the pool, or one transaction's connection). */
export function pgRepositories(db: PgDb): Repositories {
  return {
    users: pgUserRepo(db),
    teams: pgTeamRepo(db),
    players: pgPlayerRepo(db),
    serviceAccounts: pgServiceAccountRepo(db),
    operatorKeys: pgOperatorKeyRepo(db),
    conversations: pgConversationRepo(db),
    console: pgConsoleRepo(db),
    invitations: pgInvitationRepo(db),
    incidents: pgIncidentRepo(db),
    safetyPolicies: pgSafetyPolicyRepo(db),
    storedConfigs: pgStoredConfigRepo(db),
    audit: pgAuditRepo(db),
    meta: pgMetaRepo(db),
  };
}
