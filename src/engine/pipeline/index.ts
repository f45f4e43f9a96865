/** Plumbing shared by the turn stages: a queue between concurrent stages and cancellation helpers. */
export { Channel } from "./channel.ts";
export { childController, sleep } from "./abort.ts";
