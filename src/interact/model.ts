/**
 * What clients send on the interact socket (PROTOCOL.md section 2) as TypeBox schemas: the configuration and
 * one schema per request kind. `checkRequest` turns a raw message into a `ClientRequest` (a union discriminated
 * by `kind`) or a sentence naming the first bad field. A new request kind is one more entry in RequestSchemas
 * and one more case in the session's switch (the compiler points at it).
 *
 * Liberal in what it accepts from the hosted engine's SDKs (ug-python-sdk, ug-js-sdk, ug-unity-sdk): every
 * request kind and field they can send has a schema here; `null` means absent for every optional field
 * (`withoutNulls`, before the check); fields hoot cannot honour yet are accepted and ignored (the README lists
 * them). A field no client sends is still refused with a sentence naming it, so typos are caught.
 */
import { type Static, type TProperties, type TSchema, Type } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { type ValueError, ValueErrorType } from "@sinclair/typebox/errors";
import { ruleInWords } from "../rule-words.ts";
import { MAX_UTILITIES, UtilitySchema } from "./utility-schema.ts";

const Uid = Type.String({ minLength: 1, maxLength: 128 });
const Time = Type.String({ maxLength: 64 });
const Envelope = {
  uid: Uid,
  client_start_time: Type.Optional(Time),
  // The Python SDK's request model has this field (always unset in practice): accepted and ignored.
  server_start_time: Type.Optional(Time),
};
/** A name that may be empty: `""` means "absent" (hoot's default). */
const OptionalName = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });
const Names = (description: string) => Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100, description });

export const ReferenceSchema = Type.Object(
  { reference: OptionalName(200, '"name" or "name@v2"; "default" or "" means hoot\'s default.') },
  { additionalProperties: false },
);

/**
 * The voice. `voice_id` and `speed` are honoured (an unknown voice falls back to the default child voice; speed is
 * clamped into 0.7..1.2, 0 = unset); the other providers' fields are accepted, stored and ignored.
 */
export const VoiceProfileSchema = Type.Object(
  {
    voice_id: Type.Optional(OptionalName(128, 'A voice of this server; "default", "" or an unknown voice means the default child voice.')),
    speed: Type.Optional(Type.Number({ description: "Clamped into 0.7..1.2; 0 means unset." })),
    pitch: Type.Optional(Type.Number({ minimum: 0, maximum: 2, description: "Multiplier of the voice's own pitch, 0.5..2 (1 = unchanged, 0 = unset)." })),
    // Other providers' fields (the hosted engine's SDKs send them; Unity sends the first four always, 0 when unset).
    provider: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Number()], { description: "Accepted and ignored." })),
    stability: Type.Optional(Type.Number({ description: "Accepted and ignored." })),
    similarity_boost: Type.Optional(Type.Number({ description: "Accepted and ignored." })),
    elevenlabs_model: Type.Optional(Type.String({ maxLength: 128, description: "Accepted and ignored." })),
    deepdub_model: Type.Optional(Type.String({ maxLength: 128, description: "Accepted and ignored." })),
    deepdub_tempo: Type.Optional(Type.Number({ description: "Accepted and ignored." })),
    deepdub_variance: Type.Optional(Type.Number({ description: "Accepted and ignored." })),
    deepdub_locale: Type.Optional(Type.String({ maxLength: 35, description: "Accepted and ignored." })),
    deepdub_accent_base_locale: Type.Optional(Type.String({ maxLength: 35, description: "Accepted and ignored." })),
    deepdub_accent_locale: Type.Optional(Type.String({ maxLength: 35, description: "Accepted and ignored." })),
    deepdub_accent_ratio: Type.Optional(Type.Number({ description: "Accepted and ignored." })),
    deepdub_clean_audio: Type.Optional(Type.Boolean({ description: "Accepted and ignored." })),
  },
  { additionalProperties: false },
);

/** An interact (or configuration) context: bounded by the message size, not per value; null values are absent. */
export const ContextSchema = Type.Record(
  Type.String({ maxLength: 100 }),
  Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.Unknown()), Type.Record(Type.String(), Type.Unknown())]),
  { maxProperties: 100, description: "Fills {{name}} in the prompt and is shown to the model; lists and objects are shown as JSON." },
);

