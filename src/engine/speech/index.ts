/** Speech: sentences to audio frames through a TtsProvider, pipelined one sentence ahead. */
export { speechStage } from "./speech-stage.ts";
export { startSynthesis, speakableText, type SpeechOptions } from "./synthesis.ts";
