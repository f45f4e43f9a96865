/**
 * Encryption at rest for children's words. Rules:
 *  - the key is derived with HKDF from the deployment's master secret under its own label, so it is
 *    independent of the credential keys;
 *  - AES-256-GCM, stored as 12-byte random IV || ciphertext || 16-byte tag;
 *  - the player id and the role are authenticated data, so a row copied to another player or relabelled
 *    from "assistant" to "user" no longer opens;
 *  - the cipher is part of the dependencies (deps.textCipher, built from the master key with the others), and
 *    the conversation service takes it explicitly: the repositories below never see a word in the clear.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

export interface TextCipher {
  seal(text: string, playerId: number, role: string): Buffer;
  /** Null when the bytes were tampered with, belong to another player or role, or were made with another key. */
  open(sealed: Uint8Array, playerId: number, role: string): string | null;
}

/** The conversation cipher of a master secret. */
export function createTextCipher(master: Uint8Array): TextCipher {
  const key = new Uint8Array(hkdfSync("sha256", master, "hoot", "conversation-text", 32));
  const aad = (playerId: number, role: string) => Buffer.from(`player:${playerId}:${role}`);
  return {
    seal(text, playerId, role) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(aad(playerId, role));
      const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
      return Buffer.concat([iv, body, cipher.getAuthTag()]);
    },
    open(sealed, playerId, role) {
      if (sealed.length < 28) return null;
      // Views on the sealed bytes, not copies.
      const at = sealed.byteOffset;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, new Uint8Array(sealed.buffer, at, 12));
        decipher.setAAD(aad(playerId, role));
        decipher.setAuthTag(new Uint8Array(sealed.buffer, at + sealed.byteLength - 16, 16));
        const body = decipher.update(new Uint8Array(sealed.buffer, at + 12, sealed.byteLength - 28));
        const tail = decipher.final();
        return (tail.length === 0 ? body : Buffer.concat([body, tail])).toString("utf8");
      } catch {
        return null;
      }
    },
  };
}