const LANGUAGE = "^$|^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$";
const LANGUAGE_RULE = "a language code such as en or pt-BR";

export const ConfigSchema = Type.Object(
  {
    prompt: Type.String({ minLength: 1, maxLength: 20_000 }),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    safety_policy: Type.Optional(
      Type.Union([OptionalName(100), ReferenceSchema], { description: 'A policy name; "default" or "" means the strictest children\'s policy.' }),
    ),
    utilities: Type.Optional(
      Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.Union([UtilitySchema, Type.Null()]), {
        maxProperties: MAX_UTILITIES,
        description:
          'Utilities by name. A value may also be {"reference": "name"} or a name (a stored utility, resolved when the configuration is set) or null (none).',
      }),
    ),
    // A {"reference": …} here is resolved before the check (references.ts).
    voice_profile: Type.Optional(VoiceProfileSchema),
    audio_format: Type.Optional(Type.Union([Type.Literal("mp3"), Type.Literal("pcm16")])),
    language_code: Type.Optional(Type.String({ pattern: LANGUAGE, rule: LANGUAGE_RULE, maxLength: 35 })),
    debug: Type.Optional(Type.Boolean()),
    // Defaults for every interact (the Unity SDK sends them inside the configuration).
    context: Type.Optional(ContextSchema),
    audio_output: Type.Optional(Type.Boolean({ description: "Default of each interact's audio_output." })),
    subtitles: Type.Optional(Type.Boolean({ description: "Default false. When true, each audio message carries its words' timings (subtitles)." })),
    visemes: Type.Optional(
      Type.Boolean({ description: "Default false. When true, each audio message carries mouth shapes in time with its audio (visemes)." }),
    ),
    on_input: Type.Optional(Names("Default of each interact's on_input.")),
    on_input_non_blocking: Type.Optional(Names("Default of each interact's on_input_non_blocking.")),
    on_output: Type.Optional(Names("Default of each interact's on_output.")),
    // Voice input: audio arriving while the character speaks stops it once the child is heard speaking.
    barge_in: Type.Optional(
      Type.Boolean({
        description:
          "Default false. When true, add_audio in which the voice activity detector hears the child speaking while a reply is streaming interrupts that reply (the history keeps what was sent). Leave it off for devices without echo cancellation: the character's own voice would interrupt it.",
      }),
    ),
    // The app's own labels: stored and returned by get_configuration, otherwise ignored.
    app_name: Type.Optional(Type.String({ maxLength: 1000 })),
    app_description: Type.Optional(Type.String({ maxLength: 10_000 })),
    version: Type.Optional(Type.String({ maxLength: 100 })),
    format_version: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type SessionConfig = Static<typeof ConfigSchema>;

function requestSchema<K extends string, P extends TProperties>(kind: K, fields: P, description: string) {
  return Type.Object(
    { type: Type.Literal("request"), kind: Type.Literal(kind), ...Envelope, ...fields },
    { additionalProperties: false, title: `${kind} request`, description },
  );
}

const Base64 = (description: string) => Type.String({ contentEncoding: "base64", description });
const AudioConfig = Type.Object(
  {
    mime_type: Type.Optional(
      Type.String({ maxLength: 100, description: "Trusted only to mark raw PCM (audio/pcm, audio/l16, audio/raw); containers are recognised by their bytes." }),
    ),
    sampling_rate: Type.Optional(
      Type.Integer({ minimum: 0, description: "The rate of raw PCM (default 16000); ignored for containers, which say their own." }),
    ),
  },
  { additionalProperties: false, description: "The audio's format." },
);

/** `render_prompt` and `run`, as the hosted engine's SDKs send them (ug-python-sdk messages.py). */
function UtilityRequestSchemas() {
  const AnyContext = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), {
    maxProperties: 100,
    description: "Fills {{name}}; strings, numbers and booleans as they are, other values as JSON, null left out.",
  });
  return {
    render_prompt: requestSchema(
      "render_prompt",
      { context: Type.Optional(AnyContext) },
      "Answers the configured prompt with its {{name}} placeholders filled from the context.",
    ),
    run: requestSchema(
      "run",
      {
        utilities: Type.Optional(Type.Array(Type.String(), { maxItems: 32, description: "Names of configured utilities to run." })),
        context: Type.Optional(AnyContext),
        bindings: Type.Optional(
          Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 4000 }), {
            maxProperties: 100,
            description:
              '"input": the child\'s words to look at, "output": the character\'s words to look at (default: the last message of the conversation); any other name fills {{name}} like context.',
          }),
        ),
      },
      "Runs utilities without a reply; answers their results by name.",
    ),
  };
}

