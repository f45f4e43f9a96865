/**
 * Validation answers say the rule in words (issue 24), through the real server: ranges, whole numbers given as
 * text, and a range failure Elysia reports without the field's name.
 */
import { describe, expect, it } from "bun:test";
import { api, serverForFile } from "../helpers/server.ts";

const file = serverForFile();

describe("validation answers in words", () => {
  it.each([
    ["/api/players?limit=abc", 'Field "limit" in the request query must be a whole number from 1 to 1000.'],
    ["/api/players?limit=0", "A value in the request query must be at least 1."],
    ["/api/players?limit=5000", "A value in the request query must be at most 1000."],
    ["/api/safety/incidents?player_pk=-3", 'Field "player_pk" in the request query must be a positive whole number.'],
  ])("GET %s says: %s", async (path, sentence) => {
    const res = await api(file.server.url, "GET", path, { token: file.team.developerToken });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: sentence, code: "invalid_request" });
  });

  it("names a body field's length and type rules", async () => {
    const token = file.team.developerToken;
    const long = await api(file.server.url, "POST", "/api/players", { token, body: { external_id: "x".repeat(300) } });
    expect(long.body).toEqual({ error: 'Field "external_id" in the request body must be at most 256 characters long.', code: "invalid_request" });
    const wrongType = await api(file.server.url, "POST", "/api/players", { token, body: { external_id: 7 } });
    expect(wrongType.body).toEqual({ error: 'Field "external_id" in the request body must be text.', code: "invalid_request" });
  });
});
