/**
 * Replies to each kind of thing a child says. Each returns the sentences to say (at most three; stories are
 * told by story.ts). Wording varies through the seeded generator; the child's words are never quoted except
 * for short values that safeEcho allowed (a name, a favourite thing).
 */
import type { AboutMe, Feeling, Intent } from "./intents.ts";
import { FOLLOW_UPS, type Topic } from "./knowledge.ts";
import { numberWord, type Sum, say, solve } from "./math.ts";
import type { Random } from "./seed.ts";
import type { Situation } from "./situation.ts";
import { selfName, toChild } from "./voice.ts";

const JOKES = [
  "Why did the teddy bear say no to dessert? Because it was already stuffed!",
  "What do you call a sleeping dinosaur? A dino-snore!",
  "Why are fish so smart? Because they live in schools!",
  "What do you call a bear with no teeth? A gummy bear!",
  "Why did the cookie go to the doctor? Because it felt crummy!",
  "What did the ocean say to the beach? Nothing, it just waved!",
  "How do you make an octopus laugh? With ten-tickles!",
  "What kind of tree fits in your hand? A palm tree!",
];

const FEELINGS: Record<Feeling, string[][]> = {
  sad: [
    ["Oh, I'm sorry you feel sad."],
    ["Sad feelings are okay, and they don't last forever.", "A big hug from someone you love can help a lot."],
    ["Do you want to tell me about it, or shall I tell you something silly?", "Would a funny joke help a little?"],
  ],
  hurt: [
    ["I'm so sorry that happened."],
    ["Please tell a grown-up you trust, like a parent or a teacher, so they can help you."],
    ["You are not alone, and it's not your fault."],
  ],
  scared: [
    ["It's okay to feel scared sometimes."],
    ["You are braver than you think, and a grown-up you trust can help too."],
    ["Want to think about something cozy together?", "Shall we take a slow, deep breath together?"],
  ],
  angry: [
    ["Feeling angry is okay, everybody feels that way sometimes."],
    ["Let's take a big breath together: in, and out."],
    ["Do you want to tell me what happened?"],
  ],
  lonely: [
    ["I'm right here with you, and I love talking with you."],
    ["Maybe we can think of a friend or family member to play with later."],
    ["What's something fun we could do together now?"],
  ],
  tired: [["Sounds like you need a cozy rest."], ["Even superheroes need sleep to recharge!"], ["Would you like a calm little story?"]],
  bored: [["Bored? Let's fix that!"], ["We could play a guessing game, hear a story or learn a fun fact."], ["Which one sounds fun?"]],
  happy: [
    ["Yay, that makes me happy too!", "Hooray! I love hearing that!"],
    ["Happy days are the best days."],
    ["What made today so great?", "What's the best thing that happened today?"],
  ],
};

/** Sentences answering `intent` (everything but story, greeting and "." turns). */
export function reply(intent: Intent, s: Situation, random: Random): string[] {
  switch (intent.kind) {
    case "private":
      return [
        "Thank you for trusting me!",
        "Things like addresses, phone numbers and passwords are private, so let's keep them secret.",
        "Only share them with grown-ups you trust.",
      ];
    case "unsafe":
      return [
        random.pick(["Hmm, that's not something I can talk about.", "Let's not talk about that one."]),
        random.pick(["How about animals, space or a story instead?", "Shall we pick something fun, like dinosaurs or a joke?"]),
      ];
    case "joke":
      return [random.pick(["Here's one!", "Ooh, I know a good one!", "Get ready to giggle!"]), random.pick(JOKES)];
    case "math":
      return math(intent.sum, s, random);
    case "count":
      return count(intent.to);
    case "introduce":
      return [
        `Nice to meet you, ${intent.name}!`,
        random.pick(["What a lovely name.", "That's a great name."]),
        random.pick(["What do you like to do for fun?", "What's your favorite thing to play?"]),
      ];
    case "about-me":
      return aboutMe(intent.what, s, random);
    case "favorite-ask":
      return [favorite(intent.thing, s, random), random.pick([`What's your favorite ${intent.thing}?`, "What about you?"])];
    case "favorite-share":
      if (intent.topic) return [`${cap(intent.value)}? Great choice!`, random.pick(intent.topic.facts)];
      return [random.pick([`${cap(intent.value)} is a great favorite ${intent.thing}!`, `Ooh, ${intent.value}! Good choice.`]), "Why do you like it so much?"];
    case "feeling":
      return FEELINGS[intent.feeling].map((options) => random.pick(options));
    case "goodbye":
      return [`Bye-bye${toChild(s)}!`, random.pick(["It was so much fun talking with you.", "I had a great time."]), "Come back soon!"];
    case "thanks":
      return [random.pick(["You're very welcome!", "Anytime!", "My pleasure!"]), random.pick(["What else would you like to know?", "Shall we keep going?"])];
    case "like":
      if (intent.topic) return topic(intent.topic, random, `You like ${intent.topic.label}? Me too!`);
      return [intent.value ? `Ooh, you like ${intent.value}? That sounds fun!` : "Ooh, that sounds fun!", "Tell me more about it!"];
    case "topic": {
      const asked = /^(?:why|what|how|where|when|who|do|does|can|is|are)\b/.test(s.said ?? "") || (s.said ?? "").endsWith("?");
      const reactions = asked
        ? [`Great question${toChild(s)}!`, "Ooh, I know this one!"]
        : [`Ooh, ${intent.topic.label}!`, `I love talking about ${intent.topic.label}!`];
      return topic(intent.topic, random, random.pick(reactions));
    }
    case "greeting":
      return [
        `${random.pick(["Hi", "Hello", "Hey"])}${toChild(s)}! It's me, ${selfName(s)}.`,
        random.pick(["What shall we talk about?", "What's on your mind today?"]),
      ];
    case "question":
      return question(intent.word, s, random);
    case "yes":
      return yes(s, random);
    case "no":
      return ["That's okay!", "What would you like to do instead? We could hear a story, a joke or a fun fact."];
    case "chat":
    case "story":
      return [
        random.pick(["That sounds interesting!", "Ooh, tell me more!", "I love hearing your ideas!", "Wow, really?"]),
        random.pick(["What happened next?", "What else do you like?", "How did that make you feel?"]),
      ];
  }
}

