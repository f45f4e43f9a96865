/**
 * What `hoot serve` evaluates before it listens stays small: the modules only some requests or settings need
 * (the OpenID Connect client, the openai client, the admin commands, prom-client's Pushgateway client) load on
 * first use. A fresh process imports the server's whole module graph and lists what it evaluated.
 */
import { describe, expect, it } from "bun:test";
import { join } from "node:path";

async function modulesLoadedBy(file: string): Promise<string[]> {
  const script = `await import(${JSON.stringify(file)}); console.log(JSON.stringify(Object.keys(require.cache)));`;
  const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe", env: { ...process.env, HOOT_LOG_LEVEL: "silent" } });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  return JSON.parse(out.trim().split("\n").at(-1)!) as string[];
}

describe("the start-up path", () => {
  it("loads the server without openid-client, openai, jose, the admin commands or prom-client's index", async () => {
    const loaded = await modulesLoadedBy(join(import.meta.dir, "../../src/server.ts"));
    // The import worked and was seen: the server itself and the metrics' own prom-client modules are listed.
    expect(loaded.some((m) => m.endsWith("src/server.ts"))).toBe(true);
    expect(loaded.some((m) => m.endsWith("prom-client/lib/histogram.js"))).toBe(true);
    const unwanted =
      /node_modules\/(openid-client|openai|jose|oauth4webapi)\/|node_modules\/prom-client\/(index\.js|lib\/pushgateway\.js)|src\/cli\/(admin|help|restore)\.ts/;
    expect(loaded.filter((m) => unwanted.test(m))).toEqual([]);
  });
});
