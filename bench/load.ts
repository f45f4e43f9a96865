/**
 * A small closed-loop load generator shared by the benchmarks: `concurrency` workers send requests back to
 * back for `seconds`, recording each latency. Same generator for every target, so ratios are fair.
 */
export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

/** Runs `send` in `concurrency` loops for `seconds`; `send` resolves true on success. */
export async function load(send: () => Promise<boolean>, concurrency: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const ok = await send().catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

/** Percentile of a list of numbers (sorted copy). */
export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** Prints rows as an aligned text table. */
export function printTable(rows: Record<string, string | number>[]): void {
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]!);
  const cells = rows.map((r) => keys.map((k) => (typeof r[k] === "number" ? formatNumber(r[k] as number) : String(r[k]))));
  const widths = keys.map((k, i) => Math.max(k.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join("  ");
  console.log(line(keys));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const c of cells) console.log(line(c));
}

function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(n >= 100 ? 0 : 2);
}
