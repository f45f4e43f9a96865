/**
 * A simple mouth that takes the shape of each Oculus/Meta viseme (PROTOCOL.md section 6): how wide and how open
 * the lips are, whether they are rounded, and whether the teeth or the tongue show. Enough to see lip-sync work
 * before drawing a character.
 */
import type { Viseme } from "../../../client/index.ts";

interface Shape {
  /** Half-width and half-height of the opening, in the 100 × 60 drawing. */
  wide: number;
  open: number;
  teeth?: boolean;
  tongue?: boolean;
}

const SHAPES: Record<Viseme, Shape> = {
  sil: { wide: 26, open: 1 },
  PP: { wide: 24, open: 0.5 },
  FF: { wide: 26, open: 4, teeth: true },
  TH: { wide: 26, open: 6, tongue: true },
  DD: { wide: 28, open: 8, teeth: true },
  kk: { wide: 28, open: 10 },
  CH: { wide: 18, open: 9, teeth: true },
  SS: { wide: 30, open: 4, teeth: true },
  nn: { wide: 28, open: 7, tongue: true },
  RR: { wide: 20, open: 9 },
  aa: { wide: 30, open: 20 },
  E: { wide: 32, open: 12 },
  I: { wide: 34, open: 8 },
  O: { wide: 18, open: 16 },
  U: { wide: 13, open: 10 },
};

export function Mouth(props: { viseme: Viseme }) {
  const shape = SHAPES[props.viseme];
  return (
    <svg id="pg-mouth" class="mouth" data-viseme={props.viseme} viewBox="0 0 100 60" width="120" height="72" role="img" aria-label={`Mouth: ${props.viseme}`}>
      <ellipse cx="50" cy="30" rx={shape.wide + 6} ry={shape.open + 6} class="lips" />
      <ellipse cx="50" cy="30" rx={shape.wide} ry={shape.open} class="inside" />
      {shape.teeth ? <rect x={50 - shape.wide * 0.7} y={30 - shape.open} width={shape.wide * 1.4} height={Math.min(4, shape.open)} class="teeth" /> : null}
      {shape.tongue ? <ellipse cx="50" cy={30 + shape.open * 0.4} rx={shape.wide * 0.5} ry={shape.open * 0.5} class="tongue" /> : null}
    </svg>
  );
}
