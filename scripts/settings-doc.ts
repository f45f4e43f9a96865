/**
 * Writes the settings table of docs/settings.md from the one settings table (src/settings.ts), between the
 * page's `<!-- settings -->` and `<!-- /settings -->` marks. Run after changing a setting: `bun scripts/settings-doc.ts`
 * (`--check` only tells whether the page is current; test/cli/settings.test.ts runs it).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { settingsMarkdown } from "../src/settings.ts";

const page = join(import.meta.dir, "../docs/settings.md");
const text = readFileSync(page, "utf8");
const start = text.indexOf("<!-- settings -->");
const end = text.indexOf("<!-- /settings -->");
if (start < 0 || end < start) throw new Error("docs/settings.md has no <!-- settings --> ... <!-- /settings --> marks");
const next = `${text.slice(0, start)}<!-- settings -->\n${settingsMarkdown()}\n${text.slice(end)}`;
if (process.argv.includes("--check")) {
  console.log(next === text ? "docs/settings.md is current" : "docs/settings.md is not current: run bun scripts/settings-doc.ts");
  process.exit(next === text ? 0 : 1);
}
writeFileSync(page, next);
console.log("docs/settings.md written");
