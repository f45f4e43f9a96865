/**
 * Preloaded into the hoot server by `bun run bench:interact` (`bun --preload bench/gc-hook.ts src/main.ts serve`):
 * on SIGUSR2 it runs a full garbage collection and writes the process's memory right after it to the file named
 * by BENCH_GC_ACK, so memory per session is measured after a GC without any hook in hoot's own code.
 */
import { renameSync, writeFileSync } from "node:fs";

const ack = process.env.BENCH_GC_ACK;
if (ack) {
  process.on("SIGUSR2", () => {
    Bun.gc(true);
    const { rss, heapUsed } = process.memoryUsage();
    writeFileSync(`${ack}.tmp`, JSON.stringify({ rss, heapUsed }));
    renameSync(`${ack}.tmp`, ack);
  });
}
