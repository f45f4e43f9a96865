/**
 * The store over PostgreSQL. Outside a transaction every repository call borrows a pooled connection for one
 * statement; `transaction(work)` holds one connection from BEGIN to COMMIT (Bun.SQL's `begin`) and hands
 * `work` a store whose repositories run on it; a nested `transaction` is a savepoint on that connection.
 * Transactions run at READ COMMITTED, PostgreSQL's default: the services that check-then-insert rely on the
 * unique indexes (a duplicate is a 409, never a second row), and deleting a team locks its row first.
 */
import type { SQL } from "bun";
import { pgDb, type PgDb } from "./client.ts";
import { runCallbacks, type Repositories, type Store } from "../store.ts";
import { pgUserRepo } from "../../users/repo-pg.ts";
import { pgTeamRepo } from "../../teams/repo-pg.ts";
import { pgPlayerRepo } from "../../players/repo-pg.ts";
import { pgServiceAccountRepo } from "../../service-accounts/repo-pg.ts";
import { pgOperatorKeyRepo } from "../../operator/repo-pg.ts";
import { pgConversationRepo } from "../../conversations/repo-pg.ts";
import { pgConsoleRepo } from "../../console/repo-pg.ts";
import { pgInvitationRepo } from "../../invitations/repo-pg.ts";
import { pgIncidentRepo } from "../../incidents/repo-pg.ts";
import { pgSafetyPolicyRepo } from "../../safety-policies/repo-pg.ts";
import { pgStoredConfigRepo } from "../../configs/repo-pg.ts";
import { pgMetaRepo } from "./meta.ts";

export interface PgStoreOptions {
  /** Told about an afterCommit callback that threw (it never undoes the commit). */
  onCallbackError?: (error: unknown) => void;
}

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
    meta: pgMetaRepo(db),
  };
}

/** The store over a pool. */
export function createPgStore(pool: SQL, options: PgStoreOptions = {}): Store {
  return {
    ...pgRepositories(pgDb(pool)),
    async transaction<T>(work: (tx: Store) => Promise<T>): Promise<T> {
      const committed: (() => void)[] = [];
      const result = (await pool.begin((client) => work(transactionStore(client, committed)))) as T;
      const error = runCallbacks(committed);
      if (error !== null) options.onCallbackError?.(error);
      return result;
    },
    afterCommit: (fn) => fn(),
  };
}

// A store on one transaction's (or savepoint's) connection; callbacks wait in `queue` for the outer commit.
function transactionStore(client: SQL, queue: (() => void)[]): Store {
  return {
    ...pgRepositories(pgDb(client)),
    async transaction<T>(work: (tx: Store) => Promise<T>): Promise<T> {
      const queued = queue.length;
      try {
        return (await (client as SQL & { savepoint(fn: (sp: SQL) => Promise<T>): Promise<T> }).savepoint((sp) => work(transactionStore(sp, queue)))) as T;
      } catch (error) {
        queue.length = queued;
        throw error;
      }
    },
    afterCommit: (fn) => void queue.push(fn),
  };
}
