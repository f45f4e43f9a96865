/**
 * npm run bench:hostile-json — how long hoot takes to refuse hostile bodies of growing size, next to the
 * baselines of one long string (the cheapest body to read, parse and refuse) and JSON.parse alone, in this
 * process, of the same hostile bytes. Refusal must cost time linear in the size (a roughly constant ns/byte
 * along each row), never the seconds deep JSON used to take. hoot runs as a fresh process on loopback; each
 * cell is the median of BENCH_REPEAT requests.
 *   BENCH_REPEAT (default 7)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer } from "../test/helpers/process.ts";

const repeat = Number(process.env.BENCH_REPEAT ?? 7);
const dir = mkdtempSync(join(tmpdir(), "hoot-bench-json-"));
const sizes = [16 * 1024, 64 * 1024, 256 * 1024, 1000 * 1024];

const shapes: [string, (bytes: number) => string][] = [
  // One string longer than api_key allows: refused after a single length check.
  ["baseline: one long string", (n) => JSON.stringify({ api_key: "hoot_dev_dk_" + "a".repeat(Math.max(0, n - 40)) }).slice(0, n - 2) + '"}'],
  ["deep [[[…]]] (closed)", (n) => "[".repeat(n / 2) + "]".repeat(n / 2)],
  ["deep [[[… (unclosed)", (n) => "[".repeat(n)],
  [
    "32 deep, wide, fails schema",
    (n) =>
      '{"api_key":' +
      "[".repeat(30) +
      "[" +
      Array(Math.floor((n - 100) / 2))
        .fill("0")
        .join(",") +
      "]" +
      "]".repeat(30) +
      "}",
  ],
  [
    "wide object, unknown fields",
    (n) =>
      "{" +
      Array.from({ length: Math.floor(n / 12) }, (_, i) => `"k${i}":1`)
        .join(",")
        .slice(0, n - 2)
        .replace(/,[^,]*$/, "") +
      "}",
  ],
];

const hoot = await spawnServer(dir, {
  HOOT_LOG_LEVEL: "warn",
  HOOT_LOGIN_FAILURES_PER_MINUTE: "100000",
  HOOT_SECRET_KEY: Buffer.alloc(32, 3).toString("base64"),
  HOOT_ENV: "staging",
});
try {
  const rows: string[][] = [];
  for (const [name, make] of shapes) {
    const row = [name];
    for (const size of sizes) {
      const body = make(size);
      const times: number[] = [];
      let status = 0;
      for (let i = 0; i < repeat + 1; i++) {
        const started = performance.now();
        const res = await fetch(`${hoot.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body });
        await res.arrayBuffer();
        status = res.status;
        if (i > 0) times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const ms = times[Math.floor(times.length / 2)]!;
      row.push(`${ms.toFixed(1)} ms ${status} (${((ms * 1e6) / body.length).toFixed(0)} ns/B)`);
    }
    rows.push(row);
  }
  const parseRow = ["JSON.parse alone, wide object"];
  for (const size of sizes) {
    const body = shapes[4]![1](size);
    const times: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const started = performance.now();
      JSON.parse(body);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const ms = times[Math.floor(times.length / 2)]!;
    parseRow.push(`${ms.toFixed(1)} ms (${((ms * 1e6) / body.length).toFixed(0)} ns/B)`);
  }
  rows.push(parseRow);
  const header = ["body shape \\ size", ...sizes.map((s) => `${Math.round(s / 1024)} KiB`)];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
} finally {
  hoot.proc.kill("SIGTERM");
  await hoot.proc.exited;
  rmSync(dir, { recursive: true, force: true });
}
