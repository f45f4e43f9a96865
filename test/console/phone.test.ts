/**
 * The console on a phone: every page, at 390 x 844 (a common phone's viewport in CSS pixels), fits the screen's
 * width, with tables full of long keys and names. Debian's Chromium driven by playwright-core, against a real hoot
 * server signed in with an API key. Skipped without /usr/bin/chromium, except in CI (as browser.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { createTeam } from "../../src/teams/service.ts";
import { rawSql } from "../helpers/database.ts";
import { api, createPlayer, createTeamFixture, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";

setDefaultTimeout(30_000);

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = join(import.meta.dir, "../../test-artifacts/console");
const available = existsSync(CHROMIUM) || process.env.CI === "true";
if (!available) console.warn(`skipping the console phone tests: ${CHROMIUM} is missing (apt-get install chromium)`);

const PHONE = { width: 390, height: 844 };
const PAGES = [
  ["profile", "Profile"],
  ["keys", "Authentication"],
  ["players", "Players"],
  ["safety", "Safety"],
  ["playground", "Playground"],
  ["settings", "Team settings"],
] as const;

let server: TestServer;
let team: TeamFixture;
let browser: Browser;
let page: Page;

describe.skipIf(!available)("the console on a phone", () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await startTestServer();
    team = await createTeamFixture(server, `the-friendly-owls-studio-mobile-games-team-${Date.now()}`);
    // Long names in every table and menu: what a real team's lists hold.
    const inviting = await createTeam(server.deps, `another-studio-that-would-like-you-to-join-them-${Date.now()}`);
    await rawSql(server.deps.database, "INSERT INTO console_invitations (team_id, email) VALUES (?, ?)", inviting.id, `dev-${team.teamName}@example.com`);
    const invited = await api(server.url, "POST", "/api/users", {
      token: team.developerToken,
      body: { name: "Someone", email: "someone.with.a.rather.long.address@an-example-school-district.example.com" },
    });
    expect(invited.status).toBe(202);
    for (const [name, permissions] of [
      ["unity-production-login-only-key-for-the-android-build", ["playerLogin"]],
      ["backend-service-that-creates-players-from-the-game-server", ["playerCreate"]],
    ] as const) {
      const res = await api(server.url, "POST", "/api/service-accounts", { token: team.developerToken, body: { name, permissions } });
      expect(res.status).toBe(201);
    }
    for (const id of ["a-very-long-external-id-from-the-game-database-0123456789abcdef", "mia"]) await createPlayer(server, team, id);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
    page = await browser.newPage({ viewport: PHONE });
    page.setDefaultTimeout(10_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("the sign-in page fits 390 px", async () => {
    await page.goto(`${server.url}/console`);
    await page.getByLabel("Developer API key").waitFor();
    expect(await sideways(page)).toEqual({ scrollWidth: PHONE.width, tooWide: [] });
  });

  it.each(PAGES)("the %s page fits 390 px", async (id, title) => {
    if (id === "profile") {
      await page.getByLabel("Developer API key").fill(team.developerKey);
      await page.getByRole("button", { name: "Sign in" }).click();
    }
    await page.goto(`${server.url}/console#/${id}`);
    await page.getByRole("heading", { name: title, level: 1 }).waitFor();
    await page.waitForFunction(() => !Array.from(document.querySelectorAll("main p")).some((p) => p.textContent === "Loading…"));
    if (id === "keys") await page.getByRole("cell", { name: "backend-service-that-creates-players-from-the-game-server", exact: true }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, `phone-${id}.png`), fullPage: true });
    const { scrollWidth, tooWide } = await sideways(page);
    expect({ id, scrollWidth, tooWide }).toEqual({ id, scrollWidth: Math.min(scrollWidth, PHONE.width), tooWide: [] });
  });
});

/**
 * The page's scroll width (more than the viewport's width means the page scrolls sideways) and, when it scrolls, the
 * suspects: elements past the viewport's right edge outside a scroll container, or absolutely positioned (such an
 * element escapes a scroll container that is not its containing block).
 */
function sideways(page: Page): Promise<{ scrollWidth: number; tooWide: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (el: Element | null): boolean => {
      for (let at = el?.parentElement; at && at !== document.body; at = at.parentElement)
        if (["auto", "scroll"].includes(getComputedStyle(at).overflowX)) return true;
      return false;
    };
    const tooWide = Array.from(document.body.querySelectorAll("*"))
      .filter((el) => el.getBoundingClientRect().right > width + 0.5 && (!scrolls(el) || getComputedStyle(el).position === "absolute"))
      .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.className ? `.${String(el.className).split(" ").join(".")}` : ""}`)
      .slice(0, 8);
    const scrollWidth = document.documentElement.scrollWidth;
    return { scrollWidth, tooWide: scrollWidth > width ? tooWide : [] };
  });
}
