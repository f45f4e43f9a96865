/**
 * A parent's requests about their child (PROTOCOL.md section 8), answered through the team's backend:
 * consent, access to everything hoot holds about a player, and erasure of the conversation that keeps the
 * player. Rules it keeps:
 * - everything is scoped to the caller's team: another team's player is simply not found (404);
 * - each call writes its audit row (src/audit) in the same transaction as its change, and never any content;
 * - consent changes nothing stored by itself: revoking it erases nothing (erasure is its own call), and an
 *   open socket follows the new state from its next turn (the session asks at every turn);
 * - erasure deletes the rows and then scrubs the freed pages, as deleting a player does (SQLite: secure_delete
 *   and a WAL checkpoint; PostgreSQL: VACUUM is the operator's, see docs/privacy.md).
 */

import { type AuditContext, audit } from "../audit/service.ts";
import type { Config } from "../config.ts";
import { retryWhileBusy } from "../db/busy.ts";
import type { Player } from "../db/schema.ts";
import { Forbidden, NotFound } from "../errors.ts";
import type { IncidentBody } from "../incidents/model.ts";
import { showIncident } from "../incidents/service.ts";
import type { PlayerBody, PlayerExport } from "./model.ts";
import type { Consent } from "./repo.ts";
import { editPlayer, getPlayer, type PlayerNeeds } from "./service.ts";

/** Reading a player's data also needs the conversation cipher and the memory budget. */
export type PlayerDataNeeds = PlayerNeeds & {
  textCipher: { open(sealed: Uint8Array, playerId: number, role: string): string | null };
  config: Pick<Config, "historyBudgetChars">;
};

/**
 * Whether the player's conversation may be stored: "lite" on a team that requires consent for a player
 * without it (and for a player who is gone: nothing is written for them), else "full". Asked at every turn.
 */
export async function dataMode(deps: { store: Pick<PlayerNeeds["store"], "players"> }, playerId: number): Promise<"full" | "lite"> {
  const state = await deps.store.players.consentState(playerId);
  return state && (!state.requireConsent || state.consent === "granted") ? "full" : "lite";
}

/**
 * PATCH /api/players/{pk}: a new external id (a developer only) and/or consent (a developer, or a playerCreate
 * service account: the app's backend heard from the parent); the player as it is afterwards.
 */
export async function updatePlayer(
  deps: PlayerNeeds,
  teamId: number,
  id: number,
  changes: { external_id?: string; consent?: Consent },
  context: AuditContext,
): Promise<PlayerBody> {
  if (changes.external_id !== undefined && context.actor.kind !== "developer") throw new Forbidden("Only a developer token may change a player's external_id.");
  if (changes.external_id !== undefined) await editPlayer(deps, teamId, id, changes.external_id);
  if (changes.consent !== undefined) await setConsent(deps, teamId, id, changes.consent, context);
  return getPlayer(deps, teamId, id);
}

/** Sets the team's player's consent (and when it changed) with its audit row; 404 when not in the team. */
export async function setConsent(deps: PlayerNeeds, teamId: number, id: number, consent: Consent, context: AuditContext): Promise<Player> {
  return deps.store.transaction(async (tx) => {
    const current = await tx.players.findInTeam(teamId, id);
    if (!current) throw new NotFound("player");
    // Setting the same value again keeps the time it was given.
    const player = current.consent === consent ? current : ((await tx.players.setConsent(teamId, id, consent, Date.now())) ?? current);
    await audit({ store: tx }, teamId, context, "player.consent", id);
    return player;
  });
}

/** Everything hoot holds about the team's player, decrypted, as one document (audited as `player.export`); 404 when not in the team. */
export async function exportPlayer(deps: PlayerDataNeeds, teamId: number, id: number, context: AuditContext): Promise<PlayerExport> {
  const player = await deps.store.players.findInTeam(teamId, id);
  if (!player) throw new NotFound("player");
  const rows = await deps.store.conversations.ofPlayer(id);
  const history = rows.map((row) => {
    const text = row.sealed ? deps.textCipher.open(row.sealed, id, row.role) : row.text;
    return { role: row.role, text: text ?? null, at: new Date(row.createdAt).toISOString() };
  });
  const incidents: IncidentBody[] = [];
  for (let before = 0; ; ) {
    const page = await deps.store.incidents.list(teamId, { before, limit: 1000, playerId: id });
    incidents.push(...page.map(showIncident));
    if (page.length < 1000) break;
    before = page[page.length - 1]!.id;
  }
  // The export hands over the words: it is answered only once its row is written (waiting while the database is busy).
  await retryWhileBusy(() => audit(deps, teamId, context, "player.export", id), deps.config.dbLockTimeoutMs);
  return {
    exported_at: new Date().toISOString(),
    player: { pk: player.id, external_id: player.externalId, created_at: new Date(player.createdAt).toISOString() },
    consent: { consent: player.consent, updated_at: player.consentUpdatedAt === null ? null : new Date(player.consentUpdatedAt).toISOString() },
    history,
    memory: memoryOf(history, deps.config.historyBudgetChars),
    incidents,
  };
}

/** Erases the team's player's conversation history (their memory) and keeps the player; 404 when not in the team. */
export async function eraseHistory(deps: PlayerNeeds, teamId: number, id: number, context: AuditContext): Promise<void> {
  await deps.store.transaction(async (tx) => {
    if (!(await tx.players.findInTeam(teamId, id))) throw new NotFound("player");
    await tx.conversations.deleteOfPlayer(id);
    await audit({ store: tx }, teamId, context, "player.history_erase", id);
    // The erased words must leave the files too, not just the table.
    tx.afterCommit(() => deps.database.scrubDeletedData());
  });
}

// What the model is given of this player at the next turn: the newest messages that fit the budget, oldest first.
function memoryOf(history: { role: string; text: string | null; at: string }[], budgetChars: number) {
  const out: { role: string; text: string }[] = [];
  let used = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i]!;
    if (message.text === null) continue;
    used += message.text.length;
    if (used > budgetChars) break;
    out.push({ role: message.role, text: message.text });
  }
  return out.reverse();
}
