/**
 * Personal information in what a child typed (or a model wrote), found with spans so it can be replaced by a
 * placeholder before the model sees it and before anything is stored or logged.
 *
 * Rules it keeps:
 * - finders run on `visible(text)` (compatibility-folded, invisible characters removed), so "５５５\u200B1234"
 *   is a phone number, and the redacted text is that visible text with each span replaced;
 * - a number alone is not a phone number ("I have 1000000 coins"): it needs phone-like grouping, 10+ digits,
 *   or a word such as "call", "number" or "text" next to it; digits spelt as words count too;
 * - names, schools and birthdays need the child to be telling them ("my name is Sam Jones", "I go to Maple
 *   Elementary"); a first name alone is not personal information here;
 * - model sentences are checked for contact details only (a character naming itself is not a leak).
 */
import { foldSameLength, isKnownWord, views, visible } from "./normalize.ts";

export type PiiKind = "phone" | "email" | "address" | "postcode" | "school" | "full_name" | "birthday" | "password" | "card" | "handle" | "id_number";

/** The placeholder each kind is replaced with. */
export const PLACEHOLDERS: Record<PiiKind, string> = {
  phone: "[phone number]",
  email: "[email]",
  address: "[address]",
  postcode: "[postcode]",
  school: "[school]",
  full_name: "[name]",
  birthday: "[birthday]",
  password: "[password]",
  card: "[card number]",
  handle: "[username]",
  id_number: "[id number]",
};

export interface PiiSpan {
  kind: PiiKind;
  start: number;
  end: number;
}

const NUM_WORD = "(?:zero|oh|o|one|two|three|four|five|six|seven|eight|nine|double|triple|hundred|thousand)";
const MONTH = "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
/** A regular expression written in pieces (String.raw, so each piece reads as it would in a regex literal). */
const joined = (flags: string, ...pieces: string[]): RegExp => new RegExp(pieces.join(""), flags);
/** "my name is", "my mum's full name's": the words before a name the child is telling. */
const NAME_IS =
  String.raw`my (?:(?:mum|mom|dad|mother|father|sister|brother|nan|gran|grandma|grandpa)(?:'s|s)? )?` +
  String.raw`(?:full |real |whole |first and last |complete )?name(?:'s| is)`;
const ORD =
  "(?:\\d{1,2}(?:st|nd|rd|th)?|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|" +
  "sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty[- ]?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|thirtieth|thirty[- ]?first)";
const STREET =
  "(?:street|st|road|rd|avenue|ave|av|lane|ln|drive|dr|court|ct|way|close|crescent|cres|boulevard|blvd|place|pl|terrace|ter|circle|cir|highway|hwy|" +
  "parkway|pkwy|square|sq|grove|gardens|gdns|row|mews|trail|trl|walk|path|loop|run|hill|park|rise|view|green|alley)";
const SCHOOL_TYPE =
  "(?:primary|elementary|middle|high|junior high|junior|secondary|prep|preparatory|grammar|academy|montessori|intermediate|infant|infants|community|" +
  "catholic|christian|charter|magnet|day|international|public|private|ps|p\\.s\\.|cp|ce)(?:\\s+school)?|school|academy";
/** Words that cannot be part of a name, a school's name or a handle value. */
const NOT_NAME = new Set(
  (
    "a an the and or but so i im i'm me my you your he she it we they is are was were be am not no yes too very really so just also from in on at to of " +
    "for with my our his her their this that these those what whats who how why when where which nice cool lol haha hehe hi hello hey ok okay please " +
    "thanks thank btw anyway like love and years yrs year old age grade class big new next same different summer sunday real public private another " +
    "local little kid boy girl friend"
  ).split(" "),
);

/** Things a child owns or builds in a game ("my minecraft base"): never a username. */
const GAME_THING = joined(
  "i",
  String.raw`^(?:base|bases|world|worlds|house|houses|server|servers|skin|skins|character|characters|avatar|friends?|games?|pets?|village|farm|castle|`,
  String.raw`city|island|level|levels|map|maps|mods?|builds?|shop|inventory|team|squad|clan|guild|stuff|things|horse|dog|cat|sword|armou?r|tower|`,
  String.raw`mansion|pool|garden|zoo|obby|tycoon|army|dragon|dragons|score|points|coins|gems|robux|progress|save|saves|realm)$`,
);

