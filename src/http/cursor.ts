/**
 * Page cursors: opaque to clients, they wrap the last id shown (with a letter naming the list), so a page
 * marks a position rather than an offset and stays valid while rows are added.
 */
import { InvalidRequest } from "../errors.ts";

/**
 * The cursor after row `id` of the list `kind`.
 * @example encodeCursor("p", 42) // "cDo0Mg"
 */
export function encodeCursor(kind: string, id: number): string {
  return Buffer.from(`${kind}:${id}`).toString("base64url");
}

/** The id inside a cursor of the list `kind` (0 for none); 400 `invalid_cursor` for anything this server did not give out. */
export function decodeCursor(kind: string, cursor: string | undefined): number {
  if (cursor === undefined || cursor === "") return 0;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const digits = text.slice(kind.length + 1);
  if (!text.startsWith(`${kind}:`) || !/^\d{1,15}$/.test(digits)) {
    throw new InvalidRequest('The "after" cursor is not one this server gave out.', "invalid_cursor");
  }
  return Number(digits);
}
