/**
 * Encryption at rest for credentials the API must show again, and keyed hashes to find them.
 * Rules: the master secret never leaves this module; three sub-keys are derived from it with HKDF so the
 * token key, the encryption key and the lookup key are independent; ciphertext is AES-256-GCM
 * (12-byte random IV || ciphertext || 16-byte tag); lookups use HMAC-SHA256, so the database holds no
 * plain secret and no unkeyed hash that could be brute-forced offline.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

export interface Secrets {
  /** Key for HS256 access tokens. */
  tokenKey: Uint8Array;
  encrypt(plain: string): Buffer;
  /** Null when the ciphertext was tampered with or made with another key. */
  decrypt(sealed: Uint8Array): string | null;
  lookupHash(plain: string): string;
}

/** Derives the three sub-keys from the master secret (>= 32 bytes). */
export function createSecrets(master: Uint8Array): Secrets {
  const derive = (info: string) => new Uint8Array(hkdfSync("sha256", master, "hoot", info, 32));
  const tokenKey = derive("access-token-hs256");
  const encKey = derive("credential-encryption");
  const hashKey = derive("credential-lookup");
  return {
    tokenKey,
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", encKey, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return Buffer.concat([iv, body, cipher.getAuthTag()]);
    },
    decrypt(sealed) {
      if (sealed.length < 28) return null;
      // Views on the sealed bytes, not copies (Buffer's subarray and copy were a tenth of an authed GET).
      const at = sealed.byteOffset;
      try {
        const decipher = createDecipheriv("aes-256-gcm", encKey, new Uint8Array(sealed.buffer, at, 12));
        decipher.setAuthTag(new Uint8Array(sealed.buffer, at + sealed.byteLength - 16, 16));
        const body = decipher.update(new Uint8Array(sealed.buffer, at + 12, sealed.byteLength - 28));
        const tail = decipher.final();
        return (tail.length === 0 ? body : Buffer.concat([body, tail])).toString("utf8");
      } catch {
        return null;
      }
    },
    lookupHash(plain) {
      return createHmac("sha256", hashKey).update(plain).digest("hex");
    },
  };
}

/** Constant-time string equality, so a comparison's duration says nothing about where strings differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