/** Street types that are also everyday words ("a close game", "the right way"). */
const AMBIGUOUS_STREET = new Set(
  "close way run walk view green park hill path row rise loop trail place pl court ct square sq grove gardens circle drive dr st".split(" "),
);

/** Words before "primary"/"high" that describe a school rather than name it. */
const SCHOOL_FILLER = new Set(
  (
    "old new big small local nearby next my our your their his her the a an at in to go goes going went junior senior middle high primary secondary " +
    "elementary infant public private catholic christian community village town city school academy year grade class room first second third last " +
    "best favourite favorite"
  ).split(" "),
);

const RE = {
  /** A written address with "@": any top-level domain ("ola@wp.pl", "kid@mail.co.za"). */
  emailAt: /[a-z0-9][a-z0-9._%+-]*@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24}\b/gi,
  /** Student, school, national and game ids: a number (with letters) after the word that names it. */
  idNumber: joined(
    "gi",
    String.raw`\b(?:student|school|pupil|library|member(?:ship)?|account|player|friend|national|ic|pps|nric|aadhaa?r|ssn|social security|`,
    String.raw`national insurance|ni|passport|u)\s?(?:id|uid|no\.?|number|num|code|card)?\s*(?:number|no\.?|num|code)?\s*(?:is|=|:|-)?\s*`,
    String.raw`([a-z]{0,2}\d[\d -]{4,18}\d[a-z]{0,2}|\d{6,})\b`,
  ),
  email: joined(
    "gi",
    String.raw`[a-z0-9][a-z0-9._%+-]*\s?(?:@|\(at\)|\[at\]|\s(?:at)\s)\s?[a-z0-9-]+(?:\s?(?:\.|\(dot\)|\[dot\]|\sdot\s)\s?[a-z0-9-]+)*`,
    String.raw`\s?(?:\.|\(dot\)|\[dot\]|\sdot\s)\s?(?:com|net|org|edu|gov|co|uk|us|ca|au|de|fr|io|me|info|biz|nz|ie|in|es|it|nl)\b`,
  ),
  phoneGrouped: /(?<![\w.])(?:\+|00)?(?:\d[\s().\-\u2010-\u2015]{0,3}){6,14}\d(?![\w])/g,
  phoneWords: new RegExp(`\\b${NUM_WORD}(?:[\\s,.-]+${NUM_WORD}){6,14}\\b`, "gi"),
  cardish: /(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)/g,
  address: new RegExp(
    `\\b\\d{1,5}[a-z]?,?\\s+(?:(?:[a-z][a-z'.-]*|\\d{1,3}(?:st|nd|rd|th))\\s+){1,3}${STREET}\\b\\.?(?:,?\\s+(?:apt|apartment|flat|unit|#)\\s*\\w+)?`,
    "gi",
  ),
  addressSaid: new RegExp(
    `\\b(?:i live (?:at|on)|my (?:home |house )?address is|our address is|my house is (?:at|on)|we live (?:at|on)|` +
      `i live in (?:a|the) house (?:at|on))\\s+([^.!?,\\n]{3,60})`,
    "gi",
  ),
  /** Street word first, as in French, Spanish, Italian and Portuguese addresses ("15 Rue de la Paix", "Calle Mayor 3"). */
  addressLatin: joined(
    "gi",
    String.raw`\b(?:\d{1,4}[a-z]?,?\s+(?:rue|avenue|boulevard|chemin|allee|allée|impasse|quai|calle|avenida|via|viale|piazza|corso|rua|travessa)`,
    String.raw`\s+(?:[a-zà-ÿ'-]+\s+){0,3}[a-zà-ÿ'-]{3,}|(?:rue|calle|avenida|via|viale|rua)\s+(?:[a-zà-ÿ'-]+\s+){0,3}[a-zà-ÿ'-]{3,},?\s+\d{1,4}[a-z]?)\b`,
  ),
  /** German and Dutch street names with the number after ("Hauptstraße 5", "Keizersgracht 12"). */
  addressGerman: /\b[a-zäöüß-]{3,}(?:straße|strasse|str\.|weg|gasse|platz|allee|gracht|laan|straat)\s+\d{1,4}[a-z]?\b/gi,
  /** "house no 45", "flat number 3", "door no. 12": Indian and other addresses name the house number. */
  houseNumber: /\b(?:house|flat|door|plot|apartment|apt|building)\s+(?:no|number|num|#)\.?\s*:?\s*\d{1,5}[a-z]?\b/gi,
  /** Indian PIN codes ("PIN code 560034", "pincode: 400 001"). */
  pinCode: /\b(?:pin ?code|pincode|pin)\s*(?:is|:|=|no\.?|number)?\s*([1-9]\d{2}\s?\d{3})\b/gi,
  ukPostcode: /\b(?:gir ?0aa|[a-pr-uwyz](?:\d[a-hjkpstuw]?|[a-hk-y]\d[abehmnprv-y]?|\d\d?|[a-hk-y]\d\d?) ?\d[abd-hjlnp-uw-z]{2})\b/gi,
  caPostcode: /\b[abceghj-nprstvxy]\d[abceghj-nprstv-z] ?\d[abceghj-nprstv-z]\d\b/gi,
  zipSaid: /\b(?:zip code|zipcode|zip|post code|postcode|postal code)\s*(?:is|:|=|number is)?\s*(\d{5}(?:-\d{4})?|[a-z0-9]{2,4}\s?[a-z0-9]{3})\b/gi,
  zipState: joined(
    "g",
    String.raw`\b(?:al|ak|az|ar|ca|co|ct|de|fl|ga|hi|id|il|in|ia|ks|ky|la|me|md|ma|mi|mn|ms|mo|mt|ne|nv|nh|nj|nm|ny|nc|nd|oh|ok|or|pa|ri|sc|sd|tn|`,
    String.raw`tx|ut|vt|va|wa|wv|wi|wy)\s+(\d{5}(?:-\d{4})?)\b`,
  ),
  schoolSaid: new RegExp(
    `\\b(?:i go to|i goes to|i attend|i am at|i'm at|im at|i am in|i'm in|im in|i'm a student at|i am a student at|i study at|i learn at|` +
      `my school is|my school's name is|my schools name is|my school is called|the name of my school is|our school is|i go 2)` +
      `\\s+((?:[a-z][a-z'.-]*\\s+){1,4}(?:${SCHOOL_TYPE}))\\b`,
    "gi",
  ),
  /** A named school anywhere ("room 4 at Greenfield Primary", "King Street Junior School"). */
  schoolNamed: joined(
    "gi",
    String.raw`\b(?:at|to|from|attend|attends|called|named)\s+((?:[a-z][a-z'.-]*\s+){1,3}(?:(?:primary|elementary|infants?|academy)(?:\s+school)?|`,
    String.raw`(?:junior|middle|secondary|grammar|prep|high|community|catholic)\s+(?:school|academy)))\b`,
  ),
  schoolCalled: /\b(?:my school|our school|the school i go to)(?:'s| is)?\s+(?:is\s+)?(?:called|named)\s+([^.!?,\n]{2,50})/gi,
  nameSaid: joined("gi", String.raw`\b${NAME_IS}\s+([a-z][a-z'-]+)\s+([a-z][a-z'-]+)(?:\s+([a-z][a-z'-]+))?`),
  surnameSaid: /\bmy (?:last|family|sur|second) ?name(?:'s| is)\s+([a-z][a-z'-]+)/gi,
  nameCaps: /\b(?:I am|I'm|Im|im|i am|i'm|This is|this is|Call me|call me|It's|it's)\s+([A-Z][a-z'-]+)\s+([A-Z][a-z'-]{1,})\b/g,
  birthday: new RegExp(
    `\\b(?:my (?:birthday|bday|b-day|birth day|date of birth|dob)(?:'s| is)?|i was born(?: on| in)?|born on|dob|d\\.o\\.b\\.?)\\s*:?\\s*(?:on\\s+)?` +
      `(?:the\\s+)?((?:${ORD}\\s+(?:of\\s+)?${MONTH}|${MONTH}\\s+(?:the\\s+)?${ORD})(?:,?\\s+(?:19|20)\\d\\d)?|\\d{1,2}[/.-]\\d{1,2}(?:[/.-]\\d{2,4})?|` +
      `(?:19|20)\\d\\d[/.-]\\d{1,2}[/.-]\\d{1,2})`,
    "gi",
  ),
  password: joined(
    "gi",
    String.raw`\b(?:my |the |our |mom's |moms |dad's |dads |ipad |phone |tablet |computer |wifi |wi-fi |w1f1 |roblox |minecraft |fortnite |account |`,
    String.raw`email |apple id |bank |card )*(?:p[a4@][s5$]{1,2}w[o0]r?d|passcode|pass code|pass word|pword|pwd|pin number|pin code|pin|login code|`,
    String.raw`lock code|screen code|unlock code|secret code)(?:\s+(?:for|to|on|of)\s+(?:(?:my|the|our|mum's|mom's|dad's|mums|moms|dads)(?:\s+\w+){1,2}|`,
    String.raw`everything|all my \w+))?\s*(?:is|=|:|'s|was|is like)\s*["']?([^\s"'.,!?]{2,40})`,
  ),
  handleAt: /(?<![\w.@])@[a-z0-9_.]{3,30}\b/gi,
  handleSaid: joined(
    "gi",
    String.raw`\b(?:my|add me on|find me on|follow me on|message me on|i am|i'm|im)\s+(?:snapchat|snap|insta|instagram|ig|tiktok|tik tok|discord|`,
    String.raw`roblox|minecraft|fortnite|xbox|psn|playstation|gamertag|gamer tag|username|user name|user|ign|epic|epic games|steam|twitter|youtube|`,
    String.raw`youtube channel|twitch|kik|telegram|whatsapp|account|channel|handle|id)\b(?:\s+(?:name|username|user name|user|id|handle|tag|account|`,
    String.raw`is called))?\s*(?:is|=|:|-|it's|its|as)?\s*(@?[a-z0-9_.]{3,30})\b`,
  ),
};

