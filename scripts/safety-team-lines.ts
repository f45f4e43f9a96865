/**
 * Writes test/fixtures/safety/train/team/ from the example tables of test/safety/detect.test.ts: every
 * `it.each([...])("%p is %p")` row is an unsafe line of its category, every "... passes" row a benign one ("model
 * sentence" tables are model sentences). Run after adding examples there: `bun scripts/safety-team-lines.ts`.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const source = await Bun.file(join(import.meta.dir, "../test/safety/detect.test.ts")).text();
const out: Record<"unsafe-inputs" | "near-miss" | "model-sentences", string[]> = { "unsafe-inputs": [], "near-miss": [], "model-sentences": [] };
const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
for (const block of source.matchAll(/it\.each\(\[([\s\S]*?)\]\)\((["'`])(.*?)\2/g)) {
  const [, body = "", , name = ""] = block;
  if (name.includes("reads %p as")) continue;
  const output = name.includes("model sentence");
  const both = name === "%p";
  const passes = name.includes("passes") || name === "%p" || name === "child says %p";
  for (const row of body.matchAll(new RegExp(String.raw`\[\s*(${STRING})\s*,\s*(${STRING})\s*\]|^\s*(${STRING})\s*,?\s*$`, "gm"))) {
    const text = JSON.parse(row[1] ?? row[3] ?? '""') as string;
    const label = row[2] ? (JSON.parse(row[2]) as string) : null;
    if (!text || /[\t\n]/.test(text)) continue;
    if (passes) {
      if (output || both) out["model-sentences"].push(`none\t${text}`);
      if (!output) out["near-miss"].push(`none\t${text}`);
    } else if (label && label !== "custom") {
      out[output ? "model-sentences" : "unsafe-inputs"].push(`${label}\t${text}`);
    }
  }
}
for (const [kind, lines] of Object.entries(out)) {
  writeFileSync(join(import.meta.dir, `../test/fixtures/safety/train/team/${kind}.tsv`), `${lines.join("\n")}\n`);
  console.log(`${kind}: ${lines.length} lines`);
}
