/**
 * Chooses which remembered messages the model sees. The budget counts characters of message text; the newest
 * messages are kept and the oldest dropped, and the kept part is always a contiguous tail so the model never
 * sees a conversation with a hole in it.
 */
import type { HistoryMessage } from "../types.ts";

/**
 * The newest messages whose texts fit together in `budgetChars`, oldest first.
 * @example trimHistory(history, 6000)
 */
export function trimHistory(history: readonly HistoryMessage[], budgetChars: number): HistoryMessage[] {
  let used = 0;
  let start = history.length;
  while (start > 0) {
    const size = (history[start - 1] as HistoryMessage).text.length;
    if (used + size > budgetChars) break;
    used += size;
    start--;
  }
  return history.slice(start);
}
