/** Admission control and the per-turn timeline, as plain objects. */
import { describe, expect, it } from "bun:test";
import { SpeechCapacity } from "../../../src/engine/tts/capacity.ts";
import { estimateSeconds, TurnTimeline } from "../../../src/engine/tts/schedule.ts";

describe("SpeechCapacity", () => {
  it("admits as many turns as the workers keep in real time at the measured speed, with headroom", () => {
    const capacity = new SpeechCapacity({ workers: 2, maxTurns: 0, maxLagMs: 1000, headroom: 0.9, initialRtf: 0.03 }, () => 0);
    expect(capacity.limit).toBe(60);
    const tickets = Array.from({ length: 60 }, () => capacity.reserve());
    expect(tickets.every((ticket) => ticket !== null)).toBe(true);
    expect(capacity.reserve()).toBeNull();
    tickets[0]!.release();
    tickets[0]!.release(); // a second release gives nothing back twice
    expect(capacity.inUse).toBe(59);
    expect(capacity.reserve()).not.toBeNull();
    expect(capacity.reserve()).toBeNull();
  });

  it("follows the measured speed: a slower engine admits fewer turns", () => {
    const capacity = new SpeechCapacity({ workers: 2, maxTurns: 0, maxLagMs: 1000, headroom: 1, initialRtf: 0.02 }, () => 0);
    expect(capacity.limit).toBe(100);
    for (let i = 0; i < 200; i++) capacity.measured(100, 1000);
    expect(capacity.rtf).toBeCloseTo(0.1, 2);
    expect(capacity.limit).toBe(20);
    capacity.measured(Number.NaN, 1000);
    capacity.measured(10, 0);
    expect(capacity.rtf).toBeCloseTo(0.1, 2);
  });

  it("refuses new turns while the speech queue is late, and admits again once it caught up", () => {
    let lag = 1500;
    const capacity = new SpeechCapacity({ workers: 2, maxTurns: 0, maxLagMs: 1000 }, () => lag);
    expect(capacity.reserve()).toBeNull();
    lag = 200;
    expect(capacity.reserve()).not.toBeNull();
  });

  it("uses a fixed number of turns when the operator sets one", () => {
    const capacity = new SpeechCapacity({ workers: 8, maxTurns: 2, maxLagMs: 1000 }, () => 0);
    expect([capacity.reserve(), capacity.reserve(), capacity.reserve()].map((ticket) => ticket !== null)).toEqual([true, true, false]);
  });
});

describe("TurnTimeline", () => {
  it("needs the first sentence now and each later one when the audio before it has played", () => {
    const timeline = new TurnTimeline();
    const first = timeline.place(2, 1000);
    const second = timeline.place(3, 1010);
    const third = timeline.place(1, 1020);
    expect([timeline.needOf(first), timeline.needOf(second), timeline.needOf(third)]).toEqual([1000, 3000, 6000]);
    // Playback starts when the first audio is delivered, and real durations replace the estimates.
    timeline.delivered(first, 1200);
    timeline.finished(first, 2.5);
    expect([timeline.needOf(second), timeline.needOf(third)]).toEqual([3700, 6700]);
    timeline.delivered(second, 9999);
    expect(timeline.needOf(second)).toBe(3700);
  });

  it.each([
    ["Hello there, my friend!", 1, 23 / 14],
    ["Hello there, my friend!", 0.5, 23 / 7],
    ["Hello there, my friend!", 0.1, 23 / 7],
  ])("estimates %j at speed %p", (text, speed, seconds) => {
    expect(estimateSeconds(text, speed)).toBeCloseTo(seconds, 5);
  });
});
