/**
 * Captions that follow the voice: the words of the sentence being heard, the one being spoken highlighted
 * (it stays lit through the pause after it, until the next word starts).
 */
import type { SubtitleMark } from "../../../client/index.ts";

/**
 * The index of the word being heard `seconds` into its sentence: the last one that has started, or -1.
 * @example currentWord([{ text: "Hi", start_time_sec: 0.1, duration_sec: 0.3 }], 0.5) // 0
 */
export function currentWord(words: readonly SubtitleMark[], seconds: number): number {
  let index = -1;
  for (const [k, word] of words.entries()) {
    if (word.start_time_sec > seconds) break;
    index = k;
  }
  return index;
}

export function Captions(props: { words: readonly SubtitleMark[]; current: number }) {
  return (
    <p id="pg-captions" class="captions" data-word={props.current} aria-hidden="true">
      {props.words.length === 0 ? (
        <span class="muted">Captions appear here while the character speaks.</span>
      ) : (
        props.words.map((word, k) => (
          <>
            <span class={k === props.current ? "word now" : "word"} data-index={k}>
              {word.text}
            </span>{" "}
          </>
        ))
      )}
    </p>
  );
}
