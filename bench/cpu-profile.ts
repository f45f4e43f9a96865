/**
 * Reads a V8/JSC `.cpuprofile` (what `bun --cpu-prof` writes) and sums self time by where the code lives and by
 * function. Used by bench/profile-http.ts; also a command: `bun bench/cpu-profile.ts FILE [SECONDS]` summarises
 * a whole profile, or its last SECONDS.
 */
import { readFileSync } from "node:fs";

export interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Where a frame's code lives, as a group name. */
export function group(frame: Node["callFrame"]): string {
  const { url, functionName } = frame;
  if (functionName === "(idle)" || functionName === "(program)" || functionName === "(root)") return functionName;
  if (functionName === "(garbage collector)") return "(garbage collector)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
  if (pkg) return pkg;
  const own = /\/src\/([^/]+)(?:\/([^/]+))?/.exec(url);
  if (own) return own[2] && !own[2].endsWith(".ts") ? `hoot src/${own[1]}/${own[2]}` : `hoot src/${own[1]}`;
  if (url === "" || url.startsWith("builtin:") || url.startsWith("node:") || url.startsWith("bun:")) return `runtime ${url.split("/")[0] || "(native)"}`;
  return url;
}

/**
 * Self time per group and per function over the samples of the last `windowUs` of the profile (the measured run
 * and the shutdown after it, not the start-up and warm-up before). A native frame (no url) is charged to the
 * nearest JavaScript frame that called it, so "runtime" means time under no JavaScript of ours or a package's.
 */
export function summarise(file: string, windowUs: number): { groups: [string, number][]; functions: [string, number][]; total: number } {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let t = profile.startTime;
  const from = profile.endTime - windowUs;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (t >= from) self.set(id, (self.get(id) ?? 0) + dt);
  });
  const jsCaller = (id: number): Node => {
    let node = byId.get(id)!;
    let up = parent.get(id);
    while (node.callFrame.url === "" && up !== undefined && byId.get(up)!.callFrame.functionName !== "(root)") {
      node = byId.get(up)!;
      up = parent.get(up);
    }
    return node;
  };
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === "(idle)") continue;
    total += us;
    const g = group(jsCaller(id).callFrame);
    groups.set(g, (groups.get(g) ?? 0) + us);
    const where = node.callFrame.url ? `${node.callFrame.url.replace(/^.*\/(node_modules|src)\//, "$1/")}:${node.callFrame.lineNumber + 1}` : "native";
    const key = `${node.callFrame.functionName || "(anonymous)"} ${where}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { groups: sorted(groups), functions: sorted(functions), total };
}

/** Prints the two tables (markdown). */
export function printSummary(groups: [string, number][], functions: [string, number][], total: number, top: number): void {
  console.log("| where (self time; natives charged to their JavaScript caller) | share |\n|---|---|");
  for (const [name, us] of groups.slice(0, top)) console.log(`| ${name} | ${((100 * us) / total).toFixed(1)}% |`);
  console.log("\n| top functions (self time) | share |\n|---|---|");
  for (const [name, us] of functions.slice(0, top)) console.log(`| \`${name.replaceAll("|", "\\|")}\` | ${((100 * us) / total).toFixed(1)}% |`);
  console.log("");
}

if (import.meta.main) {
  const [file, seconds] = process.argv.slice(2);
  if (!file) {
    console.error("usage: bun bench/cpu-profile.ts FILE.cpuprofile [SECONDS]");
    process.exit(2);
  }
  const { groups, functions, total } = summarise(file, seconds ? Number(seconds) * 1e6 : Number.POSITIVE_INFINITY);
  console.log(`${file}: ${(total / 1000).toFixed(0)} ms of busy samples on the JavaScript thread`);
  printSummary(groups, functions, total, Number(process.env.BENCH_PROFILE_TOP ?? 15));
}
