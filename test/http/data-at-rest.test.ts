import { Database } from "bun:sqlite";
import { describe, expect, it } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadHistory } from "../../src/conversations/service.ts";
import { rawSql, SERVER_BACKEND } from "../helpers/database.ts";
import { api, createPlayer, createTeamFixture, startTestServer, type TestServer } from "../helpers/server.ts";
import { openSession } from "../helpers/ws.ts";

// SQLite's file, WAL and permissions: checked in the SQLite pass (the PostgreSQL pass has no file to look at).
const sqliteOnly = it.skipIf(SERVER_BACKEND !== "sqlite");

const WORDS = "my secret pet is a purple elephant called Zanzibar";

/** The database file and its WAL, as bytes on disk right now. */
function onDisk(server: TestServer): Buffer {
  const path = server.config.databasePath;
  return Buffer.concat([readFileSync(path), existsSync(`${path}-wal`) ? readFileSync(`${path}-wal`) : Buffer.alloc(0)]);
}

async function talk(server: TestServer, token: string, text: string): Promise<string> {
  const probe = await openSession(server.url, token);
  const { events } = await probe.interact(text);
  probe.close();
  return events.find((e) => e.event === "text_complete")?.text ?? "";
}

async function storedRows(server: TestServer, playerId: number, count: number) {
  const query = async () =>
    (await rawSql(server.deps.database, "SELECT role, text, text_enc AS sealed FROM conversation_messages WHERE player_id = ? ORDER BY id", playerId)) as {
      role: string;
      text: string;
      sealed: Uint8Array | null;
    }[];
  for (let i = 0; i < 100 && (await query()).length < count; i++) await Bun.sleep(20);
  return query();
}

describe("children's words at rest", () => {
  it("stores conversation text encrypted: neither the child's words nor the reply are in the database or its WAL", async () => {
    const server = await startTestServer();
    try {
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      const reply = await talk(server, player.token, WORDS);
      expect(reply.length).toBeGreaterThan(10);
      const rows = await storedRows(server, player.pk, 2);
      expect(rows.map((r) => [r.role, r.text, (r.sealed?.length ?? 0) > 28])).toEqual([
        ["user", "", true],
        ["assistant", "", true],
      ]);
      // The service reads them back.
      expect(await loadHistory(server.deps, player.pk, 10_000)).toEqual([
        { role: "user", text: WORDS },
        { role: "assistant", text: reply },
      ]);
      for (const row of rows) expect(Buffer.from(row.sealed!).includes(Buffer.from("purple"))).toBe(false);
      if (server.backend === "sqlite") {
        const disk = onDisk(server);
        expect(disk.includes(Buffer.from("purple elephant"))).toBe(false);
        expect(disk.includes(Buffer.from(reply.slice(0, 24)))).toBe(false);
      }
    } finally {
      await server.close();
    }
  });

  sqliteOnly("turns on secure_delete, and deleting a player leaves none of their stored bytes in the database or the WAL", async () => {
    const server = await startTestServer();
    try {
      expect(await rawSql(server.deps.database, "PRAGMA secure_delete")).toEqual([{ secure_delete: 1 }]);
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      await talk(server, player.token, WORDS);
      const rows = await storedRows(server, player.pk, 2);
      const traces = rows.map((r) => Buffer.from(r.sealed!).subarray(12, 28));
      const before = onDisk(server);
      expect(traces.every((t) => before.includes(t))).toBe(true);

      const deleted = await api(server.url, "DELETE", `/api/players/${player.pk}`, { token: team.developerToken });
      expect(deleted.status).toBe(204);
      const after = onDisk(server);
      for (const trace of traces) expect(after.includes(trace)).toBe(false);
      expect(statSync(`${server.config.databasePath}-wal`).size).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("keeps reading plain-text rows of an older version, and encrypts them at the next start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hoot-legacy-"));
    try {
      let server = await startTestServer({}, { dir });
      const team = await createTeamFixture(server);
      const player = await createPlayer(server, team);
      // What an older hoot wrote: the words in `text`, nothing in `text_enc`.
      await rawSql(server.deps.database, "INSERT INTO conversation_messages (player_id, role, text) VALUES (?, 'user', ?)", player.pk, WORDS);
      expect(await loadHistory(server.deps, player.pk, 10_000)).toEqual([{ role: "user", text: WORDS }]);
      await server.close();

      server = await startTestServer({}, { dir });
      try {
        const rows = await rawSql(server.deps.database, "SELECT text, text_enc AS sealed FROM conversation_messages");
        expect(rows).toHaveLength(1);
        expect(rows[0]!.text).toBe("");
        expect(rows[0]!.sealed).not.toBeNull();
        expect(await loadHistory(server.deps, player.pk, 10_000)).toEqual([{ role: "user", text: WORDS }]);
        if (server.backend === "sqlite") expect(onDisk(server).includes(Buffer.from("purple elephant"))).toBe(false);
        expect(server.logs.some((l) => l.includes('"conversations_sealed"'))).toBe(true);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a row moved to another player does not open", async () => {
    const server = await startTestServer();
    try {
      const team = await createTeamFixture(server);
      const mia = await createPlayer(server, team);
      const leo = await createPlayer(server, team);
      await talk(server, mia.token, WORDS);
      await storedRows(server, mia.pk, 2);
      await rawSql(server.deps.database, "UPDATE conversation_messages SET player_id = ? WHERE player_id = ?", leo.pk, mia.pk);
      expect(await loadHistory(server.deps, leo.pk, 10_000)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe("file permissions", () => {
  sqliteOnly("keeps the data folder 0700 and the database, its WAL and shm, and the generated key 0600", async () => {
    const root = mkdtempSync(join(tmpdir(), "hoot-perms-"));
    const dir = join(root, "data");
    try {
      const server = await startTestServer({ HOOT_SECRET_KEY: "" }, { dir });
      const team = await createTeamFixture(server);
      await createPlayer(server, team);
      const mode = (p: string) => statSync(p).mode & 0o777;
      expect(mode(dir)).toBe(0o700);
      for (const name of ["hoot.db", "hoot.db-wal", "hoot.db-shm", "secret.key"]) expect({ name, mode: mode(join(dir, name)) }).toEqual({ name, mode: 0o600 });
      await server.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  sqliteOnly("tightens a folder and database that an older version left readable by everyone", async () => {
    const root = mkdtempSync(join(tmpdir(), "hoot-perms-"));
    const dir = join(root, "data");
    try {
      mkdirSync(dir, { mode: 0o755 });
      chmodSync(dir, 0o755);
      const old = new Database(join(dir, "hoot.db"), { create: true });
      old.exec("PRAGMA journal_mode = WAL");
      old.close();
      chmodSync(join(dir, "hoot.db"), 0o644);
      writeFileSync(join(dir, "unrelated.txt"), "x");
      const server = await startTestServer({}, { dir });
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, "hoot.db")).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, "hoot.db-wal")).mode & 0o777).toBe(0o600);
      expect(server.logs.some((l) => l.includes('"data_dir_tightened"'))).toBe(true);
      await server.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
