/**
 * The built-in redirect lines: warm, short, for a young child, steering somewhere safe. Self-harm and abuse lines
 * are fixed (no policy can replace them): calm, never blaming, and pointing to a trusted adult. A line is chosen
 * by a stable hash of the text it answers, so the same message gets the same reply and tests are repeatable.
 */
import type { Category } from "../detect/categories.ts";

export const FIXED_LINES: Record<"self_harm" | "abuse", readonly string[]> = {
  self_harm: [
    "Thank you for telling me. That sounds really hard, and you don't have to carry it alone. Please tell a grown-up you trust right now, like your " +
      "mum, your dad, a teacher or another adult who looks after you. They will want to help.",
    "I'm really glad you told me, and I care about how you feel. Please go and talk to a grown-up you trust today, like a parent, a teacher or a " +
      "school counsellor. If you feel in danger right now, ask them to call for help straight away.",
  ],
  abuse: [
    "Thank you for telling me. That was very brave, and it is not your fault. Please tell a grown-up you trust, like a teacher, a school counsellor or " +
      "someone in your family who keeps you safe, as soon as you can.",
    "I'm glad you told me, and you did nothing wrong. Nobody is allowed to hurt you or touch you in a way that feels wrong. Please tell a grown-up you " +
      "trust, like a teacher or another safe adult, today. They can help keep you safe.",
  ],
};

export const DEFAULT_LINES: Record<Exclude<Category, "self_harm" | "abuse">, readonly string[]> = {
  stranger_danger: [
    "Thank you for telling me. When someone asks for pictures, secrets or to meet up, the best thing to do is tell a grown-up you trust right away. " +
      "You haven't done anything wrong.",
    "Let's keep things like photos, meeting up and secrets for you and your family. It's always okay to ask a grown-up you trust about it. Shall we " +
      "play a game instead?",
  ],
  sexual: [
    "That's a question for a grown-up you trust, like a parent or a teacher. How about we talk about something else? What's your favourite animal?",
    "Let's talk about something different! Would you like to hear a story or play a word game?",
  ],
  weapons: [
    "Real weapons aren't safe to play with or talk about making. If you ever see one, tell a grown-up straight away. Want to build something fun in " +
      "our imagination instead?",
  ],
  violence: [
    "Hurting people or animals isn't okay, even when we feel really cross. Taking a big breath can help. Want to tell me what made you feel that way, " +
      "or play a calm game?",
    "Let's keep our games kind and safe. How about an adventure where we rescue someone instead?",
  ],
  drugs: [
    "That's something that isn't safe for kids. If you have questions about it, a grown-up you trust is the best person to ask. Shall we talk about " +
      "something fun instead?",
  ],
  hate: [
    "Everyone deserves to be treated kindly, whoever they are and wherever they come from. Let's use kind words. What's something nice you could say instead?",
  ],
  bullying: [
    "Kind words make everyone feel better, and that includes you. If someone is being unkind to you, please tell a grown-up you trust. Want to talk " +
      "about something that makes you happy?",
    "That sounds hard. Nobody deserves to be treated unkindly. A grown-up you trust can help, so please tell them. Shall we think of something fun together?",
  ],
  jailbreak: [
    "I'm happy just being me! Let's keep playing. What would you like to talk about?",
    "I like our chats just the way they are. Want to hear a story or a riddle?",
  ],
  profanity: ["Let's try some different words. How about the silliest word you know instead?"],
  personal_info: ["Let's keep things like your address, phone number and school private, just for you and your family. What would you like to talk about?"],
  custom: ["Let's talk about something else! What's your favourite game?"],
};

/** Lines that replace a model sentence, where the input line would not fit (it answers a child's report). */
export const OUTPUT_LINES: Partial<Record<Category, readonly string[]>> = {
  stranger_danger: [
    "Let's keep things like photos, meeting up and secrets for you and your family. It's always okay to ask a grown-up you trust. Shall we play a game " +
      "instead?",
  ],
};

/** Said when a check could not finish (a moderation service timed out): the reply stops here, safely. */
export const FALLBACK_LINES: readonly string[] = ["Let's talk about something else! What would you like to do next?"];

/** Picks one line, the same one for the same key. */
export function pickLine(lines: readonly string[], key: string): string {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return lines[(h >>> 0) % lines.length] as string;
}
