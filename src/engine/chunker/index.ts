/** Text chunking: fragments for display, an early first clause and whole sentences for speech. */

export { chunkStage } from "./chunk-stage.ts";
export { type ChunkerOptions, SentenceChunker } from "./sentence-chunker.ts";
