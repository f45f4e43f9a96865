/**
 * One settings table (src/settings.ts) drives the server's parsing, `hoot --help` and docs/settings.md: every
 * setting the server reads is in it and nothing else is, the docs' table is the one generated from it, and
 * `--help` shows each setting with its default.
 */
import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { helpText, settingNames } from "../../src/cli/help.ts";
import { loadConfig } from "../../src/config.ts";
import { plain, SETTINGS, settingOf, shownDefault } from "../../src/settings.ts";

describe("the settings table", () => {
  it("holds exactly the settings the server reads, each default within its bounds and choices", () => {
    expect([...settingNames()].sort()).toEqual(SETTINGS.map((s) => s.name).sort());
    for (const s of SETTINGS) {
      if (s.kind === "int" && s.default !== null) {
        expect(s.default as number).toBeGreaterThanOrEqual(s.min as number);
        expect(s.default as number).toBeLessThanOrEqual(s.max as number);
      }
      if (s.kind === "oneOf") expect(s.choices).toContain(s.default as string);
      expect(s.help.length).toBeGreaterThan(5);
    }
  });

  it("gives the server its defaults and bounds", () => {
    const config = loadConfig({});
    expect(config.port).toBe(settingOf("HOOT_PORT").default as number);
    expect(config.wsMessagesPerMinute).toBe(settingOf("HOOT_WS_MESSAGES_PER_MINUTE").default as number);
    expect(() => loadConfig({ HOOT_WS_MESSAGES_PER_MINUTE: String((settingOf("HOOT_WS_MESSAGES_PER_MINUTE").max as number) + 1) })).toThrow(
      `HOOT_WS_MESSAGES_PER_MINUTE must be a whole number from ${settingOf("HOOT_WS_MESSAGES_PER_MINUTE").min} to ${settingOf("HOOT_WS_MESSAGES_PER_MINUTE").max}`,
    );
  });

  it("is the table docs/settings.md shows, and what --help lists", async () => {
    const run = Bun.spawn([process.execPath, join(import.meta.dir, "../../scripts/settings-doc.ts"), "--check"], { stdout: "pipe" });
    expect(await new Response(run.stdout).text()).toContain("docs/settings.md is current");
    expect(await run.exited).toBe(0);
    const help = helpText();
    for (const s of SETTINGS) expect(help).toContain(`${s.name.padEnd(42)} ${plain(shownDefault(s))}: `);
  });
});
