/**
 * The node:crypto HS256 signer and verifier (src/auth/hs256.ts) held to the `@elysiajs/jwt` plugin itself,
 * the app's JWT plugin, with fast-check:
 * - for the same claims at the same second, its tokens are byte for byte the plugin's;
 * - on every token (genuine, expired, missing claims, other headers and algorithms, other keys, altered
 *   characters, payloads that are not objects) the token service accepts exactly what the plugin accepts with
 *   the service's pinned options (HS256 only, exp and our claims required, 30 s tolerance) and the claims
 *   schema, to the same claims; and the node:crypto verifier alone, wherever it decides, decides as the plugin.
 */
import { afterEach, describe, expect, it, setSystemTime } from "bun:test";
import { createHmac } from "node:crypto";
import { jwt } from "@elysiajs/jwt";
import { Value } from "@sinclair/typebox/value";
import fc from "fast-check";
import { createHs256 } from "../../src/auth/hs256.ts";
import { createTokenService, REQUIRED_CLAIMS, TokenClaims } from "../../src/auth/tokens.ts";

const KEY = new Uint8Array(32).fill(7);
const OTHER_KEY = new Uint8Array(32).fill(9);
const TOLERANCE = 30;
const plugin = (key: Uint8Array = KEY) => jwt({ name: "jwt", secret: key, alg: "HS256" }).decorator.jwt;
const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");
const hmac = (input: string, key: Uint8Array = KEY) => createHmac("sha256", key).update(input).digest("base64url");
const now = () => Math.floor(Date.now() / 1000);

/** What the service did with the plugin alone: the compact shape, the plugin's verify with pinned options, the schema. */
async function pluginVerify(token: string): Promise<TokenClaims | null> {
  if (token.length > 4096 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/.test(token)) return null;
  const payload = await plugin().verify(token, { algorithms: ["HS256"], requiredClaims: [...REQUIRED_CLAIMS], clockTolerance: TOLERANCE });
  return payload && Value.Check(TokenClaims, payload) ? (payload as TokenClaims) : null;
}

afterEach(() => setSystemTime());

const validClaims = fc.record(
  {
    typ: fc.constantFrom("developer", "service", "player", "operator"),
    sub: fc.integer({ min: 1, max: 999_999_999_999_999 }).map(String),
    tid: fc.integer({ min: 0, max: 2 ** 31 }),
    ver: fc.integer({ min: 1, max: 2 ** 31 }),
    sa: fc.integer({ min: 1, max: 2 ** 31 }),
  },
  { requiredKeys: ["typ", "sub", "tid", "ver"] },
);

