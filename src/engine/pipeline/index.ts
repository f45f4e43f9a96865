/**
 * Plumbing shared by the turn stages: Channel (the one queue between concurrent stages), cancellation helpers,
 * and untilAborted for sources that may not stop on their own.
 */

export { childController, sleep } from "./abort.ts";
export { Channel } from "./channel.ts";
export { untilAborted } from "./until-aborted.ts";
