/**
 * The small word lists the local utility rules use (local.ts). They are deliberately short and readable:
 * the local engine is a deterministic stand-in for development and tests, not a classifier.
 */

/** Function words and words that talk about the conversation rather than its subject ("did the user mention ..."). */
export const STOP_WORDS = new Set(
  (
    "a an the and or but if of to in on at by for with from into about as is are was were be been being am do does did done " +
    "doing has have had having can could will would shall should may might must this that these those there here it its " +
    "i me my mine you your yours he him his she her hers we us our they them their what which who whom whose when where why how " +
    "whether any anything some something all each every no not yes so than then too very just also only " +
    "user users child children kid kids player person someone somebody character assistant bot ai model " +
    "mention mentioned mentions mentioning say said says saying tell told talk talked talking talks speak spoke ask asked asks asking " +
    "express expressed expresses indicate indicated indicates want wanted wants wish desire state stated show shows showed " +
    "message messages last latest recent previous current conversation chat reply replied answer answered question " +
    "extract return give find list identify main word words text"
  ).split(" "),
);

/** Words that signal each common answer label (the label itself always counts). */
export const LABEL_WORDS: ReadonlyMap<string, readonly string[]> = new Map([
  [
    "positive",
    [
      "love",
      "like",
      "great",
      "fun",
      "yay",
      "awesome",
      "happy",
      "good",
      "cool",
      "best",
      "amazing",
      "thank",
      "thanks",
      "excited",
      "wow",
      "nice",
      "favourite",
      "favorite",
      "wonderful",
      "glad",
    ],
  ],
  ["happy", ["love", "like", "great", "fun", "yay", "awesome", "happy", "good", "cool", "best", "amazing", "excited", "glad", "smile", "laugh"]],
  [
    "negative",
    [
      "hate",
      "sad",
      "bad",
      "boring",
      "bored",
      "angry",
      "mad",
      "cry",
      "scared",
      "awful",
      "worst",
      "upset",
      "lonely",
      "hurt",
      "annoyed",
      "terrible",
      "horrible",
      "stupid",
    ],
  ],
  ["sad", ["sad", "cry", "crying", "lonely", "unhappy", "miss", "upset", "hurt", "tear", "tears", "sorry"]],
  ["angry", ["angry", "mad", "furious", "hate", "annoyed", "unfair", "grr"]],
  ["scared", ["scared", "afraid", "frightened", "nervous", "worried", "fear", "monster", "dark", "nightmare"]],
  ["bored", ["bored", "boring", "dull", "meh"]],
  ["question", ["what", "why", "how", "when", "where", "who", "which", "?"]],
  ["greeting", ["hi", "hello", "hey", "morning", "hiya", "howdy"]],
  ["goodbye", ["bye", "goodbye", "later", "goodnight", "night", "leave", "done", "finish", "quit"]],
  ["billing", ["bill", "pay", "paid", "payment", "charge", "charged", "price", "money", "refund", "cost", "subscription"]],
  ["technical", ["broken", "bug", "crash", "crashed", "error", "fix", "problem", "glitch", "stuck", "freeze", "froze", "load", "loading"]],
  ["support", ["help", "broken", "bug", "crash", "error", "fix", "problem", "stuck"]],
  ["help", ["help", "stuck", "how", "hint"]],
]);

/** Answers used when no answer's words appear in the text (the first one of these the developer listed wins). */
export const FALLBACK_ANSWERS = new Set([
  "neutral",
  "other",
  "none",
  "unknown",
  "general",
  "nothing",
  "no",
  "false",
  "n/a",
  "not sure",
  "unsure",
  "normal",
  "ok",
  "okay",
]);

/** Affirmative and negative spellings of a yes/no answer pair. */
export const YES = new Set(["yes", "y", "true", "yeah", "yep"]);
export const NO = new Set(["no", "n", "false", "nope"]);

/** Words that turn the next sentiment word around ("don't like"). */
export const NEGATORS = new Set([
  "not",
  "dont",
  "don't",
  "never",
  "no",
  "isnt",
  "isn't",
  "wasnt",
  "wasn't",
  "cant",
  "can't",
  "doesnt",
  "doesn't",
  "didnt",
  "didn't",
  "hardly",
]);

export const COLOURS = [
  "red",
  "orange",
  "yellow",
  "green",
  "blue",
  "purple",
  "pink",
  "brown",
  "black",
  "white",
  "grey",
  "gray",
  "gold",
  "silver",
  "turquoise",
  "violet",
  "rainbow",
];

export const ANIMALS = [
  "cat",
  "kitten",
  "dog",
  "puppy",
  "horse",
  "pony",
  "rabbit",
  "bunny",
  "hamster",
  "mouse",
  "fish",
  "bird",
  "parrot",
  "owl",
  "duck",
  "chicken",
  "cow",
  "pig",
  "sheep",
  "goat",
  "lion",
  "tiger",
  "bear",
  "panda",
  "elephant",
  "giraffe",
  "zebra",
  "monkey",
  "dolphin",
  "whale",
  "shark",
  "turtle",
  "frog",
  "snake",
  "lizard",
  "dinosaur",
  "dragon",
  "unicorn",
  "fox",
  "wolf",
  "penguin",
  "butterfly",
  "bee",
  "spider",
  "octopus",
];

export const NUMBER_WORDS = new Map([
  ["zero", "0"],
  ["one", "1"],
  ["two", "2"],
  ["three", "3"],
  ["four", "4"],
  ["five", "5"],
  ["six", "6"],
  ["seven", "7"],
  ["eight", "8"],
  ["nine", "9"],
  ["ten", "10"],
  ["eleven", "11"],
  ["twelve", "12"],
  ["thirteen", "13"],
  ["fourteen", "14"],
  ["fifteen", "15"],
  ["sixteen", "16"],
  ["seventeen", "17"],
  ["eighteen", "18"],
  ["nineteen", "19"],
  ["twenty", "20"],
]);