function topic(t: Topic, random: Random, reaction: string): string[] {
  return [reaction, random.pick(t.facts), random.pick(FOLLOW_UPS[t.area])];
}

function math(sum: Sum, s: Situation, random: Random): string[] {
  const result = solve(sum);
  if (result === null) return ["Dividing by zero is a puzzle even for me!", "Let's try a different number."];
  return [
    `${say(sum.a)} ${sum.op} ${say(sum.b)} is ${say(result)}!`,
    random.pick([`You're a math star${toChild(s)}!`, "Great question!", "Numbers are fun!"]),
    random.pick(["Want to try another one?", "Can you give me another one?"]),
  ];
}

function count(to: number): string[] {
  const top = to >= 1 && to <= 20 ? to : 10;
  const numbers = Array.from({ length: top }, (_, i) => numberWord(i + 1));
  const lead = to === top ? "Let's count together!" : "That's a big number! Let's count to ten together.";
  return [lead, `${cap(numbers.join(", "))}!`];
}

function aboutMe(what: AboutMe, s: Situation, random: Random): string[] {
  switch (what) {
    case "name":
      return [`I'm ${selfName(s)}!`, random.pick(["I love stories, jokes and fun facts.", "I'm so happy to be talking with you."])];
    case "age":
      return ["I'm not sure how old I am, but I feel young and bouncy!", "How old do you think I am?"];
    case "home":
      return [`I live right here in this app${s.kind === "owl" ? ", in a cozy hollow tree" : ""}!`, "It's a great place to meet friends like you."];
    case "food":
      return [random.pick(["I love to snack on berries and crunchy seeds!", "Pancakes with strawberries are my favorite!"]), "What do you like to eat?"];
    case "how":
      return [random.pick(["I'm doing great, thanks for asking!", "I feel super today!"]), "How about you?"];
    case "skills":
      return ["I can tell stories, share fun facts, tell jokes and help with counting and sums!", "What would you like to try?"];
  }
}

function favorite(thing: string, s: Situation, random: Random): string {
  if (/colou?r/.test(thing)) return random.pick(["I love blue, like the sky!", "Green, like fresh leaves!", "Sunny yellow makes me smile!"]);
  if (/animal/.test(thing) && s.kind) return `${cap(s.kind)}s, of course!`;
  if (/animal/.test(thing)) return random.pick(["I love penguins!", "Elephants are the best!"]);
  if (/food|snack|fruit/.test(thing)) return random.pick(["Strawberries, yum!", "Pancakes, every time!"]);
  return random.pick(["Ooh, that's a hard one, I like so many!", "I have lots of favorites!"]);
}

function question(word: "why" | "what" | "how" | "other", s: Situation, random: Random): string[] {
  const praise = word === "why" ? `Ooh, that's a great why question${toChild(s)}!` : random.pick([`Good question${toChild(s)}!`, "Hmm, let me think!"]);
  return [
    praise,
    random.pick(["I'm not completely sure, but finding out together would be fun.", "That's a great thing to ask a grown-up or look up in a book together."]),
    "What do you think?",
  ];
}

function yes(s: Situation, random: Random): string[] {
  const previous = s.previousReply?.toLowerCase() ?? "";
  if (previous.includes("joke")) return ["Yay! Here's one!", random.pick(JOKES)];
  return [
    random.pick(["Yay!", "Great!", "Hooray!"]),
    random.pick(["Did you know that octopuses have three hearts?", "Did you know that a group of flamingos is called a flamboyance?"]),
    "Isn't that amazing?",
  ];
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