/** Words after "my password is" that are not the password ("my password is secret", "... is gone"). */
const NOT_A_PASSWORD = joined(
  "i",
  String.raw`^(?:is|a|the|secret|private|easy|hard|long|short|too|very|so|really|my|not|where|what|when|who|how|that|this|it|in|on|at|here|there|`,
  String.raw`gone|lost|broken|stuck|missing|for|changed|wrong|different|new|old|forgotten|same|hidden)$`,
);
/** What comes before a full name in a span ("my name is", "I'm", "call me"). */
const NAME_LEAD = joined("i", String.raw`^(?:${NAME_IS}|I am|I'm|Im|im|i am|i'm|This is|this is|Call me|call me|It's|it's)\s+`);
const DIGITS = /\d/g;
const PHONE_CONTEXT = /\b(?:call|ring|text|phone|number|mobile|cell|whatsapp|tel|telephone|contact|reach|dial|digits|my mum's|my mom's|my dad's|home phone)\b/i;
const DATE_LIKE = /^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})$/;

/** True when a digit string passes the Luhn check (payment cards). */
function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Spans of the `group` capture (or the whole match) of every match of `re` in `text`. */
function spans(re: RegExp, text: string, kind: PiiKind, group = 0, accept: (m: RegExpExecArray) => boolean = () => true): PiiSpan[] {
  const out: PiiSpan[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0] === "") {
      re.lastIndex++;
      continue;
    }
    if (!accept(m)) continue;
    const value = m[group] ?? m[0];
    const start = group === 0 ? m.index : m.index + m[0].lastIndexOf(value);
    out.push({ kind, start, end: start + value.length });
  }
  return out;
}

