/** The deployment facts (src/db/meta.ts) on PostgreSQL. */
import { eq } from "drizzle-orm";
import { type MetaRepo, SAMPLE_CIPHERTEXT_SQL } from "../meta.ts";
import { type PgDb, query } from "./client.ts";
import { hootMeta } from "./schema.ts";

const KEY_CHECK = "key_check";

/** The deployment facts on PostgreSQL. */
export function pgMetaRepo(db: PgDb): MetaRepo {
  return {
    async readKeyCheck() {
      const [row] = await db.select({ value: hootMeta.value }).from(hootMeta).where(eq(hootMeta.name, KEY_CHECK));
      return row?.value ?? null;
    },
    async writeKeyCheck(value) {
      await db.insert(hootMeta).values({ name: KEY_CHECK, value }).onConflictDoNothing();
    },
    async sampleCiphertext() {
      const rows = await query<{ sealed: Uint8Array }>(db, SAMPLE_CIPHERTEXT_SQL);
      return rows[0]?.sealed ?? null;
    },
  };
}