describe("HS256 on node:crypto against @elysiajs/jwt", () => {
  it("signs byte for byte what the plugin signs for the same claims at the same second", async () => {
    const hs = createHs256(KEY);
    const signer = plugin();
    await fc.assert(
      fc.asyncProperty(
        validClaims,
        fc.uuid(),
        fc.integer({ min: 1_700_000_000_000, max: 2_500_000_000_000 }),
        fc.integer({ min: 1, max: 86_400 }),
        async (claims, jti, at, ttl) => {
          setSystemTime(new Date(at));
          const exp = Math.floor(at / 1000) + ttl;
          const theirs = await signer.sign({ ...claims, exp, jti });
          expect(hs.sign({ ...claims, jti }, exp, at)).toBe(theirs);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("accepts exactly the tokens the plugin accepts, to the same claims", async () => {
    const hs = createHs256(KEY);
    const service = createTokenService(KEY, 3600, TOLERANCE, 0);
    // Offsets stay clear of the tolerance edge, where a second ticking between the two checks would differ.
    const time = fc.oneof(fc.integer({ min: -5000, max: -32 }), fc.integer({ min: -28, max: 5000 })).map((o) => now() + o);
    const field = <T>(value: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: value, weight: 20 }, fc.constant(undefined), fc.string(), fc.constant(null), fc.double(), fc.boolean());
    const claims = fc.record({
      typ: field(fc.constantFrom("developer", "service", "player", "operator", "admin")),
      sub: field(fc.oneof(fc.integer({ min: 0, max: 10 ** 15 - 1 }).map(String), fc.constant("12a"))),
      tid: field(fc.integer({ min: -1, max: 1000 })),
      ver: field(fc.integer({ min: 0, max: 1000 })),
      sa: fc.oneof(fc.constant(undefined), field(fc.integer({ min: 0, max: 1000 }))),
      exp: field(time),
      nbf: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, field(time)),
      iat: fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, field(time)),
      jti: fc.oneof(fc.constant(undefined), fc.uuid()),
      extra: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, fc.jsonValue()),
    });
    const header = fc.oneof(
      { arbitrary: fc.constant({ alg: "HS256", typ: "JWT" }), weight: 12 },
      fc.constantFrom<unknown>(
        { alg: "HS256" },
        { typ: "JWT", alg: "HS256" },
        { alg: "HS256", typ: "JWT", kid: "k1" },
        { alg: "none", typ: "JWT" },
        { alg: "HS512", typ: "JWT" },
        { alg: "RS256", typ: "JWT" },
        { alg: "HS256", crit: ["exp"], exp: 1 },
        { alg: "HS256", b64: false, crit: ["b64"] },
        ["HS256"],
        "HS256",
      ),
    );
    const payloadText = fc.oneof(
      { arbitrary: claims.map((c) => JSON.stringify(c)), weight: 12 },
      fc.constantFrom("[1,2]", "null", "42", '"x"', "{", '{"exp":1e400}', "\u00ff"),
      fc.jsonValue().map((v) => JSON.stringify(v)),
    );
    const tamper = fc.oneof(
      { arbitrary: fc.constant("none" as const), weight: 20 },
      fc.constant("other-key" as const),
      fc.tuple(fc.nat(), fc.constantFrom(..."AQgw09_-.=")),
      fc.constant("raw-bytes" as const),
    );
    const decisions = { accepted: 0, refused: 0, decidedHere: 0 };
    await fc.assert(
      fc.asyncProperty(header, payloadText, tamper, async (h, text, how) => {
        const payload = how === "raw-bytes" ? Buffer.from([0xc3, 0x28, 0x7b]).toString("base64url") : b64(text);
        const input = `${b64(h)}.${payload}`;
        let token = `${input}.${hmac(input, how === "other-key" ? OTHER_KEY : KEY)}`;
        if (Array.isArray(how)) token = token.slice(0, how[0] % token.length) + how[1] + token.slice((how[0] % token.length) + 1);
        const expected = await pluginVerify(token);
        expect(await service.verify(token)).toEqual(expected);
        // The node:crypto verifier alone: wherever it decides (the plugin's header), it decides as the plugin.
        const verdict = hs.verify(token, REQUIRED_CLAIMS, TOLERANCE);
        if (verdict !== "unsure" && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/.test(token)) {
          decisions.decidedHere++;
          const raw = await plugin().verify(token, { algorithms: ["HS256"], requiredClaims: [...REQUIRED_CLAIMS], clockTolerance: TOLERANCE });
          expect(verdict.ok ? verdict.payload : false).toEqual(raw);
        }
        decisions[expected ? "accepted" : "refused"]++;
      }),
      { numRuns: 1500 },
    );
    expect(decisions.accepted).toBeGreaterThan(20);
    expect(decisions.refused).toBeGreaterThan(50);
    expect(decisions.decidedHere).toBeGreaterThan(500);
  });

  it("pins HS256 and requires exp, whichever verifier decides", async () => {
    const service = createTokenService(KEY, 3600, TOLERANCE);
    const claims = { typ: "developer", sub: "5", tid: 1, ver: 1 };
    const signed = (header: unknown, body: unknown) => {
      const input = `${b64(header)}.${b64(body)}`;
      return `${input}.${hmac(input)}`;
    };
    const canonical = { alg: "HS256", typ: "JWT" };
    expect(await service.verify(signed(canonical, { ...claims, exp: now() + 600 }))).not.toBeNull();
    expect(await service.verify(signed(canonical, claims))).toBeNull();
    expect(await service.verify(signed({ alg: "HS256" }, claims))).toBeNull();
    expect(await service.verify(signed({ alg: "HS512", typ: "JWT" }, { ...claims, exp: now() + 600 }))).toBeNull();
    expect(await service.verify(`${b64({ alg: "none", typ: "JWT" })}.${b64({ ...claims, exp: now() + 600 })}.`)).toBeNull();
    for (const token of [signed(canonical, claims), signed({ alg: "HS512", typ: "JWT" }, { ...claims, exp: now() + 600 })]) {
      expect(await pluginVerify(token)).toBeNull();
    }
  });
});
