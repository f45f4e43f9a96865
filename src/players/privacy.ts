/**
 * A parent's requests about their child (PROTOCOL.md section 8), answered through the team's backend:
 * consent, access to everything hoot holds about a player, and erasure of the conversation that keeps the
 * player. Rules it keeps:
 * - everything is scoped to the caller's team: another team's player is simply not found (404);
 * - each call writes its audit row (src/audit) in the same transaction as its change, and never any content;
 * - consent changes nothing stored by itself: revoking it erases nothing (erasure is its own call), and an
 *   open socket follows the new state from its next turn (the session asks at every turn);
 * - erasure deletes the rows and then scrubs the freed pages, as deleting a player does (SQLite: secure_delete
 *   and a WAL checkpoint; PostgreSQL: VACUUM is the operator's, see docs/privacy.md);
 * - an edit of several fields is one transaction: a refused part leaves every other part unchanged;
 * - the export is written as it is read, a batch of rows at a time, so its memory stays bounded whatever the
 *   size of the history; its audit row is written before any of the words leave.
 */

import { type AuditContext, audit } from "../audit/service.ts";
import type { Config } from "../config.ts";
import type { TextCipher } from "../conversations/cipher.ts";
import type { StoredRow } from "../conversations/repo.ts";
import { loadHistory } from "../conversations/service.ts";
import { retryWhileBusy } from "../db/busy.ts";
import { rootCause } from "../db/errors.ts";
import type { Player } from "../db/schema.ts";
import { Forbidden, NotFound } from "../errors.ts";
import { showIncident } from "../incidents/service.ts";
import type { PlayerBody, PlayerExport } from "./model.ts";
import type { Consent } from "./repo.ts";
import { editPlayer, getPlayer, type PlayerNeeds } from "./service.ts";

/** Reading a player's data also needs the conversation cipher and the memory budget. */
export type PlayerDataNeeds = PlayerNeeds & {
  textCipher: TextCipher;
  config: Pick<Config, "historyBudgetChars">;
};

/** Rows read (and decrypted) at a time while an export is written: what bounds its memory. */
export const EXPORT_BATCH = 500;

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
 * service account: the app's backend heard from the parent), all or nothing; the player as it is afterwards.
 */
export async function updatePlayer(
  deps: PlayerNeeds,
  teamId: number,
  id: number,
  changes: { external_id?: string; consent?: Consent },
  context: AuditContext,
): Promise<PlayerBody> {
  if (changes.external_id !== undefined && context.actor.kind !== "developer") throw new Forbidden("Only a developer token may change a player's external_id.");
  await deps.store.transaction(async (tx) => {
    const inTx = { ...deps, store: tx };
    // One transaction: an external id already taken (409) also leaves the consent, and its audit row, unwritten.
    if (changes.consent !== undefined) await setConsent(inTx, teamId, id, changes.consent, context);
    if (changes.external_id !== undefined) await editPlayer(inTx, teamId, id, changes.external_id);
  });
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

/**
 * Everything hoot holds about the team's player, decrypted, as one JSON document (PlayerExport) in UTF-8 bytes,
 * audited as `player.export`; 404 when not in the team. The 404 and the audit row come before the stream: once it
 * is handed over, the history and the incidents are read a batch at a time as the reader takes them. A failure
 * half-way ends the stream with an error (the reader sees a cut document, never a complete-looking one).
 * @example new Response(await exportPlayer(deps, teamId, pk, context), { headers: { "content-type": "application/json" } })
 */
export async function exportPlayer(deps: PlayerDataNeeds, teamId: number, id: number, context: AuditContext): Promise<ReadableStream<Uint8Array>> {
  const player = await deps.store.players.findInTeam(teamId, id);
  if (!player) throw new NotFound("player");
  // Exactly what the next turn loads for the model (the same function, the same budget and row cap).
  const memory = (await loadHistory(deps, id, deps.config.historyBudgetChars)).map((m) => ({ role: m.role, text: m.text }));
  // The export hands over the words: it is answered only once its row is written (waiting while the database is busy).
  await retryWhileBusy(() => audit(deps, teamId, context, "player.export", id), deps.config.dbLockTimeoutMs);
  const head: Pick<PlayerExport, "exported_at" | "player" | "consent"> = {
    exported_at: new Date().toISOString(),
    player: { pk: player.id, external_id: player.externalId, created_at: new Date(player.createdAt).toISOString() },
    consent: { consent: player.consent, updated_at: player.consentUpdatedAt === null ? null : new Date(player.consentUpdatedAt).toISOString() },
  };
  return streamOf(exportDocument(deps, teamId, id, head, memory), (error) => {
    // The driver's message, never drizzle's wrapper (which repeats the query's parameters).
    const cause = rootCause(error);
    deps.logger.error(
      { event: "player_export_failed", team: teamId, player: id, err: cause instanceof Error ? cause.message : String(cause) },
      "a player's export stopped half-way",
    );
  });
}

// The document's text in pieces, its fields in PlayerExport's order; the two lists of unbounded length are read
// by cursor, EXPORT_BATCH rows at a time, so at most one batch is held whatever their size.
async function* exportDocument(
  deps: PlayerDataNeeds,
  teamId: number,
  id: number,
  head: Pick<PlayerExport, "exported_at" | "player" | "consent">,
  memory: PlayerExport["memory"],
): AsyncGenerator<string> {
  yield `${JSON.stringify(head).slice(0, -1)},"history":[`;
  let comma = "";
  for (let after = 0; ; ) {
    const rows = await deps.store.conversations.ofPlayer(id, after, EXPORT_BATCH);
    if (rows.length > 0) yield comma + rows.map((row) => JSON.stringify(exportMessage(deps, id, row))).join(",");
    comma = ",";
    if (rows.length < EXPORT_BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  yield `],"memory":${JSON.stringify(memory)},"incidents":[`;
  comma = "";
  for (let before = 0; ; ) {
    const page = await deps.store.incidents.list(teamId, { before, limit: EXPORT_BATCH, playerId: id });
    if (page.length > 0) yield comma + page.map((incident) => JSON.stringify(showIncident(incident))).join(",");
    comma = ",";
    if (page.length < EXPORT_BATCH) break;
    before = page[page.length - 1]!.id;
  }
  yield "]}";
}

function exportMessage(deps: PlayerDataNeeds, playerId: number, row: StoredRow & { createdAt: number }): PlayerExport["history"][number] {
  const text = row.sealed ? deps.textCipher.open(row.sealed, playerId, row.role) : row.text;
  return { role: row.role, text: text ?? null, at: new Date(row.createdAt).toISOString() };
}

// A byte stream over the pieces, pulled one piece at a time as the reader takes them; a reader who goes away
// stops the reading of the database.
function streamOf(pieces: AsyncGenerator<string>, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await pieces.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          onError(error);
          // Not the error itself: the server may print a body's error, and a query's error repeats its parameters.
          controller.error(new Error("the export stopped half-way (see the log's player_export_failed)"));
        }
      },
      async cancel() {
        await pieces.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
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
