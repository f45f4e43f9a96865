/**
 * The one rule for "is there anything to say?", used by the chunker (a unit with nothing to say is carried
 * into the next one) and by the speech stage (markup is stripped, and a unit left empty is not synthesized).
 * Something is speakable when it holds a letter or a digit in any script; emoji and punctuation alone are not.
 */

const SPEAKABLE = /[\p{L}\p{N}]/u;
/** Markup that a voice would read out ("asterisk") and that carries no words. */
const MARKUP = /[*_#~`|<>[\]{}\\]/g;

/** True when `text` holds something a voice can say (a letter or a digit). */
export function isSpeakable(text: string): boolean {
  return SPEAKABLE.test(text);
}

/**
 * The text to hand to a voice: markup removed, spaces collapsed; null when nothing speakable is left.
 * @example speakableText("**Bold** words!") === "Bold words!"; speakableText("🎉🎉") === null
 */
export function speakableText(text: string): string | null {
  const cleaned = text.replace(MARKUP, " ").replace(/\s+/g, " ").trim();
  return isSpeakable(cleaned) ? cleaned : null;
}
