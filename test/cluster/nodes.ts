/**
 * Several hoot nodes on one PostgreSQL database, for the multi-node tests: each an in-process app on port 0
 * with its own pool and its own listening connection (as separate machines would have), all sharing one
 * fresh database on the test cluster (HOOT_TEST_DATABASE_URL), dropped when the nodes close.
 * The tests using it are skipped without a cluster (and required in CI, see ../helpers/database.ts).
 */
import { createPgDatabase, PG_AVAILABLE } from "../helpers/database.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

export { PG_AVAILABLE };

export interface Nodes {
  url: string;
  /** The database's name on the cluster. */
  name: string;
  nodes: TestServer[];
  /** Starts one more node on the same database. */
  add(env?: Record<string, string>): Promise<TestServer>;
  /** Stops every node still running and drops the database. */
  close(): Promise<void>;
}

/** Starts `count` nodes (one after the other) on a new database. */
export async function startNodes(count: number, env: Record<string, string> = {}): Promise<Nodes> {
  const database = await createPgDatabase();
  const nodes: TestServer[] = [];
  const add = async (more: Record<string, string> = {}) => {
    const node = await startTestServer({ HOOT_DATABASE_URL: database.url, ...env, ...more });
    nodes.push(node);
    return node;
  };
  try {
    for (let i = 0; i < count; i++) await add();
  } catch (error) {
    await Promise.all(nodes.map((n) => n.close()));
    await database.drop();
    throw error;
  }
  return {
    url: database.url,
    name: database.name,
    nodes,
    add,
    async close() {
      await Promise.all(nodes.map((n) => n.close().catch(() => undefined)));
      await database.drop();
    },
  };
}
