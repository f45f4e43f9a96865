/**
 * HS256 on node:crypto for the hot paths (every login signs, every new token is verified once), beside the
 * `@elysiajs/jwt` plugin that stays the app's JWT plugin. jose signs and verifies through WebCrypto, a
 * thread-pool round trip (~60 µs of a login's ~190 µs); one HMAC here costs a few µs.
 *
 * Rules (held to the plugin by test/auth/hs256.property.test.ts with fast-check):
 * - `sign` writes the very bytes the plugin writes for the same claims at the same second: the header
 *   `{"alg":"HS256","typ":"JWT"}`, the payload's keys in the plugin's order (jti, sub, the rest as given, exp,
 *   iat), base64url without padding;
 * - `verify` decides only tokens whose header is exactly that header, and answers "unsure" for every other
 *   header, which the caller then hands to the plugin: so HS256 stays pinned (`none`, HS512, `crit`, `b64`
 *   are the plugin's to refuse) and every verdict is the plugin's;
 * - on that header it does what jose does with `algorithms: ["HS256"]`, `requiredClaims` and
 *   `clockTolerance`: the signature compared in constant time, the payload decoded by the same base64url
 *   decoder and a strict UTF-8 decoder, a top-level JSON object, each required claim present, `iat`, `nbf` and
 *   `exp` numbers when present, `nbf` not in the future and `exp` not in the past beyond the tolerance.
 * The caller has already checked the compact shape (three base64url segments, a canonical 43-character
 * signature), so comparing signature texts is comparing signature bytes.
 */
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from "node:crypto";

/** The one header the plugin writes for HS256 (`{"alg":"HS256","typ":"JWT"}`), base64url. */
export const HS256_HEADER = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");

export type Hs256Verdict = { ok: true; payload: Record<string, unknown> } | { ok: false } | "unsure";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

// jose decodes with Uint8Array.fromBase64 where the runtime has it; the same decoder keeps the same edge cases.
const fromBase64url: (text: string) => Uint8Array =
  typeof (Uint8Array as unknown as { fromBase64?: unknown }).fromBase64 === "function"
    ? (text) => (Uint8Array as unknown as { fromBase64(t: string, o: { alphabet: string }): Uint8Array }).fromBase64(text, { alphabet: "base64url" })
    : (text) => {
        if (text.length % 4 === 1) throw new TypeError("bad base64url length");
        return Buffer.from(text, "base64url");
      };

export interface Hs256 {
  /** The compact token for `claims` (without exp/iat), expiring at `exp`, issued now: the plugin's bytes. */
  sign(claims: Record<string, unknown>, exp: number, nowMs?: number): string;
  /** The verdict on a compact token of the canonical shape; "unsure" for any header but the canonical one. */
  verify(token: string, requiredClaims: readonly string[], clockToleranceSeconds: number, nowMs?: number): Hs256Verdict;
}

/**
 * HS256 with `key`.
 * @example const hs = createHs256(key); const token = hs.sign({ typ: "developer", sub: "1", jti: "x" }, exp)
 */
export function createHs256(key: Uint8Array): Hs256 {
  const secret: KeyObject = createSecretKey(Buffer.from(key));
  const mac = (input: string) => createHmac("sha256", secret).update(input).digest("base64url");
  return {
    sign(claims, exp, nowMs = Date.now()) {
      // The plugin's order: {aud, iss, jti, sub, ...claims} (undefined ones dropped), then exp, then iat.
      const payload = { jti: claims.jti, sub: claims.sub, ...claims, exp, iat: Math.floor(nowMs / 1000) };
      const input = `${HS256_HEADER}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}`;
      return `${input}.${mac(input)}`;
    },
    verify(token, requiredClaims, clockToleranceSeconds, nowMs = Date.now()) {
      const first = token.indexOf(".");
      const last = token.lastIndexOf(".");
      if (first <= 0 || first === last || token.slice(0, first) !== HS256_HEADER) return "unsure";
      const expected = Buffer.from(mac(token.slice(0, last)));
      const presented = Buffer.from(token.slice(last + 1));
      if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return { ok: false };
      let payload: unknown;
      try {
        payload = JSON.parse(strictUtf8.decode(fromBase64url(token.slice(first + 1, last))));
      } catch {
        return { ok: false };
      }
      if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return { ok: false };
      const claims = payload as Record<string, unknown>;
      for (const claim of requiredClaims) if (!Object.hasOwn(claims, claim)) return { ok: false };
      const now = Math.floor(nowMs / 1000);
      const { iat, nbf, exp } = claims;
      if (iat !== undefined && typeof iat !== "number") return { ok: false };
      if (nbf !== undefined && (typeof nbf !== "number" || nbf > now + clockToleranceSeconds)) return { ok: false };
      if (exp !== undefined && (typeof exp !== "number" || exp <= now - clockToleranceSeconds)) return { ok: false };
      return { ok: true, payload: claims };
    },
  };
}
