/**
 * Every query about safety incidents, as one async interface with a SQLite (repo-sqlite.ts) and a PostgreSQL
 * (repo-pg.ts) implementation; test/db/contract/incidents.test.ts holds both to it. Reads are scoped by team;
 * nothing here reads or writes any text.
 */
import type { SafetyIncident } from "../db/schema.ts";

// A type alias (not an interface), so it is assignable to bun:sqlite's binding record.
export type NewIncident = {
  teamId: number;
  playerId: number;
  sessionId: string;
  category: string;
  action: string;
  direction: "input" | "output";
  policy: string;
};

export interface IncidentRepo {
  /** Records one incident (hot path during a turn: one prepared statement). */
  insert(incident: NewIncident): Promise<void>;
  /** Up to `limit` incidents of a team, newest first, below id `before` (0: from the newest), optionally of one player. */
  list(teamId: number, options: { before: number; limit: number; playerId?: number }): Promise<SafetyIncident[]>;
  /** Deletes every incident of a player (player deletion). */
  deleteOfPlayer(playerId: number): Promise<void>;
  /** Adds `count` to the `repeats` of the player's latest incident (incidents past the per-minute cap). */
  addRepeats(playerId: number, count: number): Promise<void>;
  /** Deletes incidents recorded before `before` (ms, the retention purge); returns how many. */
  deleteBefore(before: number): Promise<number>;
}
