/** Ids with OpenAI's prefixes (event_, item_, resp_, sess_, conv_), unique on this node and across its restarts. */
let counter = 0;
const PREFIX = crypto.getRandomValues(new Uint32Array(1))[0]!.toString(36);

/**
 * A fresh id.
 * @example newId("item") // "item_k3j9a1"
 */
export const newId = (prefix: string): string => `${prefix}_${PREFIX}${(++counter).toString(36)}`;
