/** Every query about the deployment as a whole: the key check value and whether anything secret is stored. */
import { eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { hootMeta } from "./schema.ts";

const KEY_CHECK = "key_check";

/** The stored key check value, or null on a database that has none yet. */
export function readKeyCheck(db: Db): string | null {
  return db.select({ value: hootMeta.value }).from(hootMeta).where(eq(hootMeta.name, KEY_CHECK)).get()?.value ?? null;
}

/** Stores the key check value (once: an existing one is never replaced). */
export function writeKeyCheck(db: Db, value: string): void {
  db.insert(hootMeta).values({ name: KEY_CHECK, value }).onConflictDoNothing().run();
}

/**
 * One encrypted value from the database (a developer key, a service key or a federated id), or null when
 * nothing encrypted is stored: enough to tell whether a key opens this database.
 */
export function sampleCiphertext(db: Db): Uint8Array | null {
  const row = db.$client
    .query<{ sealed: Uint8Array }, []>(
      `SELECT api_key_enc AS sealed FROM users
       UNION ALL SELECT key_enc FROM service_accounts
       UNION ALL SELECT federated_id_enc FROM players
       LIMIT 1`,
    )
    .get();
  return row?.sealed ?? null;
}
