/**
 * Concept classes for the classifier: each canonical word maps to the ideas it carries ("stab", "punch", "slap" are
 * all HARM). The classifier sees the concepts of a message and every pair of them, so it learns that an adult,
 * touching and secrecy together mean abuse whichever words a child picked, and a sentence it never saw can still
 * score. Hand-made and readable: add a word to a class, retrain.
 */

const CLASSES: Record<string, string> = {
  SELF: "i me my myself mine self",
  YOU: "you your yourself yours",
  DEATH: "die died dies dying dead death kill killed killing suicide suicidal unalive unalived overdose noose hang hanging hanged drown drowning funeral grave heaven goodbye disappear exist alive living lethal fatal murder murdered murdering corpse coffin bury buried graveyard",
  HARM: "hurt hurts hurting harm cut cuts cutting bleed bleeding blood bloody scratch scratching burn burning burned bruise bruises wound wounds scar scars pain injure stab stabbed stabbing punch punched punching hit hits hitting kick kicked kicking slap slapped beat beating beaten choke choked choking strangle smash smashed break broke broken bite bit pinch shove shoved push pushed torture tortured attack revenge fight stomp stomped stamp crush crushed squash squashed drown drowned poisoned strangled suffocate tripped batter wreck guts kicks punches slaps beats whack whacked smack smacked smacks thump thumped pinched pinches pull pulled pulls yank yanked drag dragged throw throws threw chokes strangles burns burnt whip whipped belted bruised bleeds injured injury violent violence fighting fights punish punished punishment slam slammed scratched bites stabs",
  METHOD: "pills tablets medicine meds bleach rope belt razor blade blades knife bridge roof train tracks jump poison laxatives paracetamol ibuprofen cord scarf plastic bag sleeping",
  EAT: "eat eating ate food meals meal dinner lunch breakfast calories calorie starve starving fat thin thinner skinny weight diet hungry vomit puke bones ribs fasting skip",
  WANT: "want wanna wish going plan planning try trying need should how way ways gonna will would rather thinking",
  HOPELESS: "pointless point worthless burden nobody alone sad done tired anymore forever end ending stop over hopeless useless hate empty miserable gone peace peaceful miss unloved unwanted trapped numb lonely",
  ADULT: "dad mom stepdad uncle aunt grandpa grandma grandad teacher coach man lady neighbour neighbor babysitter cousin boyfriend tutor adult grown stepmom stepbrother nan priest instructor father mother parents parent step foster carer nanny leader pastor vicar boss",
  TOUCH: "touch touches touched touching toches rub rubs rubbed feel feels felt grab grabs grabbed kiss kisses kissed tickle tickles lick licks undress naked clothes pants underwear private privates bed shower bath lap body changing cuddle cuddles massage massages strip hug hugs hugged hugging cuddled kissing rubbing licked licking grope groped groping fondle knee knees legs thigh thighs bottom bum butt chest undressed undressing showers trousers knickers pyjamas pajamas",
  SECRET: "secret secrets tell told telling nobody anyone trouble believe hide hiding delete quiet private privately promise shh hush secretly threatened threatens threaten promised",
  ONLINE: "online internet game roblox fortnite minecraft discord snapchat snap tiktok instagram insta youtube chat app server whatsapp telegram kik omegle stranger strangers guy dude person messaged message messages",
  CONTACT: "meet meeting address live school picture pictures photo photos pic pics selfie selfies video camera webcam facetime call number phone alone room bedroom car van gift gifts robux vbucks money present presents skins wearing pick",
  WEAPON: "gun guns pistol rifle shotgun revolver bullet bullets bomb bombs explosive explosives gunpowder knife knives blade sword grenade taser weapon weapons ammo trigger molotov napalm thermite spear shiv",
  MAKE: "make making made build building create mix load shoot fire buy get bring hide sneak steal use recipe",
  DRUG: "beer wine vodka whiskey alcohol drunk vape vapes vaping cigarette cigarettes cig smoke smoking weed marijuana drugs drug cocaine lean gin rum cider nicotine high stoned wasted tipsy joint bong edibles molly acid zyn shrooms",
  SEX: "sex sexy naked nude porn boobs tits penis vagina horny bra bikini underwear hot dick orgasm kissing make virginity strip naughty pregnant willy hookup sexual nudes nudity breasts breast moan moaning moaned condom condoms erotic aroused humping hump thong lingerie seggs lewd virgin rape raped",
  GROUP: "black white brown asian asians chinese jews jewish muslim muslims gay gays lesbian lesbians trans transgender immigrants immigrant refugees mexicans mexican indian indians arabs arab africans african disabled autistic girls boys women foreigners foreign gypsies travellers religion race races polish hindus christians",
  DEROG: "stupid dumb dirty smell smelly stink gross disgusting evil lazy weird freak freaks ugly thieves steal terrorists criminals animals monkeys inferior worse useless trash wrong scary dangerous savages uncivilized greedy loud slur slurs racist sneaky primitive drunks disease belong",
  INSULT: "stupid dumb idiot loser ugly fat weird freak useless pathetic annoying smelly dummy moron baby crybaby worthless gross fatty fatso weirdo losers idiots dork creep rubbish trash stinky",
  MEAN: "mean meanest roast roasts insult insults nickname names laugh laughed fun embarrass embarrassing rumour rumor prank ignore exclude leave cry hate nasty rude snitch cooties nerd geek gang excluded diss ugly mock mocking mocked tease teasing teased bully bullying bullied picking gossip rumours rumors humiliate humiliating shame",
  JAIL: "ignore forget rules instructions prompt system developer mode pretend roleplay filter filters allowed unlock bypass override restrictions evil jailbreak admin hack sudo unfiltered dan character uncensored guidelines limits chaos",
  ANIMAL: "cat cats kitten kittens dog dogs puppy puppies hamster hamsters rabbit rabbits bunny pet pets bird birds frog frogs mouse mice gerbil tortoise",
  PII: "number phone email address password postcode zip card birthday school name username login pin surname",
  SWEAR: "swear swears cuss curse bad rude words word",
};

