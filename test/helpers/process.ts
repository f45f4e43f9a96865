/** Runs hoot as a child process (`bun src/main.ts …` or the compiled binary) in a folder of the test's. */
import { join } from "node:path";

export const MAIN = join(import.meta.dir, "../../src/main.ts");

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `hoot args…` to completion in `cwd` with `env` added to a clean environment. */
export async function runHoot(args: string[], cwd: string, env: Record<string, string> = {}, command: string[] = [process.execPath, MAIN]): Promise<Ran> {
  const proc = Bun.spawn([...command, ...args], { cwd, env: cleanEnv(env), stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** The current environment without HOOT_* settings, plus `env`. */
export function cleanEnv(env: Record<string, string>): Record<string, string> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("HOOT_") && v !== undefined) base[k] = v;
  return { ...base, ...env };
}

/** Starts `hoot serve` on a free port and resolves once it answers /api/health. */
export async function spawnServer(cwd: string, env: Record<string, string> = {}, command: string[] = [process.execPath, MAIN]) {
  const proc = Bun.spawn([...command, "serve"], {
    cwd,
    env: cleanEnv({ HOOT_HOST: "127.0.0.1", HOOT_PORT: "0", ...env }),
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  const reader = proc.stderr.getReader();
  let stderr = "";
  const deadline = Date.now() + 20_000;
  while (!/listening on (http:\/\/\S+)/.test(stderr)) {
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${stderr}`);
    stderr += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const url = /listening on (http:\/\/\S+)/.exec(stderr)![1]!;
  const stdout = new Response(proc.stdout).text();
  return { proc, url, stderr, stdout };
}
