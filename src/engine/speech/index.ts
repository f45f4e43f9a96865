/** Speech: the speakable-text rule, and sentences to audio frames through a TtsProvider, one sentence ahead. */
export { speechStage, estimateSeconds, type SpeechOptions } from "./speech-stage.ts";
export { isSpeakable, speakableText } from "./speakable.ts";
