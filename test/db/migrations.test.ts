import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MIGRATION_SETS, renderMigrationsModule } from "../../scripts/embed-migrations.ts";

describe("embedded migrations", () => {
  for (const set of MIGRATION_SETS) {
    it(`${set.module} matches ${set.folder}/ (run \`npm run db:generate\` after changing a schema)`, () => {
      const root = join(import.meta.dir, "../..");
      expect(readFileSync(join(root, set.module), "utf8")).toBe(renderMigrationsModule(root, set));
    });
  }
});
