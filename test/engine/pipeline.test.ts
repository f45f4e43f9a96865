import { describe, expect, it } from "bun:test";
import { Channel, sleep } from "../../src/engine/pipeline/index.ts";

async function drain<T>(channel: AsyncIterable<T>): Promise<{ items: T[]; error: unknown }> {
  const items: T[] = [];
  try {
    for await (const item of channel) items.push(item);
    return { items, error: null };
  } catch (error) {
    return { items, error };
  }
}

describe("Channel", () => {
  it("delivers items in order to a waiting or a late reader", async () => {
    const channel = new Channel<number>();
    channel.push(1);
    const reading = drain(channel);
    channel.push(2);
    await Promise.resolve();
    channel.push(3);
    channel.close();
    expect(await reading).toEqual({ items: [1, 2, 3], error: null });
  });

  it("delivers a failure after the queued items", async () => {
    const channel = new Channel<string>();
    channel.push("a");
    channel.push("b");
    channel.fail(new Error("broken"));
    const result = await drain(channel);
    expect(result.items).toEqual(["a", "b"]);
    expect((result.error as Error).message).toBe("broken");
  });

  it("drops queued items and releases a waiting reader at once on abort", async () => {
    const controller = new AbortController();
    const channel = new Channel<number>(controller.signal);
    const reader = channel.next();
    controller.abort();
    expect(await reader).toEqual({ value: undefined, done: true });
    const queued = new Channel<number>(controller.signal);
    expect(queued.push(1)).toBe(false);
    expect(await queued.next()).toEqual({ value: undefined, done: true });
  });

  it("refuses pushes after close and after the reader left", async () => {
    const channel = new Channel<number>();
    channel.close();
    expect(channel.push(1)).toBe(false);
    const left = new Channel<number>();
    await left.return();
    expect(left.push(1)).toBe(false);
  });
});

describe("sleep", () => {
  it("ends early when the signal aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    const start = performance.now();
    await sleep(5000, controller.signal);
    expect(performance.now() - start).toBeLessThan(200);
  });
});
