/**
 * What clients send on the interact socket (PROTOCOL.md section 2) as TypeBox schemas: the configuration and
 * one schema per request kind. `checkRequest` turns a raw message into a `ClientRequest` (a union discriminated
 * by `kind`) or a sentence naming the first bad field. A new request kind is one more entry in RequestSchemas
 * and one more case in the session's switch (the compiler points at it).
 */
import { Type, type Static, type TProperties, type TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { MAX_UTILITIES, UtilitySchema } from "./utility-schema.ts";

const Uid = Type.String({ minLength: 1, maxLength: 128 });
const Time = Type.String({ maxLength: 64 });
const Envelope = {
  uid: Uid,
  client_start_time: Type.Optional(Time),
};

export const VoiceProfileSchema = Type.Object(
  {
    voice_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    speed: Type.Optional(Type.Number({ minimum: 0.7, maximum: 1.2 })),
    pitch: Type.Optional(Type.Number({ minimum: 0.5, maximum: 2, description: "multiplier of the voice's own pitch (1 = unchanged)" })),
  },
  { additionalProperties: false },
);

const Reference = Type.Object({ reference: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const ConfigSchema = Type.Object(
  {
    prompt: Type.String({ minLength: 1, maxLength: 20_000 }),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    safety_policy: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Reference, Type.Null()])),
    utilities: Type.Optional(
      Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.Union([UtilitySchema, Type.Null()]), {
        maxProperties: MAX_UTILITIES,
        description: 'Utilities by name. A value may also be {"reference": "name"} or a name (a stored utility, resolved when the configuration is set) or null (none).',
      }),
    ),
    voice_profile: Type.Optional(VoiceProfileSchema),
    audio_format: Type.Optional(Type.Union([Type.Literal("mp3"), Type.Literal("pcm16")])),
    language_code: Type.Optional(Type.String({ pattern: "^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$", maxLength: 35 })),
    debug: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type SessionConfig = Static<typeof ConfigSchema>;

const ContextValue = Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean()]);

function requestSchema<K extends string, P extends TProperties>(kind: K, fields: P, description: string) {
  return Type.Object({ type: Type.Literal("request"), kind: Type.Literal(kind), ...Envelope, ...fields }, { additionalProperties: false, title: `${kind} request`, description });
}

/** `render_prompt` and `run`, as the hosted engine's SDKs send them (ug-python-sdk messages.py). */
function UtilityRequestSchemas() {
  const AnyContext = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { maxProperties: 100, description: "Fills {{name}}; strings, numbers and booleans as they are, other values as JSON, null left out." });
  return {
    render_prompt: requestSchema("render_prompt", { context: Type.Optional(AnyContext) }, "Answers the configured prompt with its {{name}} placeholders filled from the context."),
    run: requestSchema(
      "run",
      {
        utilities: Type.Optional(Type.Array(Type.String(), { maxItems: 32, description: "Names of configured utilities to run." })),
        context: Type.Optional(AnyContext),
        bindings: Type.Optional(
          Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 4000 }), {
            maxProperties: 100,
            description: '"input": the child\'s words to look at, "output": the character\'s words to look at (default: the last message of the conversation); any other name fills {{name}} like context.',
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
  set_configuration: requestSchema("set_configuration", { config: Type.Unknown({ description: "The whole configuration (see the configuration schema)." }) }, "Replaces the whole configuration."),
  merge_configuration: requestSchema(
    "merge_configuration",
    {
      config: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "A partial configuration, deep-merged into the current one (after `references`); null removes a field." })),
      references: Type.Optional(Type.Array(Type.Object({ reference: Type.String({ maxLength: 200 }) }, { additionalProperties: false }), { maxItems: 32, description: "Stored configurations of the team, merged in order." })),
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
      text: Type.String({ description: 'The child\'s words; "." asks the character to speak without new input.' }),
      context: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), ContextValue, { maxProperties: 100, description: "Fills {{name}} in the prompt and is shown to the model." })),
      audio_output: Type.Optional(Type.Boolean({ description: "Synthesize speech (default true)." })),
      on_input: Type.Optional(Type.Array(Type.String(), { description: "Configured utilities to run on the input before the reply; their answers fill {{name}} in the prompt." })),
      on_input_non_blocking: Type.Optional(Type.Array(Type.String(), { description: "Configured utilities to run on the input beside the reply." })),
      on_output: Type.Optional(Type.Array(Type.String(), { description: "Configured utilities to run on the reply." })),
    },
    { additionalProperties: false, title: "interact stream", description: "Starts an interaction: the reply streams back as events with this uid, then the stream's close." },
  ),
  ...UtilityRequestSchemas(),
};

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

/** The typed request, or a sentence naming the first bad field. */
export function checkRequest(kind: RequestKind, value: unknown): { ok: true; value: ClientRequest } | { ok: false; error: string } {
  return check(compiledCheck(kind), value, "") as { ok: true; value: ClientRequest } | { ok: false; error: string };
}

/** The typed configuration, or a sentence naming the first bad field (as `config.<field>`). */
export function checkConfig(value: unknown): { ok: true; value: SessionConfig } | { ok: false; error: string } {
  return check((configCheck ??= TypeCompiler.Compile(ConfigSchema)), value, "config") as { ok: true; value: SessionConfig } | { ok: false; error: string };
}

function check(compiled: TypeCheck<TSchema>, value: unknown, root: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (compiled.Check(value)) return { ok: true, value };
  const first = compiled.Errors(value).First();
  if (!first) return { ok: false, error: "the message is not valid" };
  const path = [root, ...first.path.split("/").filter(Boolean)].filter(Boolean).join(".");
  // TypeBox reports an additional property at the extra key's own path.
  if (first.type === ValueErrorType.ObjectAdditionalProperties) return { ok: false, error: `unknown field "${path}"` };
  if (first.type === ValueErrorType.ObjectRequiredProperty) return { ok: false, error: `field "${path}" is required` };
  return { ok: false, error: `field "${path || "message"}" is not valid: ${first.message.toLowerCase()}` };
}