export const RequestSchemas = {
  authenticate: requestSchema(
    "authenticate",
    { access_token: Type.String({ minLength: 1, maxLength: 4096, description: "A player access token from POST /api/auth/login." }) },
    "Authenticates the socket as a player; may be sent again later with a fresh token of the same player.",
  ),
  ping: requestSchema("ping", {}, "Checks that the server answers; allowed before authentication."),
  set_configuration: requestSchema(
    "set_configuration",
    { config: Type.Unknown({ description: "The whole configuration (see the configuration schema)." }) },
    "Replaces the whole configuration.",
  ),
  merge_configuration: requestSchema(
    "merge_configuration",
    {
      config: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), {
          description: "A partial configuration, deep-merged into the current one (after `references`); null removes a field.",
        }),
      ),
      references: Type.Optional(
        Type.Array(Type.Object({ reference: Type.String({ maxLength: 200 }) }, { additionalProperties: false }), {
          maxItems: 32,
          description: "Stored configurations of the team, merged in order.",
        }),
      ),
    },
    "Deep-merges stored configurations (references) and a partial configuration into the current one.",
  ),
  get_configuration: requestSchema("get_configuration", {}, "Asks for the current configuration."),
  interrupt: requestSchema(
    "interrupt",
    {
      target_uid: Uid,
      at_character: Type.Optional(Type.Integer({ minimum: 0, description: "How much of the reply the client used; the history keeps only that much." })),
    },
    "Stops a running interaction at once; its stream sends its close.",
  ),
  interact: Type.Object(
    {
      type: Type.Literal("stream"),
      kind: Type.Literal("interact"),
      ...Envelope,
      text: Type.Optional(
        Type.String({ description: 'The child\'s words; "." asks the character to speak without new input; absent or empty means the buffered voice.' }),
      ),
      context: Type.Optional(ContextSchema),
      audio_output: Type.Optional(Type.Boolean({ description: "Synthesize speech (default: the configuration's, else true)." })),
      subtitles: Type.Optional(Type.Boolean({ description: "Word timings on this turn's audio (default: the configuration's, else false)." })),
      visemes: Type.Optional(Type.Boolean({ description: "Mouth shapes on this turn's audio (default: the configuration's, else false)." })),
      on_input: Type.Optional(Names("Configured utilities to run on the input before the reply; their answers fill {{name}} in the prompt.")),
      on_input_non_blocking: Type.Optional(Names("Configured utilities to run on the input beside the reply.")),
      on_output: Type.Optional(Names("Configured utilities to run on the reply.")),
      language_code: Type.Optional(
        Type.String({ pattern: LANGUAGE, rule: LANGUAGE_RULE, maxLength: 35, description: "The turn's language (default: the configuration's)." }),
      ),
      speakers: Type.Optional(
        Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100, description: "Accepted and ignored (speaker identification is not served)." }),
      ),
    },
    {
      additionalProperties: false,
      title: "interact stream",
      description: "Starts an interaction: the reply streams back as events with this uid, then the stream's close.",
    },
  ),
  get_available_models: requestSchema("get_available_models", {}, "Lists the language models this server serves."),
  set_service_profile: requestSchema(
    "set_service_profile",
    { service_profile: OptionalName(100, '"default", "" or a name from get_available_models.') },
    "Picks the model this session uses.",
  ),
  // Voice input (src/interact/voice.ts).
  add_audio: requestSchema(
    "add_audio",
    {
      audio: Base64(
        "A chunk of the child's voice: WAV, Ogg (Vorbis or Opus), WebM/Opus or MP3, recognised by its bytes, or 16-bit little-endian PCM when mime_type says audio/pcm. Line breaks are ignored.",
      ),
      config: Type.Optional(AudioConfig),
    },
    "Appends to the session's audio buffer.",
  ),
  clear_audio: requestSchema("clear_audio", {}, "Empties the session's audio buffer (succeeds when it is empty)."),
  check_turn: requestSchema("check_turn", {}, "Asks whether the child is still speaking."),
  transcribe: requestSchema(
    "transcribe",
    {
      language_code: Type.Optional(
        Type.String({ pattern: LANGUAGE, rule: LANGUAGE_RULE, maxLength: 35, description: "The language spoken (default: the configuration's, else en)." }),
      ),
    },
    "Transcribes the buffered audio without consuming it.",
  ),
  // The hosted engine's other kinds, which hoot does not serve.
  add_keywords: requestSchema("add_keywords", { keywords: Names("Keywords.") }, "Keyword spotting (not served)."),
  remove_keywords: requestSchema("remove_keywords", { keywords: Names("Keywords.") }, "Keyword spotting (not served)."),
  detect_keywords: requestSchema("detect_keywords", {}, "Keyword spotting (not served)."),
  add_speaker: requestSchema(
    "add_speaker",
    { speaker: Type.String({ maxLength: 100 }), audio: Base64("A sample of the speaker's voice.") },
    "Speaker identification (not served).",
  ),
  remove_speakers: requestSchema("remove_speakers", { speakers: Names("Speakers.") }, "Speaker identification (not served)."),
  detect_speakers: requestSchema("detect_speakers", {}, "Speaker identification (not served)."),
  generate_image: requestSchema(
    "generate_image",
    {
      prompt: Type.String({ maxLength: 20_000 }),
      provider: Type.Optional(Type.String({ maxLength: 64 })),
      negative_prompt: Type.Optional(Type.String({ maxLength: 20_000 })),
      aspect_ratio: Type.Optional(Type.String({ maxLength: 32 })),
      seed: Type.Optional(Type.Integer()),
      inference_steps: Type.Optional(Type.Integer()),
      generation_type: Type.Optional(Type.String({ maxLength: 64 })),
      model: Type.Optional(Type.String({ maxLength: 200 })),
      image: Type.Optional(Base64("An image prompt.")),
      strength: Type.Optional(Type.Number()),
      guidance_scale: Type.Optional(Type.Number()),
      lora_weights: Type.Optional(Type.String({ maxLength: 1000 })),
      lora_scale: Type.Optional(Type.Number()),
    },
    "Image generation (not served).",
  ),
  ...UtilityRequestSchemas(),
};

