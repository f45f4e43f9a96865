/**
 * Captions and a mouth in time with the reply's Web Audio playback: on every animation frame, the sentence
 * being heard and the seconds into it come from the player's audio clock, and the word and the viseme of that
 * moment are looked up in the sentence's marks. State changes only when the word or the viseme does.
 */
import { useEffect, useState } from "preact/hooks";
import { markAt, type SubtitleMark, type Viseme } from "../../../client/index.ts";
import type { ReplyPlayer } from "./audio.ts";
import { Captions, currentWord } from "./captions.tsx";
import { Mouth } from "./mouth.tsx";

interface Moment {
  words: readonly SubtitleMark[];
  word: number;
  viseme: Viseme;
}

const QUIET: Moment = { words: [], word: -1, viseme: "sil" };

export function LipSync(props: { player: ReplyPlayer | null }) {
  const [moment, setMoment] = useState<Moment>(QUIET);
  useEffect(() => {
    let frame = 0;
    const tick = () => {
      const now = props.player?.now() ?? null;
      const next: Moment = now
        ? {
            words: now.clip.words,
            word: currentWord(now.clip.words, now.seconds),
            viseme: (now.playing ? markAt(now.clip.visemes, now.seconds)?.viseme : undefined) ?? "sil",
          }
        : QUIET;
      setMoment((m) => (m.words === next.words && m.word === next.word && m.viseme === next.viseme ? m : next));
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [props.player]);
  return (
    <div class="lip-sync" aria-label="Captions and mouth">
      <Mouth viseme={moment.viseme} />
      <Captions words={moment.words} current={moment.word} />
    </div>
  );
}
