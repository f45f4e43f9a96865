/** Small helpers shared by the benchmarks: percentiles and aligned text tables. */
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
