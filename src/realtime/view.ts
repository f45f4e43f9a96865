/**
 * The Realtime session as the client sees it (`session.created`, `session.updated`) and what it becomes on
 * the interact session underneath: a configuration (`set_configuration`, or a stored configuration by
 * reference and then `merge_configuration`). `session.update` merges into the view, as OpenAI's does; a
 * voice hoot does not have falls back to the default child voice, and the view shows the voice used.
 */
import { DEFAULT_PROMPT } from "../interact/references.ts";
import type { AudioFormatType } from "./audio.ts";
import type { SessionUpdate } from "./model.ts";
import { formatObject } from "./response.ts";

type Context = Record<string, string | number | boolean>;

export interface SessionView {
  id: string;
  model: string;
  instructions: string;
  /** Whether the client set `instructions` (with `prompt`, they replace the stored prompt text). */
  instructionsSet: boolean;
  modality: "text" | "audio";
  inputFormat: AudioFormatType;
  outputFormat: AudioFormatType;
  voice: string;
  turnDetection: { type: "server_vad" | "semantic_vad"; create_response: boolean } | null;
  prompt: { id: string; version?: string | number; variables?: Context } | null;
  safetyPolicy: string | null;
  context: Context;
  /** Speech marks on each audio delta (PROTOCOL.md section 6), under its `hoot` key. */
  marks: { subtitles: boolean; visemes: boolean };
}

/** The defaults `session.created` shows: audio out, the default child voice, PCM 24 kHz both ways, server VAD, hoot's prompt. */
export function defaultView(id: string, model: string, defaultVoice: string): SessionView {
  return {
    id,
    model,
    instructions: DEFAULT_PROMPT,
    instructionsSet: false,
    modality: "audio",
    inputFormat: "audio/pcm",
    outputFormat: "audio/pcm",
    voice: defaultVoice,
    turnDetection: { type: "server_vad", create_response: true },
    prompt: null,
    safetyPolicy: null,
    context: {},
    marks: { subtitles: false, visemes: false },
  };
}

/**
 * The view after a `session.update` (a copy; the current one is kept until the interact session accepts it).
 * @example mergeView(view, { output_modalities: ["text"] }, ["slt"]).modality // "text"
 */
export function mergeView(view: SessionView, update: SessionUpdate, voices: readonly string[]): SessionView {
  const next: SessionView = { ...view, context: { ...view.context }, marks: { ...view.marks } };
  if (update.instructions !== undefined) {
    next.instructions = update.instructions;
    next.instructionsSet = true;
  }
  if (update.output_modalities) next.modality = update.output_modalities[0];
  const input = update.audio?.input;
  if (input?.format) next.inputFormat = input.format.type;
  if (input && input.turn_detection !== undefined) {
    next.turnDetection = input.turn_detection ? { type: input.turn_detection.type, create_response: input.turn_detection.create_response ?? true } : null;
  }
  const output = update.audio?.output;
  if (output?.format) next.outputFormat = output.format.type;
  if (output?.voice !== undefined) next.voice = voices.includes(output.voice) ? output.voice : (voices[0] ?? output.voice);
  if (update.prompt !== undefined) next.prompt = update.prompt;
  if (update.hoot?.safety_policy !== undefined) next.safetyPolicy = update.hoot.safety_policy;
  if (update.hoot?.context) Object.assign(next.context, update.hoot.context);
  if (update.hoot?.subtitles !== undefined) next.marks.subtitles = update.hoot.subtitles;
  if (update.hoot?.visemes !== undefined) next.marks.visemes = update.hoot.visemes;
  return next;
}

/** The configuration fields the view sets on the interact session (over a stored configuration, when `prompt` names one). */
export function configOf(view: SessionView): Record<string, unknown> {
  const config: Record<string, unknown> = {
    voice_profile: { voice_id: view.voice },
    audio_format: "pcm16",
    context: { ...view.context, ...(view.prompt?.variables ?? {}) },
  };
  if (!view.prompt || view.instructionsSet) config.prompt = view.instructions;
  if (view.safetyPolicy) config.safety_policy = view.safetyPolicy;
  return config;
}

/** The stored configuration's reference (`name`, `name@2`), or null. */
export function referenceOf(view: SessionView): string | null {
  if (!view.prompt) return null;
  const version = view.prompt.version;
  if (version === undefined || version === "") return view.prompt.id;
  const text = String(version).replace(/^v/, "");
  return `${view.prompt.id}@${text}`;
}

/** The session object on the wire. */
export function sessionObject(view: SessionView): Record<string, unknown> {
  return {
    type: "realtime",
    object: "realtime.session",
    id: view.id,
    model: view.model,
    instructions: view.instructions,
    output_modalities: [view.modality],
    audio: {
      input: {
        format: formatObject(view.inputFormat),
        turn_detection: view.turnDetection
          ? { type: view.turnDetection.type, create_response: view.turnDetection.create_response, interrupt_response: true }
          : null,
        transcription: null,
        noise_reduction: null,
      },
      output: { format: formatObject(view.outputFormat), voice: view.voice, speed: 1 },
    },
    prompt: view.prompt,
    tools: [],
    tool_choice: "auto",
    max_output_tokens: "inf",
    tracing: null,
    truncation: "auto",
    hoot: { safety_policy: view.safetyPolicy, context: view.context, subtitles: view.marks.subtitles, visemes: view.marks.visemes },
  };
}
