import { describe, expect, it } from "bun:test";
import { redactPii } from "../../src/engine/safety/checks.ts";

describe("personal information", () => {
  it.each([
    ["my phone number is 555-867-5309", "my phone number is [phone number]", "phone"],
    ["call me on 07700 900123", "call me on [phone number]", "phone"],
    ["my number is five five five one two three four five six seven", "my number is [phone number]", "phone"],
    ["my phone is ５５５-１２３-４５６７", "my phone is [phone number]", "phone"],
    ["my email is lily.rose@gmail.com", "my email is [email]", "email"],
    ["my email is sam at gmail dot com", "my email is [email]", "email"],
    ["I live at 42 Oak Street", "I live at [address]", "address"],
    ["email me at jаkеyboу99@hotmаil.сo.uk", "email me at [email]", "email"],
    ["im mia from room 4 at greenfield primary", "im mia from room 4 at [school]", "school"],
    ["my mums name is karen patel", "my mums name is [name]", "full_name"],
    ["the w1f1 p455w0rd is bluehouse77", "the w1f1 p455w0rd is [password]", "password"],
    ["my postcode is SW1A 1AA", "my postcode is [postcode]", "postcode"],
    ["my zip code is 90210", "my zip code is [postcode]", "postcode"],
    ["I go to Riverside Primary School", "I go to [school]", "school"],
    ["my name is Jake Thompson", "my name is [name]", "full_name"],
    ["my birthday is March 3rd 2016", "my birthday is [birthday]", "birthday"],
    ["my password is sunshine123", "my password is [password]", "password"],
    ["card 4111 1111 1111 1111", "card [card number]", "card"],
    ["add me, my roblox username is DragonSlayer_99", "add me, my roblox username is [username]", "handle"],
    ["my instagram is @lucy.skates", "my instagram is [username]", "handle"],
    ["i live in apartment 4C at 300 East 57th Street", "i live in apartment 4C at [address]", "address"],
    ["i'm at 15 Rue de la Paix, Paris", "i'm at [address], Paris", "address"],
    ["wir wohnen Hauptstraße 5", "wir wohnen [address]", "address"],
    ["PIN code 560034, house no 45, Koramangala", "PIN code [postcode], [address], Koramangala", "postcode"],
    ["my email is ola.wisniewska13@wp.pl", "my email is [email]", "email"],
    ["9 1 5 2 - 3 7 8 4 thats my number", "[phone number] thats my number", "phone"],
    ["my student id is 2047719 and", "my student id is [id number] and", "id_number"],
    ["my ic number is T1328475J", "my ic number is [id number]", "id_number"],
    ["my steam friend code is 883920174", "my steam friend code is [id number]", "id_number"],
  ])("redacts %p", (text, redacted, kind) => {
    const r = redactPii(text);
    expect(r.text).toBe(redacted);
    expect(r.kinds).toContain(kind as never);
  });

  it.each([
    "my name is Sam",
    "I have 1000000 coins in my game",
    "my birthday is tomorrow!",
    "I scored 12345 points",
    "in the year 2020 I was 4",
    "I'm 8 years old",
    "my password for the club is a secret",
  ])("leaves %p alone", (text) => {
    expect(redactPii(text)).toEqual({ text, kinds: [] });
  });

  it("checks model sentences for contact details only", () => {
    expect(redactPii("My name is Ollie Owl, email me at ollie@example.com", true).text).toBe("My name is Ollie Owl, email me at [email]");
  });

  it.each([
    "1 2 3 4 5 6 7 8 9 10 i can count to ten",
    "The score 21 to 14 sounds like a close game.",
    "i got the high score",
    "we went to the high school play",
    "we went via the big bridge",
    "I got 5 via email",
    "I scored 5 - 3 in the match",
    "my player id is ninja",
    "my pin on the map is the treasure",
    "the 5th street party was fun",
  ])("leaves %p alone", (text) => {
    expect(redactPii(text).kinds).toEqual([]);
  });
});
