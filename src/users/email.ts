/** E-mail addresses as hoot stores them: trimmed, lower-cased, one pattern everywhere. */
import { InvalidRequest } from "../errors.ts";

/** Something@something.tld, without spaces: a typo check, not a deliverability check. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The stored form of `raw`, or 400 naming it.
 * @example normalizeEmail(" Ada@Example.COM ") // "ada@example.com"
 */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(email)) throw new InvalidRequest(`"${raw}" is not an e-mail address.`);
  return email;
}
