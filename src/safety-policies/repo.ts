/**
 * Every query about team safety policies, as one async interface with a SQLite (repo-sqlite.ts) and a
 * PostgreSQL (repo-pg.ts) implementation; test/db/contract/safety-policies.test.ts holds both to it. Every one
 * is scoped by team: another team's policies are never read.
 */
import type { SafetyPolicyRow } from "../db/schema.ts";

export interface SafetyPolicyRepo {
  /** The team's policy called `name`, or null (every set_configuration that names a team policy). */
  find(teamId: number, name: string): Promise<SafetyPolicyRow | null>;
  /** Every policy of the team, by name. */
  list(teamId: number): Promise<SafetyPolicyRow[]>;
  /** The names of the team's policies (for error messages), without reading the bodies. */
  names(teamId: number): Promise<string[]>;
  /** How many policies the team has. */
  count(teamId: number): Promise<number>;
  /** Inserts a policy; the unique (team, name) index refuses a duplicate. */
  insert(teamId: number, name: string, body: string): Promise<SafetyPolicyRow>;
  /** Replaces a policy's body, bumps its version and its update time; null when the team has no policy by that name. */
  replace(teamId: number, name: string, body: string): Promise<SafetyPolicyRow | null>;
  /** Deletes the team's policy; false when there was none. */
  delete(teamId: number, name: string): Promise<boolean>;
}
