/**
 * Access tokens. Data model: an HS256 JWT (RFC 7519, compact JWS) whose claims name the credential that
 * minted it and that credential's version:
 *   typ  "developer" | "service" | "player" | "operator"
 *   sub  user id (developer), service account id (service), player id (player), operator key id (operator)
 *   tid  team id the token acts for; 0 for operator tokens, which act for the whole deployment
 *   ver  version of the minting credential (user key, service account, player federated id, operator key)
 *   sa   (player tokens) id of the service account whose key logged the player in
 *   exp, iat, jti  expiry, issue time (seconds) and a random id
 * Rules: only HS256 is accepted (no `none`, no HS512: algorithm confusion); `exp` is required; the claims
 * must match the schema exactly; the caller then checks `ver` against the database on every use, which
 * is what makes revocation immediate.
 *
 * Why not a JWT library's sign/verify: jose (what @elysiajs/jwt wraps) signs through WebCrypto, ~40-80 µs a
 * token here, a large share of a login. The signature is node:crypto's HMAC-SHA256 (a few µs) and the rest
 * follows jose's rules for a verification with `algorithms: ["HS256"]`, required claims and a clock
 * tolerance, step by step (see `verify`); test/auth/tokens.test.ts checks both ways against jose itself that
 * every token one accepts the other accepts, and that this one never accepts what jose refuses. It is
 * stricter in two places only: the signature must be the canonical base64url text, and a header that names
 * critical extensions (`crit`) or an unencoded payload (`b64`) is refused.
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { Type, type Static } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";

export const TokenClaims = Type.Object({
  typ: Type.Union([Type.Literal("developer"), Type.Literal("service"), Type.Literal("player"), Type.Literal("operator")]),
  sub: Type.String({ pattern: "^[0-9]{1,15}$" }),
  // 0 only in operator tokens: no team row has id 0, so a team-scoped check can never accept it.
  tid: Type.Integer({ minimum: 0 }),
  ver: Type.Integer({ minimum: 1 }),
  sa: Type.Optional(Type.Integer({ minimum: 1 })),
  exp: Type.Number(),
  iat: Type.Optional(Type.Number()),
  jti: Type.Optional(Type.String()),
});
export type TokenClaims = Static<typeof TokenClaims>;
export type TokenType = TokenClaims["typ"];

// Compiled on first use, not at start-up.
let claimsCheck: TypeCheck<typeof TokenClaims> | null = null;
const checkClaims = (value: unknown): value is TokenClaims => (claimsCheck ??= TypeCompiler.Compile(TokenClaims)).Check(value);

/** The protected header of every token we issue (what @elysiajs/jwt wrote before, so old tokens stay valid). */
const HEADER = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
/** An HMAC-SHA256 signature (32 bytes) in base64url without padding. */
const SIGNATURE_CHARS = 43;
const MAX_TOKEN_CHARS = 4096;
const REQUIRED_CLAIMS = ["exp", "typ", "sub", "tid", "ver"];

export interface TokenService {
  /** Signs a token for `claims` valid `ttlSeconds` from now. */
  issue(claims: Omit<TokenClaims, "exp" | "iat" | "jti">): Promise<{ token: string; expiresIn: number }>;
  /** The claims of a genuine, unexpired HS256 token, else null. */
  verify(token: string): Promise<TokenClaims | null>;
}

/**
 * The signer/verifier for `key`. Verified tokens are remembered until they expire: the signature of a given
 * string cannot change, while revocation is still checked on every use by the caller.
 * @example const tokens = createTokenService(secrets.tokenKey, 3600, 30); const { token } = await tokens.issue(claims)
 */
export function createTokenService(key: Uint8Array, ttlSeconds: number, clockToleranceSeconds: number, cacheSize = 10_000): TokenService {
  const secret = Buffer.from(key);
  const sign = (signingInput: string) => createHmac("sha256", secret).update(signingInput).digest("base64url");
  const verified = new Map<string, TokenClaims>();

  /** jose's jwtVerify(token, key, { algorithms: ["HS256"], requiredClaims, clockTolerance }), then our schema. */
  const check = (token: string): TokenClaims | null => {
    const first = token.indexOf(".");
    const second = token.indexOf(".", first + 1);
    if (first < 0 || second < 0 || token.indexOf(".", second + 1) >= 0) return null;
    // The signature first, over the exact text received: nothing of a token is read before it is known to be ours.
    const signature = token.slice(second + 1);
    if (signature.length !== SIGNATURE_CHARS) return null;
    const expected = sign(token.slice(0, second));
    // Constant time: the comparison's duration says nothing about how much of a forgery was right.
    if (!timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) return null;
    const header = token.slice(0, first);
    if (header !== HEADER && !acceptableHeader(decodeJson(header))) return null;
    const payload = decodeJson(token.slice(first + 1, second));
    if (!isPlainObject(payload) || !validClaimsSet(payload, Math.floor(Date.now() / 1000), clockToleranceSeconds)) return null;
    return checkClaims(payload) ? payload : null;
  };

  return {
    async issue(claims) {
      const now = Math.floor(Date.now() / 1000);
      const signingInput = `${HEADER}.${base64url(JSON.stringify({ ...claims, exp: now + ttlSeconds, iat: now, jti: randomUUID() }))}`;
      return { token: `${signingInput}.${sign(signingInput)}`, expiresIn: ttlSeconds };
    },
    async verify(token) {
      if (token.length > MAX_TOKEN_CHARS) return null;
      const known = verified.get(token);
      if (known) {
        if (known.exp + clockToleranceSeconds > Date.now() / 1000) return known;
        verified.delete(token);
        return null;
      }
      const claims = check(token);
      if (!claims) return null;
      // Bounded: drop the oldest entry (Map keeps insertion order).
      if (verified.size >= cacheSize) verified.delete(verified.keys().next().value!);
      verified.set(token, claims);
      return claims;
    },
  };
}

function base64url(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

// As jose: malformed UTF-8 is an error, not replacement characters.
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A base64url segment decoded as UTF-8 JSON, or undefined when it is not. */
function decodeJson(segment: string): unknown {
  try {
    return JSON.parse(utf8.decode(Buffer.from(segment, "base64url")));
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The protected header jose accepts for `algorithms: ["HS256"]`, minus extensions we never issue. */
function acceptableHeader(header: unknown): boolean {
  return isPlainObject(header) && header.alg === "HS256" && !("crit" in header) && !("b64" in header);
}

/** jose's JWT claims set rules for our options: required claims present, time claims numbers and within tolerance. */
function validClaimsSet(payload: Record<string, unknown>, now: number, tolerance: number): boolean {
  for (const claim of REQUIRED_CLAIMS) if (!Object.hasOwn(payload, claim)) return false;
  const { iat, nbf, exp } = payload;
  if (iat !== undefined && typeof iat !== "number") return false;
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > now + tolerance)) return false;
  if (exp !== undefined && (typeof exp !== "number" || exp <= now - tolerance)) return false;
  return true;
}
