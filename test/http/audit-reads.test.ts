/**
 * The audit rows of `GET /api/players/{pk}` (PROTOCOL.md section 8) are group-committed (src/audit/batch.ts):
 * through the real server, on this pass's backend, concurrent reads each get exactly one row with their own
 * request id, and a read's row is listed as soon as its response has arrived. On SQLite, while another process
 * holds the write lock, reads keep answering and their rows land once it is free, or are logged by ids.
 */
import { Database } from "bun:sqlite";
import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { api, createPlayer, createTeamFixture, serverForFile, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";

const file = serverForFile();

type Row = { action: string; actor: { kind: string; pk: number | null }; player_pk: number; request_id: string | null };
const auditOf = async (server: TestServer, team: TeamFixture, playerPk: number): Promise<Row[]> => {
  const res = await api(server.url, "GET", `/api/audit?player_pk=${playerPk}&limit=1000`, { token: team.developerToken });
  expect(res.status).toBe(200);
  return res.body.audit as Row[];
};
const read = (server: TestServer, team: TeamFixture, pk: number, requestId: string) =>
  api(server.url, "GET", `/api/players/${pk}`, { token: team.developerToken, headers: { "x-request-id": requestId } });

describe("audit rows of reads", () => {
  it("writes exactly one row per read, with the read's request id, when many reads arrive together", async () => {
    const { server, team } = file;
    const mia = await createPlayer(server, team);
    const leo = await createPlayer(server, team);
    const ids = Array.from({ length: 150 }, (_, i) => `burst-${i}`);
    const answers = await Promise.all(ids.map((id, i) => read(server, team, i % 2 === 0 ? mia.pk : leo.pk, id)));
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
    expect(answers.map((a) => a.headers.get("x-request-id"))).toEqual(ids);

    const rows = [...(await auditOf(server, team, mia.pk)), ...(await auditOf(server, team, leo.pk))];
    expect(rows).toHaveLength(ids.length);
    expect(rows.map((r) => r.request_id).sort()).toEqual([...ids].sort());
    for (const r of rows) {
      expect(r.action).toBe("player.read");
      expect(r.actor.kind).toBe("developer");
      expect(r.player_pk).toBe(Number(r.request_id!.split("-")[1]) % 2 === 0 ? mia.pk : leo.pk);
    }
  });

  it("has the read's row listed as soon as the read's response has arrived", async () => {
    const { server, team } = file;
    const kid = await createPlayer(server, team);
    for (let i = 0; i < 15; i++) {
      expect((await read(server, team, kid.pk, `then-${i}`)).status).toBe(200);
      const rows = await auditOf(server, team, kid.pk);
      expect(rows[0]?.request_id).toBe(`then-${i}`);
      expect(rows).toHaveLength(i + 1);
    }
  });

  it("writes no row for a read that found no player", async () => {
    const { server, team } = file;
    const other = await createTeamFixture(server);
    const theirs = await createPlayer(server, other);
    expect((await read(server, team, theirs.pk, "not-mine")).status).toBe(404);
    expect(await auditOf(server, other, theirs.pk)).toEqual([]);
  });
});

// Another process's write lock is a SQLite matter (PostgreSQL has none database-wide).
describe("audit rows of reads while another process holds SQLite's write lock", () => {
  const holdLock = (server: TestServer) => {
    const other = new Database(join(server.dir, "hoot.db"));
    other.exec("BEGIN IMMEDIATE");
    return () => {
      other.exec("ROLLBACK");
      other.close();
    };
  };
  const eventually = async <T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
    for (let i = 0; ; i++) {
      const value = await probe();
      if (done(value) || i === 200) return value;
      await Bun.sleep(25);
    }
  };

  it("keeps answering the reads, and writes their rows once the lock is free", async () => {
    const server = await startTestServer({ HOOT_DB_LOCK_TIMEOUT_MS: "60000" }, { backend: "sqlite" });
    try {
      const team = await createTeamFixture(server);
      const kid = await createPlayer(server, team);
      const release = holdLock(server);
      const ids = Array.from({ length: 20 }, (_, i) => `locked-${i}`);
      let answers: Awaited<ReturnType<typeof read>>[];
      try {
        answers = await Promise.all(ids.map((id) => read(server, team, kid.pk, id)));
      } finally {
        release();
      }
      expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
      const rows = await eventually(
        () => auditOf(server, team, kid.pk),
        (r) => r.length >= ids.length,
      );
      expect(rows.map((r) => r.request_id).sort()).toEqual([...ids].sort());
    } finally {
      await server.close();
    }
  }, 30_000);

  it("logs a row it could not write before the lock deadline by its ids, without the request's content", async () => {
    const server = await startTestServer({ HOOT_DB_LOCK_TIMEOUT_MS: "50" }, { backend: "sqlite" });
    try {
      const team = await createTeamFixture(server);
      const kid = await createPlayer(server, team);
      const release = holdLock(server);
      try {
        expect((await read(server, team, kid.pk, "given-up")).status).toBe(200);
        const lost = (lines: string[]) => lines.filter((l) => l.includes('"audit_not_written"')).map((l) => JSON.parse(l));
        const logged = await eventually(
          async () => lost(server.logs),
          (l) => l.length > 0,
        );
        expect(logged).toHaveLength(1);
        expect(logged[0]).toMatchObject({ action: "player.read", team: team.teamId, player: kid.pk });
      } finally {
        release();
      }
      expect(await auditOf(server, team, kid.pk)).toEqual([]);
    } finally {
      await server.close();
    }
  }, 30_000);
});
