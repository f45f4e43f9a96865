/** Speech: the speakable-text rule, and sentences to audio frames through a TtsProvider, one sentence ahead. */

export { isSpeakable, speakableText } from "./speakable.ts";
export { estimateSeconds, type SpeechOptions, speechStage } from "./speech-stage.ts";
