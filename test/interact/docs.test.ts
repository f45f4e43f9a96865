/**
 * The websocket half of the docs cannot drift from the wire: the AsyncAPI document is valid AsyncAPI 3 and
 * names every message the schemas define, and the protocol tables of docs/interact.md list exactly the requests, fields,
 * events, error codes and close codes of those same schemas.
 */
import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Parser } from "@asyncapi/parser";
import { ERROR_CODES } from "../../src/errors.ts";
import { ConfigSchema, type RequestKind, RequestSchemas, VoiceProfileSchema } from "../../src/interact/model.ts";
import { EventSchemas, FATAL, ResponseSchemas } from "../../src/interact/protocol.ts";
import { api, serverForFile } from "../helpers/server.ts";

const file = serverForFile();
const PAGE = readFileSync(join(import.meta.dir, "../../docs/interact.md"), "utf8");
const ENVELOPE = new Set(["type", "kind", "uid", "client_start_time", "server_start_time", "server_end_time", "event"]);

/** The rows of the `nth` table (from 0) under the heading `## <title>` of docs/interact.md, as cells. */
function table(title: string, nth = 0): string[][] {
  const section = PAGE.slice(PAGE.indexOf("# The interact websocket\n"));
  const start = section.indexOf(`\n## ${title}\n`);
  expect(start).toBeGreaterThan(-1);
  const body = section.slice(start + 2);
  const lines = body.slice(0, body.search(/\n##/) + 1 || undefined).split("\n");
  const tables: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith("|") || lines[i - 1]?.startsWith("|")) continue;
    const rows: string[] = [];
    for (let j = i; j < lines.length && lines[j]!.startsWith("|"); j++) rows.push(lines[j]!);
    tables.push(rows);
  }
  expect(tables.length).toBeGreaterThan(nth);
  return tables[nth]!.slice(2).map((row) =>
    row
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim()),
  );
}

/** `a`, `b?` -> ["a", "b?"] */
const names = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

/** A schema's own fields, `?` marking the optional ones. */
function fields(schema: { properties: Record<string, unknown>; required?: string[] }): string[] {
  return Object.keys(schema.properties)
    .filter((key) => !ENVELOPE.has(key))
    .map((key) => (schema.required?.includes(key) ? key : `${key}?`));
}

describe("docs/interact.md, the protocol page", () => {
  it("lists every request kind with its type, fields and answer fields", () => {
    const rows = table("Requests");
    expect(rows.map((r) => names(r[0]!)[0]).sort()).toEqual(Object.keys(RequestSchemas).sort());
    for (const [kindCell, typeCell, fieldsCell, answerCell] of rows) {
      const kind = names(kindCell!)[0] as RequestKind;
      const schema = RequestSchemas[kind];
      expect({ kind, type: names(typeCell!)[0] }).toEqual({ kind, type: (schema.properties.type as { const: string }).const });
      expect({ kind, fields: names(fieldsCell!) }).toEqual({ kind, fields: fields(schema) });
      if (kind === "interact") continue;
      // A kind with no response schema is not served (yet): its row says it is answered with unsupported_request.
      const answer = kind in ResponseSchemas ? fields(ResponseSchemas[kind as keyof typeof ResponseSchemas]) : ["unsupported_request"];
      expect({ kind, answer: names(answerCell!) }).toEqual({ kind, answer });
    }
  });

  it("lists every configuration field and every voice profile field", () => {
    expect(table("Configuration").map((r) => names(r[0]!)[0])).toEqual(Object.keys(ConfigSchema.properties));
    expect(table("Configuration", 1).map((r) => names(r[0]!)[0])).toEqual(Object.keys(VoiceProfileSchema.properties));
  });

  it("lists every event with its fields", () => {
    const rows = table("Events");
    expect(rows.map((r) => names(r[0]!)[0])).toEqual(Object.keys(EventSchemas));
    for (const [eventCell, fieldsCell] of rows) {
      const event = names(eventCell!)[0] as keyof typeof EventSchemas;
      expect({ event, fields: names(fieldsCell!) }).toEqual({ event, fields: fields(EventSchemas[event]) });
    }
  });

  it("lists exactly the error codes of src/errors.ts", () => {
    expect(
      table("Error codes")
        .map((r) => names(r[0]!)[0])
        .sort(),
    ).toEqual([...ERROR_CODES].sort());
  });

  it("lists every close with the code that announces it", () => {
    const rows = table("Close codes").map((r) => `${r[0]} ${names(r[1]!)[0]}`);
    expect(rows.sort()).toEqual(
      Object.entries(FATAL)
        .map(([code, { close }]) => `${close} ${code}`)
        .sort(),
    );
  });
});

describe("AsyncAPI document", () => {
  it("is served beside the OpenAPI document, which links to it", async () => {
    const res = await api(file.server.url, "GET", "/api/asyncapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body.asyncapi).toBe("3.0.0");
    const openapi = await api(file.server.url, "GET", "/api/openapi.json");
    expect(openapi.body.externalDocs).toMatchObject({ url: "/api/asyncapi.json" });
    expect(Object.keys(openapi.body.paths)).not.toContain("/api/asyncapi.json");
  });

  it("is valid AsyncAPI 3 and names every request, response, event and close", async () => {
    const { body } = await api(file.server.url, "GET", "/api/asyncapi.json");
    const diagnostics = await new Parser().validate(JSON.stringify(body));
    // Severity 0 is an error (1 warning, 2 information, 3 hint).
    expect(diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join(".")}: ${d.message}`)).toEqual([]);
    const messages = Object.keys(body.components.messages);
    for (const kind of Object.keys(RequestSchemas)) expect(messages).toContain(`${kind}_request`);
    for (const kind of Object.keys(ResponseSchemas)) expect(messages).toContain(`${kind}_response`);
    for (const event of Object.keys(EventSchemas)) expect(messages).toContain(`${event}_event`);
    expect(messages).toEqual(expect.arrayContaining(["error_response", "stream_error", "stream_close", "connection_error"]));
    expect(body["x-close-codes"]).toHaveLength(Object.keys(FATAL).length);
    expect(body.components.messages.set_configuration_request.payload.properties.config.properties.prompt).toMatchObject({ type: "string" });
  }, 30_000);

  it("shows the speech marks of audio events: duration_sec, words, the 15 visemes and where they come from", async () => {
    const { body } = await api(file.server.url, "GET", "/api/asyncapi.json");
    const audio = body.components.messages.audio_event.payload;
    expect(audio.required).toContain("duration_sec");
    expect(audio.required).not.toContain("visemes");
    expect(Object.keys(audio.properties.subtitles.items.properties)).toEqual(["text", "start_time_sec", "duration_sec"]);
    const ids = audio.properties.visemes.items.properties.viseme.anyOf.map((s: { const: string }) => s.const);
    expect(ids).toEqual(["sil", "PP", "FF", "TH", "DD", "kk", "CH", "SS", "nn", "RR", "aa", "E", "I", "O", "U"]);
    expect(audio.properties.marks.anyOf.map((s: { const: string }) => s.const)).toEqual(["engine", "estimated"]);
    const config = body.components.messages.set_configuration_request.payload.properties.config.properties;
    expect([config.subtitles.type, config.visemes.type]).toEqual(["boolean", "boolean"]);
  });
});
