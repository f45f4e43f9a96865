/**
 * The interact protocol's shapes (PROTOCOL.md section 2) as TypeBox schemas, and the checks that turn a
 * raw message into a typed request or a sentence naming what is wrong.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { ValueErrorType } from "@sinclair/typebox/errors";

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
    utilities: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown())),
    voice_profile: Type.Optional(VoiceProfileSchema),
    audio_format: Type.Optional(Type.Union([Type.Literal("mp3"), Type.Literal("pcm16")])),
    language_code: Type.Optional(Type.String({ pattern: "^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$", maxLength: 35 })),
    debug: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type SessionConfig = Static<typeof ConfigSchema>;

const ContextValue = Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean()]);

export const RequestSchemas = {
  authenticate: Type.Object({ type: Type.Literal("request"), kind: Type.Literal("authenticate"), ...Envelope, access_token: Type.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: false }),
  ping: Type.Object({ type: Type.Literal("request"), kind: Type.Literal("ping"), ...Envelope }, { additionalProperties: false }),
  set_configuration: Type.Object({ type: Type.Literal("request"), kind: Type.Literal("set_configuration"), ...Envelope, config: Type.Unknown() }, { additionalProperties: false }),
  merge_configuration: Type.Object({ type: Type.Literal("request"), kind: Type.Literal("merge_configuration"), ...Envelope, config: Type.Record(Type.String(), Type.Unknown()) }, { additionalProperties: false }),
  get_configuration: Type.Object({ type: Type.Literal("request"), kind: Type.Literal("get_configuration"), ...Envelope }, { additionalProperties: false }),
  interrupt: Type.Object(
    { type: Type.Literal("request"), kind: Type.Literal("interrupt"), ...Envelope, target_uid: Uid, at_character: Type.Optional(Type.Integer({ minimum: 0 })) },
    { additionalProperties: false },
  ),
  interact: Type.Object(
    {
      type: Type.Literal("stream"),
      kind: Type.Literal("interact"),
      ...Envelope,
      text: Type.String(),
      context: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), ContextValue, { maxProperties: 100 })),
      audio_output: Type.Optional(Type.Boolean()),
      on_input: Type.Optional(Type.Array(Type.String())),
      on_input_non_blocking: Type.Optional(Type.Array(Type.String())),
      on_output: Type.Optional(Type.Array(Type.String())),
    },
    { additionalProperties: false },
  ),
};

export type RequestKind = keyof typeof RequestSchemas;
export type RequestOf<K extends RequestKind> = Static<(typeof RequestSchemas)[K]>;

const checks = Object.fromEntries(Object.entries(RequestSchemas).map(([k, s]) => [k, TypeCompiler.Compile(s)])) as { [K in RequestKind]: TypeCheck<(typeof RequestSchemas)[K]> };
const configCheck = TypeCompiler.Compile(ConfigSchema);

/** Whether `kind` names a request this server knows. */
export function isKnownKind(kind: unknown): kind is RequestKind {
  return typeof kind === "string" && Object.hasOwn(RequestSchemas, kind);
}

/** The typed request, or a sentence naming the first bad field. */
export function checkRequest<K extends RequestKind>(kind: K, value: unknown): { ok: true; value: RequestOf<K> } | { ok: false; error: string } {
  return check(checks[kind] as TypeCheck<TSchema>, value, "") as { ok: true; value: RequestOf<K> } | { ok: false; error: string };
}

/** The typed configuration, or a sentence naming the first bad field (as `config.<field>`). */
export function checkConfig(value: unknown): { ok: true; value: SessionConfig } | { ok: false; error: string } {
  return check(configCheck, value, "config") as { ok: true; value: SessionConfig } | { ok: false; error: string };
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

/** Deep-merges `patch` into `base` (objects merge, everything else replaces; null removes a key). */
export function deepMerge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    if (value === null && key !== "safety_policy") delete out[key];
    else if (isPlainObject(value) && isPlainObject(current)) out[key] = deepMerge(current, value);
    else out[key] = value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
