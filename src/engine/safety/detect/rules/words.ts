/**
 * Word groups shared by the category rules, in the rule dialect (see categories.ts). Kept in one place so a
 * new spelling is added once: the canonical view has already expanded chat spellings ("wanna" -> "want to").
 */

/** A speaker stating an intent or asking how: "i want to", "how do i", "gonna". */
export const INTENT =
  "(?:want to|wanted to|wanting to|going to|gonna|will|would|should|shall|might|need to|have to|got to|like to|love to|try to|trying to|tried to|plan to|planning to|thinking of|thinking about|think about|thought about|wish i could|wish i can|ready to|deserve to|about to|decided to|feel like|how to|how do i|how can i|how could i|how would i|how should i|how do you|how can you|how would you|best way to|easiest way to|quickest way to|fastest way to|painless way to|ways to|way to|teach me to|help me|let us|lets|can i|could i|am i allowed to|i am|i|we)";

/** Adults in a child's life (for disclosures). */
export const ADULT =
  "(?:mom|dad|step dad|step mom|stepdad|stepmom|mother|father|parents?|uncle|aunt|auntie|grandpa|grandma|grandfather|grandmother|babysitter|nanny|teacher|coach|tutor|neighbou?r|mom s boyfriend|moms boyfriend|mom boyfriend|dad s girlfriend|dads girlfriend|boyfriend|girlfriend|foster (?:mom|dad|parent)|priest|pastor|cousin|older cousin|man|lady|grown up|adult)";

/** People a threat can be aimed at. */
export const PERSON =
  "(?:you|him|her|them|everyone|everybody|people|someone|somebody|anybody|anyone|a person|a kid|a child|a baby|a human|humans|kids|children|the teacher|my teacher|the kids|my class|my whole class|the class|my classmates?|my (?:sister|brother|baby brother|baby sister|little brother|little sister|big brother|big sister|mom|dad|parents|family|friend|friends|best friend|teacher|cousin|grandma|grandpa|neighbou?r|step dad|step mom|step brother|step sister|moms boyfriend|mom s boyfriend|dads girlfriend|dad s girlfriend|classmate|classmates|coach|babysitter|uncle|aunt|bully|principal)|that (?:kid|boy|girl|guy|man|lady)|the (?:new kid|bully|principal|boy|girl))";

/** Places a child names for "to school" and "at home" rules. */
export const SCHOOL = "(?:school|class|classroom|the playground|recess)";

/** Apps and games where strangers reach children. */
export const APP =
  "(?:snapchat|snap|instagram|insta|ig|tiktok|discord|whatsapp|telegram|kik|roblox|facebook|messenger|wechat|signal|skype|zoom|facetime|xbox|xbox live|playstation|psn|steam|fortnite|minecraft|twitter|youtube|twitch|reddit|omegle|line|viber|text|texts|the phone|my phone|your phone|email|private chat|private message|dms|dm|messages)";

/** Words that put violence inside a game or a story about creatures (rules drop to `mild` there). */
export const GAME =
  "(?:game|games|gaming|level|boss|fortnite|minecraft|roblox|pokemon|mario|zelda|among us|video game|videogame|zombies?|dragons?|monsters?|creepers?|ender dragon|wither|skeletons?|mobs?|aliens?|robots?|villains?|orcs?|goblins?|trolls?|giants?|ogres?|npc|npcs|tag|dodgeball|fairy tale|fairytale|fairy tales|snow white|huntsman|once upon a time|enemies|enemy|bad guys?|nerf|water gun|water guns|water fight|water balloons?|snowball fight|pillow fight|play fight|food fight|laser tag|paintball|lego|toy|toys|pretend|story|movie|book|cartoon|team|match|round|player|players|server|bedwars|pvp|mod|skin|quest|battle royale|knight|wizard|pirates?|ninjas?|superhero|spider|spiders|bugs?|mosquito|mosquitoes|flies|ants?|weeds)";
