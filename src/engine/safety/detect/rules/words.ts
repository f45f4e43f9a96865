/**
 * Word groups shared by the category rules, in the rule dialect (see categories.ts). The alternatives live in
 * data/words/<group>.txt, one a line, so a new spelling is a one-line change; the canonical view has already
 * expanded chat spellings ("wanna" -> "want to").
 */
import adult from "../data/words/adult.txt" with { type: "text" };
import app from "../data/words/app.txt" with { type: "text" };
import game from "../data/words/game.txt" with { type: "text" };
import intent from "../data/words/intent.txt" with { type: "text" };
import person from "../data/words/person.txt" with { type: "text" };
import school from "../data/words/school.txt" with { type: "text" };

/** One alternative a line (blank lines and lines starting with # skipped) as a non-capturing group. */
export function group(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"));
  return `(?:${lines.join("|")})`;
}

/** A speaker stating an intent or asking how: "i want to", "how do i", "gonna". */
export const INTENT = group(intent);

/** Adults in a child's life (for disclosures). */
export const ADULT = group(adult);

/** People a threat can be aimed at. */
export const PERSON = group(person);

/** Places a child names for "to school" and "at home" rules. */
export const SCHOOL = group(school);

/** Apps and games where strangers reach children. */
export const APP = group(app);

/** Words that put violence inside a game or a story about creatures (rules drop to `mild` there). */
export const GAME = group(game);
