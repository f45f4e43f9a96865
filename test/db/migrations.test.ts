import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderMigrationsModule } from "../../scripts/embed-migrations.ts";

describe("embedded migrations", () => {
  it("src/db/migrations.gen.ts matches drizzle/ (run `bun run db:generate` after changing the schema)", () => {
    const root = join(import.meta.dir, "../..");
    expect(readFileSync(join(root, "src/db/migrations.gen.ts"), "utf8")).toBe(renderMigrationsModule(root));
  });
});
