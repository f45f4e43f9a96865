/**
 * The group commit of reads' audit rows (src/audit/batch.ts) over the real audit repository of each backend:
 * concurrent rows go in one transaction, each caller learns its row committed only once it is listed, a row
 * queued during a flush goes in the next, the queue is bounded, and a failed batch writes none of its rows.
 */
import { expect, it } from "bun:test";
import { AUDIT_QUEUE_ROWS, createGroupCommit } from "../../../src/audit/batch.ts";
import type { NewAuditRow } from "../../../src/audit/repo.ts";
import { auditRead } from "../../../src/audit/service.ts";
import { contract, player, teamWithDeveloper, unique } from "./harness.ts";

contract("audit group commit", ({ store }) => {
  const row = (teamId: number, playerId: number): NewAuditRow => ({
    teamId,
    actorKind: "developer",
    actorPk: 3,
    action: "player.read",
    playerId,
    requestId: unique("req"),
  });
  const listed = async (teamId: number) => (await store().audit.list(teamId, { before: 0, limit: 1000 })).map((r) => r.requestId).sort();
  // The real repository, with its transactions counted.
  const counted = () => {
    const batches: number[] = [];
    const repo = { insertMany: (rows: NewAuditRow[]) => (batches.push(rows.length), store().audit.insertMany(rows)) };
    return { repo, batches };
  };
  const options = { lockDeadlineMs: 1000, notWritten: () => {} };

  it("writes the rows of concurrent callers in one transaction, each caller answered once its row is listed", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    const { repo, batches } = counted();
    const group = createGroupCommit(repo, options);
    const rows = Array.from({ length: 40 }, () => row(teamId, kid.id));
    const seen: (string | null)[][] = [];
    const outcomes = await Promise.all(
      rows.map(async (r) => {
        const outcome = await group.write(r)!;
        seen.push(await listed(teamId));
        return outcome;
      }),
    );
    expect(outcomes.every((o) => o.kind === "written")).toBe(true);
    expect(batches).toEqual([40]);
    const all = rows.map((r) => r.requestId).sort();
    expect(await listed(teamId)).toEqual(all);
    // Whichever caller resumed first already found every row of its batch committed.
    expect(seen[0]).toEqual(all);
  });

  it("puts a row queued while a flush runs into the next flush, one flush at a time", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    const { repo, batches } = counted();
    const group = createGroupCommit(repo, { ...options, batchRows: 3 });
    const rows = Array.from({ length: 7 }, () => row(teamId, kid.id));
    const written = Promise.all(rows.map((r) => group.write(r)!));
    expect(group.queued).toBe(7);
    await written;
    expect(batches).toEqual([3, 3, 1]);
    expect(await listed(teamId)).toEqual(rows.map((r) => r.requestId).sort());
  });

  it("refuses a row beyond its queue's bound (the caller writes it on its own)", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    const group = createGroupCommit(counted().repo, { ...options, queueRows: 2 });
    const first = group.write(row(teamId, kid.id));
    const second = group.write(row(teamId, kid.id));
    expect(group.write(row(teamId, kid.id))).toBeNull();
    await Promise.all([first, second]);
    expect(group.write(row(teamId, kid.id))).not.toBeNull();
  });

  it("fails every caller of a batch that could not be written, and writes none of its rows", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    const group = createGroupCommit(counted().repo, options);
    // A row the table refuses (team_id is NOT NULL) spoils its batch.
    const bad = { ...row(teamId, kid.id), teamId: null } as unknown as NewAuditRow;
    const outcomes = await Promise.all([group.write(row(teamId, kid.id))!, group.write(bad)!]);
    expect(outcomes.map((o) => o.kind)).toEqual(["failed", "failed"]);
    expect(await listed(teamId)).toEqual([]);
    expect((await group.write(row(teamId, kid.id))!).kind).toBe("written");
    expect(await listed(teamId)).toHaveLength(1);
  });

  it("writes a read's row on its own when the queue is full, so every read still gets exactly one row", async () => {
    const { teamId } = await teamWithDeveloper(store());
    const kid = await player(store(), teamId);
    const errors: unknown[] = [];
    const deps = { store: store(), config: { dbLockTimeoutMs: 1000 }, logger: { error: (...args: unknown[]) => void errors.push(args) } };
    const ids = Array.from({ length: AUDIT_QUEUE_ROWS + 3 }, (_, i) => `flood-${i}`);
    // All issued before the first flush can run: the last three find the queue full.
    await Promise.all(ids.map((id) => auditRead(deps, teamId, { actor: { kind: "developer", pk: 3 }, requestId: id }, "player.read", kid.id)));
    const rows = await store().audit.list(teamId, { before: 0, limit: AUDIT_QUEUE_ROWS + 10 });
    expect(rows.map((r) => r.requestId).sort()).toEqual([...ids].sort());
    expect(errors).toEqual([]);
  });
});
