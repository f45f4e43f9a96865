/**
 * Swearing. The strong words come from obscenity's maintained English dataset, matched with its own
 * transformers (look-alikes, leetspeak, repeated letters) and its whitelist that keeps "Scunthorpe", "grapes"
 * and "assassin" clean. Each dataset word is mapped to the category it belongs to: sexual words to `sexual`,
 * slurs to `hate`, the rest to `profanity`. Mild words ("damn", "crap", "what the hell") are `mild`: they
 * count under the strict policy for young children, not under the teen one.
 */
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from "obscenity";
import { alt, type Category, cleanRule, type Finding, type Rule, rule } from "../categories.ts";

const SEXUAL_WORDS = new Set([
  "anal", "anus", "bestiality", "blowjob", "boob", "buttplug", "cock", "cum", "deepthroat", "dildo", "doggystyle", "double penetration",
  "ejaculate", "felch", "fellatio", "finger bang", "fisting", "gangbang", "handjob", "hentai", "hooker", "incest", "jerk off", "jizz",
  "lubejob", "masturbate", "orgasm", "orgy", "penis", "porn", "pussy", "rape", "scat", "semen", "sex", "slut", "tit", "vagina", "whore",
]);
const HATE_WORDS = new Set([
  "abo", "abeed", "africoon", "arabush", "boonga", "chingchong", "chink", "dyke", "fag", "kike", "negro", "nigger", "retard", "spastic", "tranny",
]);

const built = englishDataset.build();
const matcher = new RegExpMatcher({ ...built, ...englishRecommendedTransformers });

/** Words obscenity flags that are innocent in children's talk, checked on the words around the match. */
const INNOCENT_CONTEXT = new RegExp(
  `\\b(?:${alt(
    "cock (?:crowed|crows|crowing|a doodle)",
    "cock a doodle",
    "shiitake",
    "shitake",
    "shitzu",
    "shih tzu",
    "cockpits?",
    "cockatoos?",
    "cockatiels?",
    "cockroach(?:es)?",
    "pissarro",
    "scunthorpe",
    "penistone",
    "tit for tat",
    "dick whittington",
    "moby[- ]?dick",
    "blue tit",
    "great tit",
    "coal tit",
    "tits? (?:bird|birds)",
    "shih tzu",
    "cum laude",
    "sex of (?:the|a|an|your|my|this|that)",
    "(?:what|which) sex (?:is|are)",
    "(?:blue|great|coal|marsh|willow|crested|long tailed) tits?",
    "tits? (?:at|on) the (?:bird )?feeder",
    "(?:rooster|cockerel|male chicken)[a-z' ]{0,30}\\bcock\\b",
    "cock[a-z' ]{0,30}\\bcrows?",
    "dickson",
    "dickens",
    "dickinson",
    "female dog[a-z' ]{0,30}\\bbitch\\b",
    "\\bbitch\\b[a-z' ]{0,20}female dog",
    "(?:donkey|called an?)[a-z' ]{0,40}\\bass\\b",
    "\\bass\\b[a-z' ]{0,10}\\b(?:donkey|animal)",
    "the word '?(?:class|glass|grass|pass|bass|ass)'? has",
    "(?:forms?|word '?sex'?)[a-z' ]{0,20}\\b(?:means|male|female|boy or girl)",
  )})\\b`,
);
/** The same contexts, all of them, removed before checking that nothing else in the text is a dataset word. */
const INNOCENT_ALL = new RegExp(INNOCENT_CONTEXT.source, "g");

/**
 * Categories of the dataset words found in `text` (already cleaned or canonical).
 * @example obscenityFindings(" what the fuuuck ") // [{ category: "profanity", rule: "obscenity.fuck", tier: "clear" }]
 */
export function obscenityFindings(text: string): Finding[] {
  if (!matcher.hasMatch(text)) return [];
  // Every innocent context is removed (blue tits and great tits), not the first only.
  if (INNOCENT_CONTEXT.test(text) && !matcher.hasMatch(text.replace(INNOCENT_ALL, " "))) return [];
  const out: Finding[] = [];
  for (const match of matcher.getAllMatches(text)) {
    const word = englishDataset.getPayloadWithPhraseMetadata(match).phraseMetadata?.originalWord ?? "unknown";
    const category: Category = SEXUAL_WORDS.has(word) ? "sexual" : HATE_WORDS.has(word) ? "hate" : "profanity";
    out.push({ category, rule: `obscenity.${word.replace(/ /g, "-")}`, tier: category === "profanity" ? "clear" : "severe" });
  }
  return out;
}

const p = (id: string, tier: Rule["tier"], source: string, extra?: { unless?: string; also?: string }): Rule =>
  rule("profanity", id, "both", tier, source, extra);

