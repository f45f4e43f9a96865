/** Text chunking: fragments for display, an early first clause and whole sentences for speech. */
export { SentenceChunker, type ChunkerOptions } from "./sentence-chunker.ts";
export { chunkStage } from "./chunk-stage.ts";
