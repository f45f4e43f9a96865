/** Every query about the deployment as a whole: the key check value and whether anything secret is stored. */
import { eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { hootMeta } from "./schema.ts";
import type { Synchronous } from "./store.ts";

export interface MetaRepo {
  /** The stored key check value, or null on a database that has none yet. */
  readKeyCheck(): Promise<string | null>;
  /** Stores the key check value (once: an existing one is never replaced). */
  writeKeyCheck(value: string): Promise<void>;
  /**
   * One encrypted value from the database (a developer key, a service key or a federated id), or null when
   * nothing encrypted is stored: enough to tell whether a key opens this database.
   */
  sampleCiphertext(): Promise<Uint8Array | null>;
}

const KEY_CHECK = "key_check";

/** The SQL both dialects share for `sampleCiphertext`. */
export const SAMPLE_CIPHERTEXT_SQL = `SELECT api_key_enc AS sealed FROM users
       UNION ALL SELECT key_enc FROM service_accounts
       UNION ALL SELECT federated_id_enc FROM players
       LIMIT 1`;

/** The deployment facts on SQLite. */
export function sqliteMetaRepo(db: Db): Synchronous<MetaRepo> {
  return {
    readKeyCheck: () => db.select({ value: hootMeta.value }).from(hootMeta).where(eq(hootMeta.name, KEY_CHECK)).get()?.value ?? null,
    writeKeyCheck: (value) => void db.insert(hootMeta).values({ name: KEY_CHECK, value }).onConflictDoNothing().run(),
    sampleCiphertext: () => db.$client.query<{ sealed: Uint8Array }, []>(SAMPLE_CIPHERTEXT_SQL).get()?.sealed ?? null,
  };
}
