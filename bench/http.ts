/**
 * bun run bench:http — requests per second and p99 of hoot's hot HTTP paths next to a bare Bun.serve
 * "hello" server, measured in one run with the same load generator. Both servers run as separate
 * processes on loopback. Targets: authenticated GET >= 50% of bare, login >= 30%.
 *   BENCH_SECONDS (default 5), BENCH_CONCURRENCY (default 32)
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load, printTable, type LoadResult } from "./load.ts";
import { spawnServer } from "../test/helpers/process.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const dir = mkdtempSync(join(tmpdir(), "hoot-bench-"));

const helloFile = join(dir, "hello.ts");
writeFileSync(
  helloFile,
  `const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json({ hello: "world" }) });\nconsole.error("listening on " + s.url.href.replace(/\\/$/, ""));\n`,
);

const hello = await spawnServer(dir, {}, [process.execPath, helloFile]);
const hoot = await spawnServer(dir, { HOOT_LOG_LEVEL: "warn", HOOT_LOGIN_FAILURES_PER_MINUTE: "100000" });
try {
  const creds = JSON.parse(await Bun.file(join(dir, "data/dev-credentials.json")).text());
  const json = { "content-type": "application/json" };
  const tokenRes = await fetch(`${hoot.url}/api/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ api_key: creds.developer_api_key }) });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const auth = { authorization: `Bearer ${token}`, ...json };
  const player = (await (await fetch(`${hoot.url}/api/players`, { method: "POST", headers: auth, body: JSON.stringify({ external_id: "bench" }) })).json()) as { pk: number };
  let n = 0;

  const targets: [string, () => Promise<boolean>][] = [
    ["bare hello (Bun.serve)", async () => (await fetch(`${hello.url}/`)).ok],
    ["GET /api/players/{pk}", async () => (await fetch(`${hoot.url}/api/players/${player.pk}`, { headers: auth })).ok],
    ["POST /api/auth/login", async () => (await fetch(`${hoot.url}/api/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ api_key: creds.developer_api_key }) })).ok],
    ["POST /api/players", async () => (await fetch(`${hoot.url}/api/players`, { method: "POST", headers: auth, body: JSON.stringify({ external_id: `b-${process.pid}-${n++}` }) })).status === 201],
  ];
  // Warm up every path once so JIT and prepared statements are ready.
  for (const [, send] of targets) await load(send, 4, 0.5);
  const results: [string, LoadResult][] = [];
  for (const [name, send] of targets) results.push([name, await load(send, concurrency, seconds)]);
  const bare = results[0]![1];
  console.log(`\nhoot HTTP benchmark: ${concurrency} concurrent connections, ${seconds}s per target, loopback, ${navigator.hardwareConcurrency} cores\n`);
  printTable(
    results.map(([name, r]) => ({
      target: name,
      requests: r.requests,
      errors: r.errors,
      "req/s": Math.round(r.rps),
      "p50 ms": r.p50,
      "p99 ms": r.p99,
      "vs bare": `${((r.rps / bare.rps) * 100).toFixed(0)}%`,
    })),
  );
  console.log("\ntargets: authenticated GET >= 50% of bare, login >= 30% of bare");
} finally {
  hello.proc.kill("SIGTERM");
  hoot.proc.kill("SIGTERM");
  await Promise.all([hello.proc.exited, hoot.proc.exited]);
  rmSync(dir, { recursive: true, force: true });
}
