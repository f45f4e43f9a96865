/**
 * The token service signs with node:crypto's HMAC and checks jose's rules by hand (src/auth/tokens.ts); these
 * tests hold it to jose itself, the library it replaced on the hot path:
 * - every token it issues verifies with jose's jwtVerify (HS256 only, our claims required, 30 s tolerance) to
 *   the same claims, and every token jose signs the way @elysiajs/jwt did verifies here to the same claims;
 * - on claim sets of every shape (missing, mistyped, expired, not yet valid, extra claims) it decides exactly
 *   as jose followed by our schema did, and it never accepts a token jose refuses;
 * - forged, altered and malformed tokens are refused.
 */
import { describe, expect, it } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import fc from "fast-check";
import { jwtVerify, SignJWT } from "jose";
import { createTokenService, TokenClaims } from "../../src/auth/tokens.ts";

const KEY = new Uint8Array(32).fill(7);
const TTL = 3600;
const TOLERANCE = 30;
const service = () => createTokenService(KEY, TTL, TOLERANCE);
const now = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

/** What the previous implementation did: jose's jwtVerify with our options, then the claims schema. */
async function joseVerify(token: string, key: Uint8Array = KEY): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], requiredClaims: ["exp", "typ", "sub", "tid", "ver"], clockTolerance: TOLERANCE });
    return Value.Check(TokenClaims, payload) ? (payload as TokenClaims) : null;
  } catch {
    return null;
  }
}

/** Signs `payload` with jose under `header`, as @elysiajs/jwt did (it set typ "JWT" and iat). */
function joseSign(payload: Record<string, unknown>, header: Record<string, unknown> = { alg: "HS256", typ: "JWT" }, key: Uint8Array = KEY): Promise<string> {
  return new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(key);
}

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

