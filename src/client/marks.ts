/**
 * Following speech marks during playback: each mark is timed from the start of its own audio event, so a
 * player that knows when that event's audio started playing finds the word or mouth shape of any moment.
 */

interface Timed {
  start_time_sec: number;
  duration_sec: number;
}

/**
 * The mark being heard `seconds` after its audio event started playing, or null between words (or past the end).
 * @example markAt(event.visemes ?? [], audioContext.currentTime - startedAt)?.viseme // "PP"
 */
export function markAt<T extends Timed>(marks: readonly T[], seconds: number): T | null {
  // Marks are in time order: a binary search keeps an animation frame cheap on long sentences.
  let low = 0;
  let high = marks.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const mark = marks[middle];
    if (seconds < mark.start_time_sec) high = middle - 1;
    else if (seconds >= mark.start_time_sec + mark.duration_sec) low = middle + 1;
    else return mark;
  }
  return null;
}