/**
 * The client ending one of its own streams (streams are symmetrical in the hosted engine's protocol). Never
 * answered; the session reads only `type`, `kind` and `uid`, so anything else in it is ignored.
 */
export const ClientStreamEndSchema = Type.Object(
  {
    type: Type.Literal("stream"),
    kind: Type.Union([Type.Literal("close"), Type.Literal("error")]),
    uid: Uid,
    error: Type.Optional(Type.String({ description: "Why, for a stream error." })),
  },
  {
    title: "client stream end",
    description: "Stops the running interaction with this uid at once; nothing more is sent with it. Ignored for a uid that is not running.",
  },
);

export type RequestKind = keyof typeof RequestSchemas;
export type RequestOf<K extends RequestKind> = Static<(typeof RequestSchemas)[K]>;
/** Any valid request, discriminated by `kind`. */
export type ClientRequest = { [K in RequestKind]: RequestOf<K> }[RequestKind];

// A Map, so a client's `kind` can only ever find a schema (never "constructor" or "__proto__"). Each schema is
// compiled on its kind's first request, not at start-up.
const schemas = new Map<string, TSchema>(Object.entries(RequestSchemas));
const checks = new Map<string, TypeCheck<TSchema>>();
let configCheck: TypeCheck<TSchema> | null = null;

