/**
 * Access tokens. Data model: an HS256 JWT whose claims name the credential that minted it and that
 * credential's version:
 *   typ  "developer" | "service" | "player" | "operator"
 *   sub  user id (developer), service account id (service), player id (player), operator key id (operator)
 *   tid  team id the token acts for; 0 for operator tokens, which act for the whole deployment
 *   ver  version of the minting credential (user key, service account, player federated id, operator key)
 *   sa   (player tokens) id of the service account whose key logged the player in
 * Rules: only HS256 is accepted (no `none`, no HS512: algorithm confusion); `exp` is required; the claims
 * must match the schema exactly; the caller then checks `ver` against the database on every use, which
 * is what makes revocation immediate.
 */
import { type Static, Type } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { createHs256 } from "./hs256.ts";

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

/**
 * The only shape we accept, checked before jose: three base64url segments and a canonical HMAC-SHA256 signature
 * (43 characters, no padding). jose alone would also take a padded or otherwise non-canonical signature text.
 */
const COMPACT_HS256 = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/** The claims a token must carry (jose's `requiredClaims`), whichever verifier decides. */
export const REQUIRED_CLAIMS = ["exp", "typ", "sub", "tid", "ver"] as const;

type JwtSigner = ReturnType<typeof import("@elysiajs/jwt").jwt>["decorator"]["jwt"];

export interface TokenService {
  /** Signs a token for `claims` valid `ttlSeconds` from now. */
  issue(claims: Omit<TokenClaims, "exp" | "iat" | "jti">): Promise<{ token: string; expiresIn: number }>;
  /** The claims of a genuine, unexpired HS256 token, else null. */
  verify(token: string): Promise<TokenClaims | null>;
}

/**
 * Builds the signer/verifier on the `@elysiajs/jwt` plugin, pinning what the plugin leaves open.
 * Signing, and verifying a token with the plugin's own header, run on node:crypto (hs256.ts: the same bytes
 * and the same verdicts as the plugin, held to it by a property test); any other header goes to the plugin.
 * The plugin's HMAC key is imported once as a CryptoKey (jose would otherwise import raw bytes on every
 * call), and verified signatures are remembered until the token expires: the signature of a given string
 * cannot change, while revocation is still checked on every use by the caller.
 */
export function createTokenService(key: Uint8Array, ttlSeconds: number, clockToleranceSeconds: number, cacheSize = 10_000): TokenService {
  // Loaded on the first token, not at start-up (the plugin brings jose's whole module graph).
  let signerPromise: Promise<JwtSigner> | null = null;
  const signer = () =>
    (signerPromise ??= Promise.all([
      import("@elysiajs/jwt"),
      crypto.subtle.importKey("raw", new Uint8Array(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]),
    ]).then(([{ jwt }, cryptoKey]) => jwt({ name: "jwt", secret: cryptoKey, alg: "HS256" }).decorator.jwt));
  const hs256 = createHs256(key);
  const verified = new Map<string, TokenClaims>();
  return {
    async issue(claims) {
      const now = Math.floor(Date.now() / 1000);
      const token = hs256.sign({ ...claims, jti: crypto.randomUUID() }, now + ttlSeconds);
      return { token, expiresIn: ttlSeconds };
    },
    async verify(token) {
      if (token.length > 4096 || !COMPACT_HS256.test(token)) return null;
      const known = verified.get(token);
      if (known) {
        if (known.exp + clockToleranceSeconds > Date.now() / 1000) return known;
        verified.delete(token);
        return null;
      }
      const verdict = hs256.verify(token, REQUIRED_CLAIMS, clockToleranceSeconds);
      const payload =
        verdict === "unsure"
          ? await (await signer()).verify(token, { algorithms: ["HS256"], requiredClaims: [...REQUIRED_CLAIMS], clockTolerance: clockToleranceSeconds })
          : verdict.ok && verdict.payload;
      if (!payload || !checkClaims(payload)) return null;
      // Bounded: drop the oldest entry (Map keeps insertion order).
      if (verified.size >= cacheSize) verified.delete(verified.keys().next().value!);
      verified.set(token, payload);
      return payload;
    },
  };
}
