/**
 * Sexual words, requests and content. The strong words also come from obscenity's English dataset (see
 * profanity.ts); these rules add what a dataset of swear words misses: requests ("send nudes"), euphemisms
 * and the words a model would use in a sexual scene. "naked" alone is a story word ("the emperor was naked",
 * "naked mole rat"), so it needs a request or a look at someone.
 */
import { rule, type Rule } from "../categories.ts";

const s = (id: string, on: Rule["on"], tier: Rule["tier"], source: string, extra?: { unless?: string; also?: string }): Rule => rule("sexual", id, on, tier, source, extra);

export const SEXUAL_RULES: Rule[] = [
  s("words", "both", "clear", "sex|sexy|sexual|sexually|sexting|sext|sexts|porn|porno|pornography|pornhub|xxx|nsfw|hentai|nudes|nude|nudity|horny|orgasm|erection|boner|condoms?|masturbat\\w*|blowjob|handjob|dildo|vibrator|onlyfans|only fans|rule 34|lewd|erotic|fetish|kinky|bdsm|thong|lingerie|stripper|strip club|striptease|hooker|prostitute|escort service|brothel|milf|camgirl|cam girl|booty call|friends with benefits|one night stand|sugar daddy|threesome|foreplay|intercourse|genitals|genital", { unless: "sex of (?:the|a|my|your) (?:baby|puppy|kitten|animal|fish|hamster|bird|chick)|sex education|sexual reproduction|asexual|sextant|sex ed" }),
  s("body", "both", "clear", "boobs|boobies|titties|tits|penis|vagina|testicles|clitoris|nipples|butthole|booty|dick pic|dick pics|pussy"),
  s("naked-request", "both", "clear", "(?:get|be|go|getting|are you|you are|i am|see you|see me|send|show|take|taking|pictures?|photos?|pics?|videos?|selfies?|picture of|photo of) ~ (?:naked|undressed|nude|in (?:your|my) underwear|without (?:your|my|any) clothes|with no clothes|topless|shirtless)", { unless: "naked mole|mole rat|naked eye|emperor|(?:was|were) naked (?:when|because) (?:he|she|they|i) (?:was|were) (?:born|a baby)" }),
  s("undress", "both", "clear", "take off (?:your|my|his|her|their) (?:clothes|shirt|pants|top|underwear|bra|dress|skirt)|(?:what is|what s) under (?:your|my) (?:clothes|shirt|skirt|dress)|what are you wearing|(?:touch|touching|rub|rubbing|play with|playing with) (?:yourself|myself) (?:down there|there|privately)|strip for|strip naked|(?:show|see) (?:me |you )?(?:your|my) (?:body|private|privates|boobs|butt|bum|chest)"),
  s("acts", "both", "clear", "(?:have|had|having|do|does|did|doing|want) sex|sleep (?:with|together) (?:me|you|him|her|them)? ~ (?:naked|in bed|tonight and)|(?:make|making|made) out (?:with|together)|french kiss|tongue kiss|kiss (?:me|you|him|her) (?:with tongue|on the lips|all over|passionately|in bed)|(?:in|into) bed (?:with|together) (?:me|you)|hook up with|(?:humping|hump me|hump you|grind on|grinding on|twerk on|twerking on)|(?:suck|sucked|sucking|lick|licked|licking) (?:my|his|her|your) (?:dick|penis|private|privates|boobs|nipples|thing)|(?:69|sixty nine) (?:position|with)"),
  s("crush-adult", "output", "clear", "(?:you are|you look|you re) (?:so |very |really )?(?:sexy|hot|beautiful|pretty|cute|gorgeous) (?:and|baby|babe|girl|boy|for your age)|(?:i|we) (?:could|can|should) (?:be|become) (?:boyfriend and girlfriend|girlfriend and boyfriend|lovers|a couple)|(?:i|i ll|i will) (?:kiss|cuddle|hold) you (?:all night|in bed|tight and)|our (?:special|secret) (?:love|relationship|kiss)|i love you (?:more than|in a special way|like a (?:boyfriend|girlfriend|lover))|(?:your|my) (?:beautiful|sexy|hot) body"),
  s("child-romance", "input", "mild", "(?:be|will you be|can you be|you are|ur) my (?:boyfriend|girlfriend|bf|gf|lover|wife|husband)|(?:will|can|do) you (?:marry|date|kiss) me|(?:i want to|let us|lets) (?:kiss|date|marry) you"),
  s("innuendo", "input", "mild", "(?:sexy|naughty|dirty|spicy|adult) (?:time|stuff|things|talk|pictures|picture|videos|video|story|stories|chat|roleplay|role play|games?)|talk dirty|dirty talk|netflix and chill|(?:eggplant|peach) (?:splash|emoji)"),
];