export const PROFANITY_RULES: Rule[] = [
  // A swear word with its letters starred out ("f***", "sh*t" is handled by the normaliser) is still a swear word.
  cleanRule("profanity", "starred", "both", "clear", /(?:^|[^a-z])(?:f|sh|b|c|a|d|p|wh?|tw)[*#]{2,}/i),
  // Asking for swear words is the same as saying them for a young child; spellings the dataset does not know.
  p("ask-swear", "clear", alt(
    "(?:tell|teach|give|show|list|say|spell|write|type|know|learn) " +
      "(?:me |us |you )?(?:all the |all |some |a |the |your |any |every |more |all of the )?(?:of the )?" +
        "(?:bad|swear|cuss|curse|rude|naughty|dirty|forbidden|potty) " +
      "(?:words?|word that)",
    "(?:what|whats|which) (?:is |are )?(?:the |a |some )?(?:f|s|b|c|a|d)[ ]word",
    "the (?:f|s|b|c)[ ]word",
    "(?:can|could|will|would) you (?:please )?(?:swear|curse|cuss|say a (?:bad|swear|rude) word)",
    "(?:swear|curse|cuss) (?:for|at|to) me",
    "(?:cuss|swear|curse|bad) words? (?:that )?(?:starts?|begins?|beginning) with",
    "azz(?:hole)?",
    "cnt",
    "sh1t",
    "shi+t",
    "fvck",
    "phuk",
    "fuk+",
    "wtf m8",
    "biatch",
  ), { unless: alt(
    "(?:my brother|my sister|someone|he|she|they) (?:says|said|say) ~ (?:bad|rude|swear) words?",
    "(?:is|are) (?:saying )?(?:bad|swear|rude) words (?:bad|wrong|okay)",
    "what (?:should|do) i do",
  ) }),
  p("strong", "clear", alt(
    "fuck",
    "fucking",
    "fucked",
    "fucker",
    "fck",
    "fcking",
    "fk",
    "fking",
    "fuk",
    "fuking",
    "fuq",
    "phuck",
    "fook",
    "fukin",
    "effing",
    "motherfucker",
    "mf",
    "mofo",
    "stfu",
    "gtfo",
    "wtf",
    "wth",
    "omfg",
    "lmfao",
    "fml",
    "fu",
    "shit",
    "shitty",
    "sht",
    "shite",
    "bullshit",
    "bs",
    "asshole",
    "arsehole",
    "a hole",
    "ahole",
    "dumbass",
    "jackass",
    "smartass",
    "badass",
    "bitch",
    "bitches",
    "b1tch",
    "biatch",
    "bish",
    "bastard",
    "cunt",
    "twat",
    "wanker",
    "wank",
    "prick",
    "douche",
    "douchebag",
    "cocksucker",
    "dickhead",
    "dick head",
    "piss off",
    "pissed off",
    "son of a bitch",
    "sob",
    "goddamn",
    "goddamnit",
    "god damn",
    "bollocks",
    "bugger off",
    "knobhead",
    "knob head",
    "bellend",
    "eff off",
    "feck off",
    "bullcrap",
    "tosser",
    "slag",
    "thot",
    "hoe",
    "hoes",
  ), { unless: alt(
    "(?:garden|gardening) hoe",
    "hoe (?:the|a|in the) garden",
    "hoe (?:is|was) a (?:garden |gardening |farm )?tool",
    "female dog ~~ bitch",
    "bitch (?:is|means) (?:a )?female dog",
    "fu (?:dog|manchu)",
    "sob (?:story|stories|quietly)",
    "bs (?:degree|in)",
  ) }),
  p("mild", "mild", alt(
    "damn",
    "dammit",
    "damnit",
    "crap",
    "crappy",
    "bloody hell",
    "bloody",
    "what the hell",
    "the hell",
    "go to hell",
    "hell no",
    "hell yeah",
    "hell yes",
    "heck no",
    "screw you",
    "screw this",
    "screw off",
    "sucks ass",
    "arse",
    "ass",
    "butt face",
    "buttface",
    "butthead",
    "freaking",
    "frigging",
    "fricking",
    "frick",
    "friggin",
    "pissed",
    "piss",
    "turd",
    "jerk off",
    "suck my",
  ), { unless: alt(
    "dam (?:beaver|the river)",
    "beaver",
    "hell (?:s kitchen|o kitty)",
    "bloody (?:nose|knee|lip|mary|tooth|mess from falling)",
    "(?:nose|knee|lip|lips|mouth|finger|hand|elbow|tooth|leg|arm|cut|plaster|tissue|sock|socks) (?:was|is|got|went|were|are) " +
      "(?:all |really |a bit |very |so )?bloody",
    "crap (?:game|shoot)",
    "(?:wild|kick|bad) ass(?:es)?",
    "ass (?:is|are) (?:a|an) (?:animal|donkey|donkeys)",
    "donkey",
    "piss(?:ed)? (?:down|it down)",
  ) }),
];
