/**
 * What data-lite mode costs a turn. Run: `npx bun bench/data-mode.ts [calls]`.
 *
 * Every turn asks the player's data mode twice (before loading the history and before recording it): one
 * prepared SQLite statement joining the player to their team (`players.consentState`, through `dataMode`).
 * Baseline in the same run: `players.state`, the one-row read every player token check already does. Rounds
 * alternate the two; p50 and p99 are per call, over the rounds' per-call means.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectDatabase } from "../src/boot/repositories.ts";
import { dataMode } from "../src/players/privacy.ts";

const calls = Number(process.argv[2] ?? 50_000);
const rounds = 11;
const dir = mkdtempSync(join(tmpdir(), "hoot-bench-data-mode-"));
const database = await connectDatabase({ databaseUrl: null, databasePath: join(dir, "hoot.db"), databasePoolSize: 1, dbLockTimeoutMs: 2000 });
const team = await database.store.teams.insert("bench");
await database.store.teams.setRequireConsent(team.id, true);
const player = await database.store.players.insert({ teamId: team.id, externalId: "kid", federatedIdEnc: Buffer.from("x"), federatedIdHash: "h" });

const measure = async (work: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  for (let i = 0; i < calls; i++) await work();
  return ((performance.now() - started) * 1000) / calls;
};
const cases = {
  "dataMode (consent + team, per history call)": () => dataMode(database, player.id),
  "baseline: players.state (per token check)": () => database.store.players.state(player.id),
};
const results = new Map<string, number[]>(Object.keys(cases).map((name) => [name, []]));
for (const work of Object.values(cases)) await measure(work);
for (let round = 0; round < rounds; round++) for (const [name, work] of Object.entries(cases)) results.get(name)!.push(await measure(work));
const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
console.log(`${calls} calls a round, ${rounds} rounds, µs per call (round means):`);
for (const [name, values] of results) {
  const sorted = values.sort((a, b) => a - b);
  console.log(`  ${name.padEnd(46)} p50 ${at(sorted, 0.5).toFixed(2)}  p99 ${at(sorted, 0.99).toFixed(2)}`);
}
await database.close();
rmSync(dir, { recursive: true, force: true });