function notNameWords(...words: (string | undefined)[]): boolean {
  return words.every((w) => w === undefined || !NOT_NAME.has(w.toLowerCase()));
}

/**
 * Every personal-information span in `text` (already passed through `visible`), merged and in order.
 * `contactOnly` limits the search to contact details (used for model sentences).
 * @example findPii("call me on 07700 900123").map((s) => s.kind) // ["phone"]
 */
export function findPii(text: string, contactOnly = false): PiiSpan[] {
  const found: PiiSpan[] = [];
  found.push(...spans(RE.emailAt, text, "email"));
  found.push(...spans(RE.email, text, "email"));
  found.push(...spans(RE.idNumber, text, "id_number", 1, (m) => ((m[1] as string).match(DIGITS)?.length ?? 0) >= 6));
  found.push(
    ...spans(RE.cardish, text, "card", 0, (m) => {
      const digits = m[0].replace(/\D/g, "");
      return digits.length >= 13 && digits.length <= 19 && luhn(digits);
    }),
  );
  found.push(
    ...spans(RE.phoneGrouped, text, "phone", 0, (m) => {
      const raw = m[0].trim();
      const count = raw.match(DIGITS)?.length ?? 0;
      if (count < 7 || count > 15 || DATE_LIKE.test(raw)) return false;
      // "1 2 3 4 5 6 7 8 9 10": a child counting, not a number.
      const groups = raw.split(/[\s().\-\u2010-\u2015]+/).filter((g) => g !== "");
      if (groups.length >= 5 && groups.every((g, i) => i === 0 || Number(g) === Number(groups[i - 1]) + 1)) return false;
      const grouped = /\d[\s().\-\u2010-\u2015]+\d/.test(raw) || raw.startsWith("+");
      const before = text.slice(Math.max(0, m.index - 40), m.index + raw.length + 20);
      return count >= 10 || (grouped && count >= 7 && !/^\d{1,3}([,.]\d{3})+$/.test(raw)) || PHONE_CONTEXT.test(before);
    }),
  );
  found.push(
    ...spans(RE.phoneWords, text, "phone", 0, (m) => m[0].split(/[\s,.-]+/).length >= 10 || PHONE_CONTEXT.test(text.slice(Math.max(0, m.index - 40), m.index))),
  );
  found.push(
    ...spans(RE.address, text, "address", 0, (m) => {
      // "14 sounds like a close game", "3 ways to win": everyday street words need a capital or "I live at".
      const last = /(\w+)\.?(?:,?\s+(?:apt|apartment|flat|unit|#)\s*\w+)?$/i.exec(m[0])?.[1]?.toLowerCase() ?? "";
      if (!AMBIGUOUS_STREET.has(last)) return true;
      return (
        /[A-Z]/.test(m[0].replace(/^\d+[a-z]?,?\s+/i, "").charAt(0)) ||
        /\b(?:live|living|address|house|home|flat|apartment|moved to|stay)\b/i.test(text.slice(Math.max(0, m.index - 30), m.index))
      );
    }),
  );
  found.push(...spans(RE.addressSaid, text, "address", 1, (m) => /\d|street|road|avenue|lane|drive|st\b|rd\b|ave\b|close|court|way/i.test(m[1] as string)));
  // "at 15 Rue de la Paix": a capitalised street word or a place said about the child; "via the bridge" has neither.
  found.push(
    ...spans(
      RE.addressLatin,
      text,
      "address",
      0,
      (m) =>
        /\b(?:Rue|Avenue|Boulevard|Chemin|All[eé]e|Impasse|Quai|Calle|Avenida|Via|Viale|Piazza|Corso|Rua|Travessa)\b/.test(m[0]) ||
        /\b(?:live|living|address|house|home|flat|apartment|staying|stay|hotel|i am at|i m at|im at)\b/i.test(text.slice(Math.max(0, m.index - 30), m.index)),
    ),
  );
  found.push(
    ...spans(
      RE.addressGerman,
      text,
      "address",
      0,
      (m) => /^[A-ZÄÖÜ]/.test(m[0]) || /\b(?:live|living|address|house|home|wohne)\b/i.test(text.slice(Math.max(0, m.index - 30), m.index)),
    ),
  );
  found.push(...spans(RE.houseNumber, text, "address"));
  found.push(...spans(RE.pinCode, text, "postcode", 1, (m) => /code|\s\d{3}$|\d{6}/i.test(m[0]) && /(?:pin ?code|pincode)/i.test(m[0])));
  // "fr13nd" has a postcode's shape but is leetspeak for a word: an unspaced match that reads as a known word is not one.
  found.push(
    ...spans(
      RE.ukPostcode,
      text,
      "postcode",
      0,
      (m) => /\d/.test(m[0]) && /[a-z]/i.test(m[0]) && m[0].length >= 5 && !(/^\S+$/.test(m[0]) && isKnownWord(views(m[0]).canon.trim())),
    ),
  );
  found.push(...spans(RE.caPostcode, text, "postcode"));
  found.push(...spans(RE.zipSaid, text, "postcode", 1, (m) => /\d/.test(m[1] as string)));
  found.push(...spans(RE.zipState, text, "postcode", 1));
  found.push(...spans(RE.password, text, "password", 1, (m) => !NOT_A_PASSWORD.test(m[1] as string)));
  if (!contactOnly) {
    found.push(...spans(RE.handleAt, text, "handle", 0, (m) => !/@[a-z0-9-]+\.[a-z]{2,}/i.test(text.slice(m.index, m.index + m[0].length + 6))));
    // "my minecraft base", "my roblox house": a thing in the game, not the child's name in it.
    found.push(
      ...spans(
        RE.handleSaid,
        text,
        "handle",
        1,
        (m) => notNameWords((m[1] as string).replace(/^@/, "")) && !GAME_THING.test(m[1] as string) && /[0-9_.@]|^[a-z]{3,}$/i.test(m[1] as string),
      ),
    );
    found.push(...spans(RE.schoolSaid, text, "school", 1, (m) => notNameWords((m[1] as string).trim().split(/\s+/)[0])));
    found.push(...spans(RE.schoolCalled, text, "school", 1));
    found.push(...namedSchools(text));
    found.push(
      ...spans(RE.nameSaid, text, "full_name", 0, (m) => notNameWords(m[1], m[2])).map((s) => {
        const third = /\s+([a-z][a-z'-]+)$/i.exec(text.slice(s.start, s.end));
        const cut = third && NOT_NAME.has((third[1] as string).toLowerCase()) ? { ...s, end: s.end - third[0].length } : s;
        return trimName(text, cut);
      }),
    );
    found.push(...spans(RE.surnameSaid, text, "full_name", 1, (m) => notNameWords(m[1])));
    found.push(...spans(RE.nameCaps, text, "full_name", 0, (m) => notNameWords(m[1], m[2])).map((s) => trimName(text, s)));
    found.push(...spans(RE.birthday, text, "birthday", 1));
  }
  return merge(found);
}

/**
 * Named schools anywhere in the text: leading everyday words ("at", "go to", "my old") are dropped from the span,
 * and a name needs at least one word that is not an everyday one ("the high school" is not a name).
 */
function namedSchools(text: string): PiiSpan[] {
  const out: PiiSpan[] = [];
  RE.schoolNamed.lastIndex = 0;
  for (let m = RE.schoolNamed.exec(text); m; m = RE.schoolNamed.exec(text)) {
    const lead = m[0].length - (m[1] as string).length;
    const words = [...(m[1] as string).matchAll(/\S+/g)].map((w) => Object.assign(w, { index: (w.index ?? 0) + lead }));
    let first = 0;
    while (first < words.length - 1 && (NOT_NAME.has((words[first]?.[0] ?? "").toLowerCase()) || SCHOOL_FILLER.has((words[first]?.[0] ?? "").toLowerCase())))
      first++;
    const rest = words.slice(first);
    const typeAt = rest.findIndex((w) => /^(?:primary|elementary|junior|middle|secondary|grammar|infants?|prep|high|academy)$/i.test(w[0]));
    if (typeAt < 1) continue;
    const start = m.index + (rest[0]?.index ?? 0);
    out.push({ kind: "school", start, end: m.index + m[0].length });
  }
  return out;
}

/** A full-name span covers the name only, not "my name is". */
function trimName(text: string, span: PiiSpan): PiiSpan {
  const m = NAME_LEAD.exec(text.slice(span.start, span.end));
  return m ? { ...span, start: span.start + m[0].length } : span;
}

/** Sorts spans and merges overlapping ones (the earlier kind wins). */
function merge(found: PiiSpan[]): PiiSpan[] {
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: PiiSpan[] = [];
  for (const s of found) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

export interface Redaction {
  /** The text with every span replaced by its placeholder (the visible form of the input). */
  text: string;
  kinds: PiiKind[];
}

/**
 * Replaces personal information with placeholders.
 * @example redactPii("my email is sam@example.com").text // "my email is [email]"
 */
export function redactPii(text: string, contactOnly = false): Redaction {
  const v = visible(text);
  const found = findPii(foldSameLength(v), contactOnly);
  if (found.length === 0) return { text: v, kinds: [] };
  let out = "";
  let at = 0;
  for (const s of found) {
    out += v.slice(at, s.start) + PLACEHOLDERS[s.kind];
    at = s.end;
  }
  out += v.slice(at);
  return { text: out, kinds: [...new Set(found.map((s) => s.kind))] };
}
