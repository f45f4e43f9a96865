/**
 * The contract harness: each suite describes what a repository must do once, and runs on every backend
 * available here (SQLite always; PostgreSQL with HOOT_TEST_DATABASE_URL, which CI always sets), each on a
 * fresh, migrated database.
 */
import { afterAll, beforeAll, describe } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "../../../src/boot/repositories.ts";
import { connectDatabase, type Database } from "../../../src/boot/repositories.ts";
import { type Backend, CONTRACT_BACKENDS, createPgDatabase } from "../../helpers/database.ts";

export interface ContractContext {
  backend: Backend;
  /** The store of this suite's database (set once beforeAll has run). */
  store(): Store;
  database(): Database;
}

/** A fresh migrated database of `backend`, and how to throw it away. */
export async function openTestDatabase(backend: Backend, options: { lockTimeoutMs?: number } = {}): Promise<{ database: Database; cleanup(): Promise<void> }> {
  const settings = { databasePoolSize: 4, dbLockTimeoutMs: options.lockTimeoutMs ?? 2000 };
  if (backend === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "hoot-contract-"));
    const database = await connectDatabase({ ...settings, databaseUrl: null, databasePath: join(dir, "hoot.db") });
    return {
      database,
      async cleanup() {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const created = await createPgDatabase();
  const database = await connectDatabase({ ...settings, databaseUrl: created.url, databasePath: "" });
  return {
    database,
    async cleanup() {
      await database.close();
      await created.drop();
    },
  };
}

/** Runs `body` once per available backend, inside `describe("<title> [<backend>]")`, on a fresh database. */
export function contract(title: string, body: (ctx: ContractContext) => void): void {
  for (const backend of CONTRACT_BACKENDS) {
    describe(`${title} [${backend}]`, () => {
      let opened: { database: Database; cleanup(): Promise<void> } | null = null;
      beforeAll(async () => {
        opened = await openTestDatabase(backend);
      });
      afterAll(async () => {
        await opened?.cleanup();
      });
      body({
        backend,
        store: () => opened!.database.store,
        database: () => opened!.database,
      });
    });
  }
}

let counter = 0;
/** A name no other test of the run uses. */
export function unique(prefix: string): string {
  return `${prefix}-${process.pid}-${++counter}`;
}

/** Bytes standing in for a sealed secret (the repositories never look inside). */
export function sealed(label: string): Buffer {
  return Buffer.concat([Buffer.from([0, 255, 7]), Buffer.from(label)]);
}

/** A team with a developer in it, made through the repositories. */
export async function teamWithDeveloper(store: Store): Promise<{ teamId: number; userId: number }> {
  const team = await store.teams.insert(unique("team"));
  const name = unique("dev");
  const user = await store.users.insert({ name, email: `${name}@example.com`, apiKeyEnc: sealed(name), apiKeyHash: unique("hash") });
  await store.teams.addMember(team.id, user.id);
  return { teamId: team.id, userId: user.id };
}

/** A player of `teamId`, made through the repository. */
export async function player(store: Store, teamId: number, externalId = unique("kid")) {
  return store.players.insert({ teamId, externalId, federatedIdEnc: sealed(externalId), federatedIdHash: unique("fid") });
}

/** A service account of `teamId`, made through the repository. */
export async function serviceAccount(store: Store, teamId: number, playerCreate = false) {
  const name = unique("sa");
  return store.serviceAccounts.insert({ teamId, name, playerCreate, keyEnc: sealed(name), keyHash: unique("sk") });
}

/** The promise's rejection (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}
