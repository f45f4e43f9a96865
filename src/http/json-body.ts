/**
 * Parsing a JSON request body safely. Rules this module keeps:
 *  - nesting deeper than MAX_JSON_DEPTH is refused before JSON.parse runs, by one pass over the bytes, so
 *    refusing any body costs time linear in its size (deep JSON used to freeze the server for seconds);
 *  - the body is decoded as strict UTF-8;
 *  - no error message ever contains any part of the body.
 */
import { InvalidRequest } from "../errors.ts";

/** No hoot HTTP body nests deeper than a few levels; 32 leaves room and keeps every later pass cheap. */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * The deepest nesting of arrays and objects in `bytes`, stopping as soon as it passes `limit`. Brackets inside
 * strings do not count. Malformed JSON is left for JSON.parse to refuse.
 * @example jsonDepthExceeds(new TextEncoder().encode("[[1]]"), 1) // true
 */
export function jsonDepthExceeds(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Parses a request body: 400 `invalid_body` when nested too deep, 400 `invalid_json` when not JSON. */
export function parseJsonBody(bytes: Uint8Array): unknown {
  if (jsonDepthExceeds(bytes, MAX_JSON_DEPTH)) {
    throw new InvalidRequest(`The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`, "invalid_body");
  }
  try {
    return JSON.parse(utf8.decode(bytes)) as unknown;
  } catch {
    throw new InvalidRequest("The request body is not valid JSON.", "invalid_json");
  }
}
