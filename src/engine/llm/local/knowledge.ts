/**
 * The little that the local engine "knows": child-friendly facts about animals, space, dinosaurs and nature,
 * each with a label to react with and follow-up questions. Plain data; matching lives in intents.ts.
 */

export type Area = "animal" | "space" | "dinosaur" | "nature";

export interface Topic {
  /** Words that bring the topic up (a plural "s" is also matched). */
  keys: string[];
  /** How the character names it in a reaction: "Ooh, owls!" */
  label: string;
  area: Area;
  facts: string[];
}

const animal = (keys: string[], label: string, ...facts: string[]): Topic => ({ keys, label, area: "animal", facts });
const space = (keys: string[], label: string, ...facts: string[]): Topic => ({ keys, label, area: "space", facts });
const dino = (keys: string[], label: string, ...facts: string[]): Topic => ({ keys, label, area: "dinosaur", facts });
const nature = (keys: string[], label: string, ...facts: string[]): Topic => ({ keys, label, area: "nature", facts });

/** Specific topics come before general ones ("t rex" before "dinosaur"), since the first match wins. */
export const TOPICS: Topic[] = [
  dino(
    ["t rex", "t-rex", "trex", "tyrannosaurus"],
    "T-rex",
    "T-rex had teeth as big as bananas!",
    "T-rex had tiny arms, but it had super strong legs for running.",
  ),
  dino(["triceratops"], "Triceratops", "Triceratops had three horns on its face and a big bony frill.", "Triceratops munched on plants all day long."),
  dino(["stegosaurus"], "Stegosaurus", "Stegosaurus had big plates on its back and spikes on its tail."),
  dino(
    ["brachiosaurus", "diplodocus", "long neck"],
    "long-necked dinosaurs",
    "Long-necked dinosaurs could eat leaves from the very tops of the tallest trees.",
  ),
  dino(["pterodactyl", "pteranodon"], "pterodactyls", "Pterodactyls soared over the dinosaurs on big leathery wings."),
  dino(
    ["dinosaur", "dino"],
    "dinosaurs",
    "Dinosaurs lived a very, very long time ago, long before people.",
    "Some dinosaurs were as small as chickens!",
    "Birds are cousins of the dinosaurs!",
  ),
  space(
    ["sun"],
    "the sun",
    "The sun is a star, and it is so big that a million Earths could fit inside it!",
    "Sunlight takes about eight minutes to travel all the way to us.",
  ),
  space(
    ["moon"],
    "the moon",
    "The moon doesn't make its own light. It shines because the sun lights it up!",
    "Astronauts walked on the moon and left footprints that are still there.",
  ),
  space(["mars"], "Mars", "Mars is called the red planet because its dust is rusty red."),
  space(["jupiter"], "Jupiter", "Jupiter is the biggest planet, and it has a giant storm called the Great Red Spot."),
  space(["saturn"], "Saturn", "Saturn has beautiful rings made of ice and rock."),
  space(["planet"], "planets", "There are eight planets going around our sun.", "Jupiter is so big that all the other planets could fit inside it."),
  space(["star"], "stars", "Stars are giant balls of glowing gas, very far away.", "Stars seem to twinkle because their light wiggles through the air."),
  space(["rocket", "spaceship"], "rockets", "Rockets push hot gas down really hard so they can zoom up into space!"),
  space(["astronaut"], "astronauts", "Astronauts float inside their space station, so they strap themselves in to sleep!"),
  space(
    ["space", "galaxy", "universe"],
    "space",
    "Space is very quiet, because there is no air to carry sounds.",
    "Our galaxy is called the Milky Way, and it has billions of stars.",
  ),
  animal(["owl"], "owls", "Owls can turn their heads almost all the way around!", "Owls fly so quietly that you can hardly hear their wings."),
  animal(["cat", "kitten", "kitty"], "cats", "Cats purr when they feel cozy and happy.", "A cat's whiskers help it feel its way in the dark."),
  animal(["dog", "puppy", "puppies"], "dogs", "Dogs can smell things much, much better than people can.", "Dogs wag their tails to show how they feel."),
  animal(
    ["elephant"],
    "elephants",
    "Elephants use their long trunks to drink, to smell and even to give hugs!",
    "Elephants are the biggest animals that live on land.",
  ),
  animal(["lion"], "lions", "Lions live in family groups called prides.", "A lion's roar can be heard from very far away."),
  animal(["tiger"], "tigers", "Every tiger has its very own pattern of stripes."),
  animal(["giraffe"], "giraffes", "Giraffes are the tallest animals in the world.", "A giraffe's tongue is dark blue and super long!"),
  animal(["penguin"], "penguins", "Penguins can't fly, but they are amazing swimmers.", "Penguin dads keep their eggs warm on their feet."),
  animal(["dolphin"], "dolphins", "Dolphins talk to each other with clicks and whistles."),
  animal(["whale"], "whales", "Blue whales are the biggest animals that ever lived, even bigger than dinosaurs!"),
  animal(["shark"], "sharks", "Sharks can grow new teeth again and again."),
  animal(["frog"], "frogs", "Frogs start life as tiny tadpoles that swim in ponds."),
  animal(["bee"], "bees", "Bees do a little dance to tell their friends where the flowers are."),
  animal(["butterfly", "butterflies"], "butterflies", "Butterflies taste with their feet!"),
  animal(["horse", "pony", "ponies"], "horses", "Horses can sleep standing up."),
  animal(["rabbit", "bunny", "bunnies"], "bunnies", "A happy bunny sometimes jumps and twists in the air. It's called a binky!"),
  animal(["monkey"], "monkeys", "Many monkeys use their long tails to help them climb and balance."),
  animal(["panda"], "pandas", "Pandas spend most of the day munching bamboo."),
  animal(["bear"], "bears", "Some bears sleep through the whole winter in a cozy den."),
  animal(["fox", "foxes"], "foxes", "Foxes curl their fluffy tails around themselves like a warm blanket."),
  animal(["turtle", "tortoise"], "turtles", "Sea turtles can swim thousands of miles across the ocean."),
  animal(["octopus", "octopuses"], "octopuses", "An octopus has eight arms and three hearts!"),
  animal(["spider"], "spiders", "Spiders have eight legs and spin silk to make their webs."),
  animal(["fish"], "fish", "Fish breathe underwater with special parts called gills."),
  animal(["bird"], "birds", "Birds are the only animals with feathers."),
  animal(["unicorn"], "unicorns", "Unicorns are pretend, but imagining them is so much fun! I think mine would have a rainbow mane."),
  animal(["dragon"], "dragons", "Dragons live in stories, and in stories they can be gentle and kind too!"),
  animal(["animal", "pet"], "animals", "Some animals, like sea stars, can grow back an arm!", "A group of flamingos is called a flamboyance!"),
  nature(["sky"], "the sky", "The sky looks blue because sunlight bounces around in the air, and blue light bounces the most!"),
  nature(["rainbow"], "rainbows", "Rainbows happen when sunlight shines through raindrops and splits into all its colors."),
  nature(["rain", "cloud"], "rain", "Rain comes from clouds: tiny drops of water join up until they are heavy enough to fall."),
  nature(["snow", "snowflake"], "snow", "Every snowflake has six sides, and no two are exactly alike."),
  nature(["thunder", "lightning"], "thunderstorms", "Thunder is the big rumble that lightning makes as it zips through the air."),
  nature(["volcano"], "volcanoes", "A volcano is a mountain that can let out hot melted rock called lava."),
  nature(["ocean", "sea", "beach"], "the ocean", "The ocean covers most of our planet, and much of it is still unexplored!"),
  nature(["tree", "plant", "flower"], "plants", "Plants drink water with their roots and make their food from sunlight."),
];

/** Follow-up questions per area, asked after a fact. */
export const FOLLOW_UPS: Record<Area, string[]> = {
  animal: ["What's your favorite animal?", "If you could be any animal, which one would you be?", "Can you make an animal sound for me?"],
  space: ["Would you like to ride in a rocket one day?", "Which planet would you like to visit?", "Do you like looking at the stars?"],
  dinosaur: ["If you had a pet dinosaur, what would you name it?", "Which dinosaur do you like best?", "Can you stomp like a dinosaur?"],
  nature: ["Do you like rainy days or sunny days best?", "What's the coolest thing you've seen outside?", "Do you like splashing in puddles?"],
};

/** The topic `text` (normalised) talks about, or null. */
export function findTopic(text: string): Topic | null {
  for (const topic of TOPICS) {
    for (const key of topic.keys) {
      if (new RegExp(`\\b${key}(?:s|es)?\\b`).test(text)) return topic;
    }
  }
  return null;
}
