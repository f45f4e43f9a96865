/**
 * The app's repositories, store and database types: the list of every feature's repository interface (their
 * SQLite and PostgreSQL implementations are listed in repositories.ts and repositories-pg.ts).
 */

import type { AuditRepo } from "../audit/repo.ts";
import type { StoredConfigRepo } from "../configs/repo.ts";
import type { ConsoleRepo } from "../console/repo.ts";
import type { ConversationRepo } from "../conversations/repo.ts";
import type { Database as GenericDatabase } from "../db/database.ts";
import type { MetaRepo } from "../db/meta.ts";
import type { Store as GenericStore } from "../db/store.ts";
import type { IncidentRepo } from "../incidents/repo.ts";
import type { InvitationRepo } from "../invitations/repo.ts";
import type { OperatorKeyRepo } from "../operator/repo.ts";
import type { PlayerRepo } from "../players/repo.ts";
import type { SafetyPolicyRepo } from "../safety-policies/repo.ts";
import type { ServiceAccountRepo } from "../service-accounts/repo.ts";
import type { TeamRepo } from "../teams/repo.ts";
import type { UserRepo } from "../users/repo.ts";

/** Every repository of the app. */
export interface Repositories {
  users: UserRepo;
  teams: TeamRepo;
  players: PlayerRepo;
  serviceAccounts: ServiceAccountRepo;
  operatorKeys: OperatorKeyRepo;
  conversations: ConversationRepo;
  console: ConsoleRepo;
  invitations: InvitationRepo;
  incidents: IncidentRepo;
  safetyPolicies: SafetyPolicyRepo;
  storedConfigs: StoredConfigRepo;
  audit: AuditRepo;
  meta: MetaRepo;
}

/** The app's store: every repository, and transactions over them. */
export type Store = GenericStore<Repositories>;
/** The app's database. */
export type Database = GenericDatabase<Repositories>;
