/**
 * Decrypting sealed credentials (auth/secrets.ts) and conversation text (conversations/cipher.ts) reads views
 * on the stored bytes instead of copies; these properties hold both to what they must do wherever the bytes sit
 * (a row's own array, a slice of a larger buffer at any offset): every sealed text opens to itself, and any
 * changed, cut or misattributed byte string opens to nothing.
 */
import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { createSecrets } from "../../src/auth/secrets.ts";
import { createTextCipher } from "../../src/conversations/cipher.ts";

const MASTER = new Uint8Array(32).fill(5);
const secrets = createSecrets(MASTER);
const cipher = createTextCipher(MASTER);

/** `bytes` copied into a larger buffer at `offset`, as a view (how a pooled Buffer or a row's blob can arrive). */
const placed = (bytes: Uint8Array, offset: number) => {
  const big = new Uint8Array(offset + bytes.length + 7).fill(0xaa);
  big.set(bytes, offset);
  return new Uint8Array(big.buffer, offset, bytes.length);
};

describe("opening sealed bytes", () => {
  it("opens every sealed text to itself, wherever its bytes sit", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), fc.nat({ max: 64 }), fc.integer({ min: 1, max: 10 ** 9 }), (text, offset, playerId) => {
        expect(secrets.decrypt(placed(secrets.encrypt(text), offset))).toBe(text);
        expect(cipher.open(placed(cipher.seal(text, playerId, "user"), offset), playerId, "user")).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it("opens nothing from changed, cut or misattributed bytes", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.nat(), fc.integer({ min: 1, max: 255 }), fc.nat({ max: 16 }), (text, at, flip, offset) => {
        const sealed = secrets.encrypt(text);
        const changed = Uint8Array.from(sealed);
        changed[at % changed.length]! ^= flip;
        expect(secrets.decrypt(placed(changed, offset))).toBeNull();
        expect(secrets.decrypt(placed(sealed.subarray(0, sealed.length - 1), offset))).toBeNull();
        expect(secrets.decrypt(placed(sealed.subarray(0, 27), offset))).toBeNull();

        const words = cipher.seal(text, 7, "user");
        const tampered = Uint8Array.from(words);
        tampered[at % tampered.length]! ^= flip;
        expect(cipher.open(placed(tampered, offset), 7, "user")).toBeNull();
        expect(cipher.open(placed(words, offset), 8, "user")).toBeNull();
        expect(cipher.open(placed(words, offset), 7, "assistant")).toBeNull();
        expect(cipher.open(placed(words, offset), 7, "user")).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