describe("tokens: the same as jose", () => {
  it("every token it issues verifies with jose to the same claims (and here too)", async () => {
    const tokens = service();
    await fc.assert(
      fc.asyncProperty(validClaims, async (claims) => {
        const { token, expiresIn } = await tokens.issue(claims);
        expect(expiresIn).toBe(TTL);
        const byJose = await joseVerify(token);
        expect(byJose).not.toBeNull();
        expect(byJose).toMatchObject(claims);
        expect(byJose!.exp - byJose!.iat!).toBe(TTL);
        expect(await service().verify(token)).toEqual(byJose!);
      }),
      { numRuns: 200 },
    );
  });

  it("every token jose signs the way @elysiajs/jwt did verifies to the same claims", async () => {
    await fc.assert(
      fc.asyncProperty(
        validClaims,
        fc.constantFrom({ alg: "HS256", typ: "JWT" }, { alg: "HS256" }, { alg: "HS256", typ: "JWT", kid: "k1" }),
        async (claims, header) => {
          const token = await joseSign({ ...claims, exp: now() + 600, iat: now(), jti: crypto.randomUUID() }, header);
          const mine = await service().verify(token);
          expect(mine).not.toBeNull();
          expect(mine).toEqual((await joseVerify(token))!);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("decides every claim set exactly as jose and the schema did", async () => {
    // Time offsets stay clear of the tolerance edge, where a second ticking between the two checks would differ.
    const past = fc.integer({ min: -5000, max: -32 });
    const future = fc.integer({ min: -28, max: 5000 });
    const at = (offset: fc.Arbitrary<number>) => offset.map((o) => now() + o);
    // Mostly a well-typed value, so accepted and refused tokens both come up often.
    const field = <T>(value: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: value, weight: 24 }, fc.constant(undefined), fc.string(), fc.constant(null), fc.double(), fc.boolean());
    const claimSet = fc.record({
      typ: field(fc.constantFrom("developer", "service", "player", "operator", "operator", "admin")),
      sub: field(fc.oneof({ arbitrary: fc.integer({ min: 0, max: 10 ** 15 - 1 }).map(String), weight: 8 }, fc.constant("1".repeat(16)), fc.constant("12a"))),
      tid: field(fc.integer({ min: -1, max: 1000 })),
      ver: field(fc.integer({ min: 0, max: 1000 })),
      sa: field(fc.integer({ min: 0, max: 1000 })),
      exp: field(at(fc.oneof({ arbitrary: fc.integer({ min: 60, max: 5000 }), weight: 3 }, past, future))),
      nbf: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, field(at(fc.oneof(past, future)))),
      iat: fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, field(at(fc.oneof(past, future)))),
      jti: field(fc.uuid()),
      extra: fc.oneof(fc.constant(undefined), fc.anything()),
    });
    const decisions = { accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(claimSet, async (raw) => {
        // JSON drops undefined members, as a token's payload would.
        const payload = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
        const token = await joseSign(payload);
        const expected = await joseVerify(token);
        expect(await service().verify(token)).toEqual(expected);
        decisions[expected ? "accepted" : "refused"]++;
      }),
      { numRuns: 500 },
    );
    expect(decisions.accepted).toBeGreaterThan(25);
    expect(decisions.refused).toBeGreaterThan(25);
  });

  it("never accepts a token jose refuses: any one character changed", async () => {
    const { token } = await service().issue({ typ: "player", sub: "42", tid: 7, ver: 3, sa: 2 });
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: token.length - 1 }),
        fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ "),
        async (at, char) => {
          const altered = token.slice(0, at) + char + token.slice(at + 1);
          if (altered === token) return;
          const mine = await service().verify(altered);
          // Only a change jose cannot see (the unused low bits of the signature's last character) could pass
          // jose; this check compares the exact signature text, so it refuses every change.
          expect(mine).toBeNull();
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("tokens: refused", () => {
  const claims = { typ: "developer", sub: "5", tid: 1, ver: 1 };

  it("accepts a token expired 29 s ago and refuses one expired 31 s ago (30 s tolerance), like jose", async () => {
    const fresh = await joseSign({ ...claims, exp: now() - 29 });
    const stale = await joseSign({ ...claims, exp: now() - 31 });
    expect(await service().verify(fresh)).not.toBeNull();
    expect(await joseVerify(fresh)).not.toBeNull();
    expect(await service().verify(stale)).toBeNull();
    expect(await joseVerify(stale)).toBeNull();
  });

  it("refuses a token not valid before a time more than 30 s away", async () => {
    expect(await service().verify(await joseSign({ ...claims, exp: now() + 600, nbf: now() + 60 }))).toBeNull();
    expect(await service().verify(await joseSign({ ...claims, exp: now() + 600, nbf: now() + 20 }))).not.toBeNull();
  });

  it("refuses a token without exp, or with exp that is not a number", async () => {
    expect(await service().verify(await joseSign(claims))).toBeNull();
    expect(await service().verify(await joseSign({ ...claims, exp: String(now() + 600) }))).toBeNull();
  });

  it("refuses alg none, HS512 and RS256 headers even with the right key", async () => {
    const payload = b64({ ...claims, exp: now() + 600 });
    expect(await service().verify(`${b64({ alg: "none", typ: "JWT" })}.${payload}.`)).toBeNull();
    expect(await service().verify(await joseSign({ ...claims, exp: now() + 600 }, { alg: "HS512", typ: "JWT" }))).toBeNull();
    // An HS256 signature under a header that names another algorithm (algorithm confusion).
    const forged = await joseSign({ ...claims, exp: now() + 600 });
    const [, p, s] = forged.split(".");
    expect(await service().verify(`${b64({ alg: "RS256", typ: "JWT" })}.${p}.${s}`)).toBeNull();
  });

  it("refuses a header with critical extensions or an unencoded payload, even when signed with the key", async () => {
    const { createHmac } = await import("node:crypto");
    const signed = (header: unknown) => {
      const input = `${b64(header)}.${b64({ ...claims, exp: now() + 600 })}`;
      return `${input}.${createHmac("sha256", KEY).update(input).digest("base64url")}`;
    };
    expect(await service().verify(signed({ alg: "HS256" }))).not.toBeNull();
    expect(await service().verify(signed({ alg: "HS256", crit: ["exp"], exp: 1 }))).toBeNull();
    expect(await service().verify(signed({ alg: "HS256", b64: false, crit: ["b64"] }))).toBeNull();
    expect(await service().verify(signed(["HS256"]))).toBeNull();
    expect(await service().verify(signed("HS256"))).toBeNull();
  });

  it("refuses a token signed with another key, a bad signature, and malformed tokens", async () => {
    const { token } = await service().issue({ typ: "developer", sub: "5", tid: 1, ver: 1 });
    const [h, p, s] = token.split(".");
    expect(await createTokenService(new Uint8Array(32).fill(9), TTL, TOLERANCE).verify(token)).toBeNull();
    for (const bad of [
      `${h}.${p}.${Buffer.alloc(32, 1).toString("base64url")}`,
      `${h}.${p}.${s}=`,
      `${h}.${p}.${s}.`,
      `${h}.${p}`,
      `${h}..${s}`,
      `.${p}.${s}`,
      `${h}.${p}.${s!.slice(0, -1)}`,
      "",
      "...",
      "not a token",
      `${token} `,
      token + "A".repeat(5000),
    ]) {
      expect(await service().verify(bad)).toBeNull();
    }
    // A payload that is not an object, signed with the key.
    const { createHmac } = await import("node:crypto");
    for (const payload of [b64([1, 2]), b64("null"), b64("42"), "%%%"]) {
      const input = `${h}.${payload}`;
      expect(await service().verify(`${input}.${createHmac("sha256", KEY).update(input).digest("base64url")}`)).toBeNull();
    }
  });

  it("refuses claims outside the schema: an unknown type, a non-numeric subject, a version of 0", async () => {
    for (const bad of [
      { ...claims, typ: "admin" },
      { ...claims, sub: "5a" },
      { ...claims, ver: 0 },
      { ...claims, tid: -1 },
    ]) {
      expect(await service().verify(await joseSign({ ...bad, exp: now() + 600 }))).toBeNull();
    }
  });
});