function compiledCheck(kind: string): TypeCheck<TSchema> {
  let compiled = checks.get(kind);
  if (!compiled) checks.set(kind, (compiled = TypeCompiler.Compile(schemas.get(kind) as TSchema)));
  return compiled;
}

/** Whether `kind` names a request this server knows. */
export function isKnownKind(kind: unknown): kind is RequestKind {
  return typeof kind === "string" && schemas.has(kind);
}

/**
 * The typed request, or a sentence naming the first bad field. Null fields are dropped first (null means absent),
 * except inside a `config` (merge_configuration removes a field with null; checkConfig drops the rest).
 */
export function checkRequest(kind: RequestKind, value: unknown): { ok: true; value: ClientRequest } | { ok: false; error: string } {
  return check(compiledCheck(kind), withoutNulls(value, ["config", "utilities"]), "") as { ok: true; value: ClientRequest } | { ok: false; error: string };
}

/** The typed configuration (null fields dropped, except inside `utilities`), or a sentence naming the first bad field (as `config.<field>`). */
export function checkConfig(value: unknown): { ok: true; value: SessionConfig } | { ok: false; error: string } {
  return check((configCheck ??= TypeCompiler.Compile(ConfigSchema)), withoutNulls(value, ["utilities"]), "config") as
    | { ok: true; value: SessionConfig }
    | { ok: false; error: string };
}

/**
 * A copy of `value` without the object keys whose value is null ("null means absent"), at any depth, except
 * below the keys named in `keep`. Arrays are left as they are. Built with Object.fromEntries, so a key such as
 * "__proto__" stays an ordinary key (and is refused by the schema).
 * @example withoutNulls({ a: null, b: { c: null, d: 1 } }, []) // { b: { d: 1 } }
 */
export function withoutNulls(value: unknown, keep: readonly string[]): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value).filter(([, v]) => v !== null);
  return Object.fromEntries(entries.map(([k, v]) => [k, keep.includes(k) ? v : withoutNulls(v, keep)]));
}

function check(compiled: TypeCheck<TSchema>, value: unknown, root: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (compiled.Check(value)) return { ok: true, value };
  const found = compiled.Errors(value).First();
  if (!found) return { ok: false, error: "the message is not valid" };
  const first = explain(found);
  const path = [root, ...first.path.split("/").filter(Boolean)].filter(Boolean).join(".");
  // TypeBox reports an additional property at the extra key's own path.
  if (first.type === ValueErrorType.ObjectAdditionalProperties) return { ok: false, error: `unknown field "${path}"` };
  if (first.type === ValueErrorType.ObjectRequiredProperty) return { ok: false, error: `field "${path}" is required` };
  return { ok: false, error: `field "${path || "message"}" ${ruleInWords(first)}` };
}

// On a tie in depth, a wrong value beats an unknown key, which beats a missing one: the sentence then names the
// field the client most likely meant ({reference: 5} is a bad reference, {colour: 1} an unknown voice field).
const RANK = new Map<ValueErrorType, number>([
  [ValueErrorType.ObjectRequiredProperty, 0],
  [ValueErrorType.ObjectAdditionalProperties, 1],
]);

/** For a value that matches no member of a union, the member's error that reaches deepest into the value. */
function explain(error: ValueError): ValueError {
  if (error.type !== ValueErrorType.Union) return error;
  let best: ValueError | null = null;
  for (const variant of error.errors) {
    const candidate = variant.First();
    if (!candidate || depth(candidate) <= depth(error)) continue;
    const deeper = !best || depth(candidate) > depth(best);
    const tie = best && depth(candidate) === depth(best) && (RANK.get(candidate.type) ?? 2) > (RANK.get(best.type) ?? 2);
    if (deeper || tie) best = candidate;
  }
  return best ? explain(best) : error;
}

function depth(error: ValueError): number {
  return error.path.split("/").filter(Boolean).length;
}