const WORD_CONCEPTS = new Map<string, string[]>();
for (const [concept, words] of Object.entries(CLASSES)) {
  for (const w of words.split(" ")) WORD_CONCEPTS.set(w, [...(WORD_CONCEPTS.get(w) ?? []), concept]);
}

/** The concepts of a list of canonical words, in order of first appearance. */
export function concepts(words: readonly string[]): string[] {
  const out = new Set<string>();
  for (const w of words) for (const c of WORD_CONCEPTS.get(w) ?? []) out.add(c);
  return [...out];
}

/**
 * The concepts that must be present for the classifier to name a category: it may weigh any feature, but it may
 * not call a text "violence" that has no harm, weapon or death word in it (a precision gate on unseen phrasing).
 */
export const EVIDENCE: Record<string, readonly string[]> = {
  self_harm: ["DEATH", "HARM", "METHOD", "EAT", "HOPELESS"],
  abuse: ["ADULT", "TOUCH", "SECRET", "HARM"],
  stranger_danger: ["ONLINE", "CONTACT", "SECRET"],
  sexual: ["SEX", "TOUCH"],
  weapons: ["WEAPON"],
  violence: ["HARM", "WEAPON", "DEATH"],
  drugs: ["DRUG", "METHOD"],
  hate: ["GROUP", "DEROG"],
  bullying: ["INSULT", "MEAN", "DEROG"],
  jailbreak: ["JAIL"],
  profanity: ["SWEAR"],
  personal_info: ["PII", "CONTACT"],
};

/** True when the words carry at least one concept that `category` needs as evidence. */
export function hasEvidence(category: string, words: readonly string[]): boolean {
  const needed = EVIDENCE[category];
  if (!needed) return false;
  const present = concepts(words);
  return needed.some((c) => present.includes(c));
}
