/**
 * The failures of voice input, each with the wire `code` the socket sends and a sentence for developers.
 * Messages never include audio bytes or transcripts.
 */

export type VoiceErrorCode =
  | "invalid_audio"
  | "audio_buffer_full"
  | "rate_limited"
  | "no_audio"
  | "stt_unavailable"
  | "stt_failed"
  // data-lite mode: the player has no parent's consent and the recogniser is not on this machine
  | "stt_consent_required";

export class VoiceInputError extends Error {
  constructor(
    readonly code: VoiceErrorCode,
    message: string,
    /** Whether the same request may succeed later (a recogniser that timed out or was busy). */
    readonly retryable = false,
  ) {
    super(message);
    this.name = "VoiceInputError";
  }
}

/** `invalid_audio`: bytes that are no supported format, or a stream that stopped decoding. */
export class InvalidAudio extends VoiceInputError {
  constructor(detail: string) {
    super("invalid_audio", `The audio could not be read: ${detail}.`);
  }
}

/** `audio_buffer_full`: the session already holds as much audio as it may. */
export class AudioBufferFull extends VoiceInputError {
  constructor(maxSeconds: number, maxBytes: number) {
    super(
      "audio_buffer_full",
      `The audio buffer is full (at most ${maxSeconds} s of audio or ${maxBytes} bytes per session); send interact or clear_audio first.`,
    );
  }
}

/** `no_audio`: a transcription was asked of an empty buffer. */
export class NoAudio extends VoiceInputError {
  constructor() {
    super("no_audio", "There is no buffered audio: send add_audio first (or send text).");
  }
}

/** `stt_unavailable`: no speech recogniser is configured or reachable. */
export class SttUnavailable extends VoiceInputError {
  constructor(detail = "no speech recogniser is configured (set HOOT_STT_BASE_URL to an OpenAI-compatible transcription server)") {
    super("stt_unavailable", `Speech recognition is unavailable: ${detail}.`, true);
  }
}

/** `stt_failed`: the recogniser answered with an error or nonsense. */
export class SttFailed extends VoiceInputError {
  constructor(detail: string, retryable: boolean) {
    super("stt_failed", `Speech recognition failed: ${detail}.`, retryable);
  }
}

/** `rate_limited`: the socket's audio budget (audio seconds per second of wall clock) is spent. */
export class AudioRateLimited extends VoiceInputError {
  constructor(readonly retryAfterMs: number) {
    super("rate_limited", "Audio is arriving faster than it can be spoken; slow down.", true);
  }
}
