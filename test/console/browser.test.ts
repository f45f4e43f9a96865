/**
 * The console in a real browser: Debian's Chromium, headless, driven by playwright-core (never a downloaded
 * browser), against a real hoot server and a real OpenID provider on loopback. Screenshots of every page go
 * to test-artifacts/console/ (gitignored).
 *
 * On a machine without /usr/bin/chromium this file is skipped with a note, except in CI (CI=true), where
 * .ci/run installs Chromium and a missing browser is a failure.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { createTeam } from "../../src/teams/service.ts";
import { rawSql } from "../helpers/database.ts";
import { createTeamFixture, login, startTestServer, type TeamFixture, type TestServer } from "../helpers/server.ts";
import { ssoServerEnv, startIdp, type TestIdp } from "./helpers/idp.ts";

// Real servers, a real identity provider and (for the browser file) Chromium: slow machines need room.
setDefaultTimeout(30_000);

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--autoplay-policy=no-user-gesture-required",
];
const ARTIFACTS = join(import.meta.dir, "../../test-artifacts/console");
const available = existsSync(CHROMIUM) || process.env.CI === "true";
if (!available) console.warn(`skipping the console browser tests: ${CHROMIUM} is missing (apt-get install chromium)`);

let idp: TestIdp;
let server: TestServer;
let team: TeamFixture;
let context: BrowserContext;
let page: Page;
let profileDir: string;
const problems: string[] = [];

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

describe.skipIf(!available)("the console in Chromium", () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    idp = await startIdp();
    // A paced local model, so a reply is still streaming when the test interrupts it.
    server = await startTestServer({ ...(await ssoServerEnv(idp)), HOOT_OIDC_PROVIDER_NAME: "Test IdP", HOOT_LOCAL_TOKENS_PER_SECOND: "25" });
    team = await createTeamFixture(server);
    idp.accounts.set("dev", { email: `dev-${team.teamName}@example.com`, email_verified: true, name: "Dev" });
    profileDir = mkdtempSync(join(tmpdir(), "hoot-chromium-"));
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      viewport: { width: 1280, height: 900 },
    });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(10_000);
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("console", (message) => {
      // A 401 from the session probe while signed out is expected; anything else (a CSP violation) is not.
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) problems.push(message.text());
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    await idp?.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  it("signs in through the identity provider", async () => {
    await page.goto(`${server.url}/console`);
    const button = page.getByRole("link", { name: "Sign in with Test IdP" });
    await button.waitFor();
    await shot("01-sign-in");
    await button.click();
    await page.getByLabel("Account").fill("dev");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${server.url}/console#/profile`);
    await page.getByRole("heading", { name: "Profile", level: 1 }).waitFor();
    expect(await page.getByText(`dev-${team.teamName}@example.com`).first().isVisible()).toBe(true);
    await shot("02-profile");
  }, 30_000);

  it("reveals and copies the developer key", async () => {
    const key = page.locator("#developer-key");
    expect(await key.textContent()).not.toContain("hoot_");
    await page.getByRole("button", { name: "Reveal developer API key" }).click();
    if (!(await waitForText(key, team.developerKey))) await shot("debug-reveal");
    expect(await key.textContent()).toBe(team.developerKey);
    const copy = page.getByRole("button", { name: "Copy developer API key" });
    await copy.click();
    await page.getByRole("status").filter({ hasText: "Copied to the clipboard." }).waitFor({ state: "attached" });
    expect(await copy.textContent()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(team.developerKey);
  }, 30_000);

  it("creates a service key (with the keyboard) that logs in", async () => {
    await page.getByRole("link", { name: "Authentication" }).click();
    await page.getByRole("heading", { name: "Authentication", level: 1 }).waitFor();
    // Each key's effect is awaited before the next key: on a loaded machine a key pressed before the page has
    // rendered the last one's effect would test the timing, not the keyboard path. The key list loads first,
    // so no render from its answer lands while typing.
    await page.waitForFunction(() => !Array.from(document.querySelectorAll("main p")).some((p) => p.textContent === "Loading…"));
    await page.locator("#key-name").click();
    await page.keyboard.type("backend-browser");
    await page
      .waitForFunction(() => (document.getElementById("key-name") as HTMLInputElement | null)?.value === "backend-browser")
      .catch(async (error: unknown) => {
        const where = await page.evaluate(() => [document.activeElement?.outerHTML, location.hash]);
        await shot("debug-typed");
        throw new Error(`the typed name did not reach the input (focus on ${JSON.stringify(where)}): ${String(error)}`);
      });
    await page.keyboard.press("Tab");
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.type === "checkbox");
    await page.keyboard.press("Space");
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.checked === true);
    await page.keyboard.press("Enter");
    await page
      .getByText("This backend key is shown only now")
      .waitFor({ timeout: 20_000 })
      .catch(async (error: unknown) => {
        await shot("debug-create-key");
        throw error;
      });
    await page.getByRole("button", { name: "Reveal key backend-browser" }).click();
    const created = (await page.locator("#created-key").textContent())!;
    expect(created).toMatch(/^hoot_dev_sk_/);
    expect((await login(server.url, { api_key: created })).token_type).toBe("Bearer");
    await page.getByRole("cell", { name: "backend-browser", exact: true }).waitFor();
    await shot("03-authentication");
  }, 30_000);

  let federatedId = "";
  it("creates a test player and shows its federated id as a secret", async () => {
    await page.getByRole("link", { name: "Players" }).click();
    await page.getByRole("heading", { name: "Players", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Create test player" }).click();
    await page.getByText("Its federated id is a secret").waitFor();
    await page.locator("#created-federated-id ~ button", { hasText: "Reveal" }).click();
    federatedId = (await page.locator("#created-federated-id").textContent())!;
    expect(federatedId).toMatch(/^hoot_dev_fid_/);
    expect((await login(server.url, { api_key: team.publicKey, federated_id: federatedId })).token_type).toBe("Bearer");
    await shot("04-players");
  }, 30_000);

  it("holds a playground conversation whose audio decodes in the page, and interrupts one", async () => {
    await page.getByRole("button", { name: "Talk as this player" }).click();
    await page.getByRole("heading", { name: "Playground", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Start conversation" }).click();
    await page.getByRole("button", { name: "Hang up" }).waitFor({ timeout: 15_000 });

    // "Speak first": the character greets; its audio is decoded with decodeAudioData and scheduled.
    await page.getByRole("button", { name: "Speak first" }).click();
    await page.locator("#pg-turns td[data-closed='true']").first().waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => Number(document.querySelector("#pg-audio")?.getAttribute("data-clips")) > 0, null, { timeout: 10_000 });
    const audio = await page
      .locator("#pg-audio")
      .evaluate((el) => ({ clips: Number(el.dataset.clips), seconds: Number(el.dataset.seconds), errors: Number(el.dataset.errors) }));
    expect(audio.errors).toBe(0);
    expect(audio.seconds).toBeGreaterThan(0.5);
    expect(audio.seconds).toBeLessThan(120);
    const greeting = (await page.locator(".line.character .said").first().textContent())!;
    expect(greeting.length).toBeGreaterThan(5);
    for (const event of ["interaction_started", "text", "audio", "text_complete", "audio_complete", "interaction_complete", "close"]) {
      expect(await page.locator(`#pg-events li[data-event='${event}']`).count()).toBeGreaterThan(0);
    }

    // A long reply, interrupted while it streams: it stops, is marked, and its stream closes.
    await page.getByLabel("Say").fill("Tell me a very long story about a dragon, a princess and a castle");
    await page.getByLabel("Say").press("Enter");
    const reply = page.locator(".line.character").last();
    await page.waitForFunction(() => (document.querySelectorAll(".line.character .said")[1]?.textContent?.length ?? 0) > 20, null, { timeout: 15_000 });
    await page.getByRole("button", { name: "Interrupt" }).click();
    await page.waitForFunction(() => document.querySelectorAll("#pg-turns td[data-closed='true']").length === 2, null, { timeout: 10_000 });
    expect(await reply.getAttribute("data-state")).toBe("interrupted");
    const cut = (await reply.locator(".said").textContent())!;
    await page.waitForTimeout(800);
    expect((await reply.locator(".said").textContent())!).toBe(cut);
    expect(await page.locator("#pg-events li[data-event='response interrupt']").count()).toBe(1);
    await shot("05-playground");
  }, 90_000);

  it("shows captions and a mouth that follow the voice: the highlighted word changes while the audio plays", async () => {
    await page.getByLabel("Say").fill("Tell me a story about an owl");
    await page.getByLabel("Say").press("Enter");
    // Watched in the page on every animation frame while the reply plays: which word is lit, and the mouth's shape.
    const seen = await page.evaluate(
      () =>
        new Promise<{ words: string[]; visemes: string[] }>((resolve) => {
          const words: string[] = [];
          const visemes: string[] = [];
          const started = performance.now();
          const look = () => {
            const word = document.querySelector("#pg-captions .word.now")?.textContent ?? "";
            const viseme = document.querySelector("#pg-mouth")?.getAttribute("data-viseme") ?? "";
            if (word && words.at(-1) !== word) words.push(word);
            if (viseme && visemes.at(-1) !== viseme) visemes.push(viseme);
            if ((words.length >= 3 && visemes.length >= 6) || performance.now() - started > 20_000) resolve({ words, visemes });
            else requestAnimationFrame(look);
          };
          look();
        }),
    );
    expect(seen.words.length).toBeGreaterThanOrEqual(3);
    expect(new Set(seen.visemes).size).toBeGreaterThan(3);
    for (const viseme of seen.visemes) expect(["sil", "PP", "FF", "TH", "DD", "kk", "CH", "SS", "nn", "RR", "aa", "E", "I", "O", "U"]).toContain(viseme);
    // Every highlighted word is a word the character said (the last sentence heard before stays captioned).
    const said = (await page.locator(".line.character .said").allTextContents()).join(" ");
    for (const word of seen.words) expect(said).toContain(word);
    await shot("05b-playground-captions");
  }, 60_000);

  it("shows the safety page", async () => {
    await page.getByRole("link", { name: "Safety" }).click();
    await page.getByRole("heading", { name: "Safety", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Policies a configuration may name" }).waitFor();
    await shot("06-safety");
  }, 30_000);

  it("answers a parent from the player's page (consent, download, erasure with confirmation, audit) and sets require_consent", async () => {
    await page.getByRole("link", { name: "Players", exact: true }).click();
    await page.getByRole("heading", { name: "Players", level: 1 }).waitFor();
    const open = page.getByRole("link", { name: /^Open player / }).first();
    const externalId = (await open.textContent())!.trim();
    await open.click();
    await page.getByRole("heading", { name: `Player ${externalId}`, level: 1 }).waitFor();
    expect(await page.locator("#player-consent").textContent()).toContain("none");
    await page.locator("#player-audit td", { hasText: "player.read" }).first().waitFor();
    const pk = Number((await page.evaluate(() => location.hash)).split("pk=")[1]);
    const stored = async () => (await rawSql(server.deps.database, "SELECT id FROM conversation_messages WHERE player_id = ?", pk)).length;
    // The playground conversation above was stored.
    expect(await stored()).toBeGreaterThan(0);

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the player's data" }).click()]);
    expect(download.suggestedFilename()).toBe(`player-${pk}.json`);
    const data = JSON.parse(await Bun.file((await download.path())!).text());
    expect(data.player).toMatchObject({ pk, external_id: externalId });
    expect(data.history.length).toBe(await stored());
    expect(data.history[0].text.length).toBeGreaterThan(0);
    await shot("07-player");

    await page.getByRole("button", { name: "Erase conversation history" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("is deleted from the database").waitFor();
    // Cancelling erases nothing.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await stored()).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Erase conversation history" }).click();
    await dialog.getByRole("button", { name: "Erase history" }).click();
    await page.getByText("The conversation history was erased.").waitFor();
    expect(await stored()).toBe(0);
    await page.locator("#player-audit td", { hasText: "player.history_erase" }).waitFor();
    const me = (await rawSql(server.deps.database, "SELECT id FROM users WHERE email = ?", `dev-${team.teamName}@example.com`))[0]!.id;
    const audit = (await fetch(`${server.url}/api/audit?player_pk=${pk}`, { headers: { authorization: `Bearer ${team.developerToken}` } }).then((r) =>
      r.json(),
    )) as {
      audit: { action: string; actor: { kind: string; pk: number } }[];
    };
    expect(audit.audit.slice(0, 3).map((r) => [r.action, r.actor.kind, r.actor.pk])).toEqual([
      ["player.history_erase", "console", me],
      ["player.export", "console", me],
      ["player.read", "console", me],
    ]);

    await page.getByRole("link", { name: "Team settings" }).click();
    await page.getByRole("heading", { name: "Team settings", level: 1 }).waitFor();
    const box = page.getByLabel("Require a parent's consent");
    expect(await box.isChecked()).toBe(false);
    await box.check();
    const requireConsent = async () => (await server.deps.store.teams.find(team.teamId))!.requireConsent;
    for (let i = 0; i < 100 && !(await requireConsent()); i++) await Bun.sleep(20);
    expect(await requireConsent()).toBe(true);
    await shot("08-team-settings");
    await page.reload();
    expect(await page.getByLabel("Require a parent's consent").isChecked()).toBe(true);
    await page.getByLabel("Require a parent's consent").uncheck();
    for (let i = 0; i < 100 && (await requireConsent()); i++) await Bun.sleep(20);
    expect(await requireConsent()).toBe(false);
  }, 60_000);

  it("fits a phone's screen without sideways scrolling", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [link, name] of [
      ["Players", "07-players-phone"],
      ["Playground", "08-playground-phone"],
      ["Profile", "09-profile-phone"],
    ] as const) {
      await page.getByRole("link", { name: link, exact: true }).click();
      await page.getByRole("heading", { name: link, level: 1 }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(1);
      await shot(name);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 30_000);

  it("joins a team only when the developer accepts its invitation on the profile page, and leaves it again", async () => {
    const invited = await createTeam(server.deps, `invited-${Date.now()}`);
    await rawSql(server.deps.database, "INSERT INTO console_invitations (team_id, email) VALUES (?, ?)", invited.id, `dev-${team.teamName}@example.com`);
    await page.getByRole("link", { name: "Profile", exact: true }).click();
    await page.reload();
    await page.getByRole("heading", { name: "Invitations for you" }).waitFor();
    const teamOption = page.locator("header select option", { hasText: invited.name });
    expect(await teamOption.count()).toBe(0);
    await shot("10-invitation");
    await page.getByRole("button", { name: `Accept the invitation to ${invited.name}` }).click();
    await teamOption.waitFor({ state: "attached" });
    await page.getByRole("button", { name: `Leave team ${invited.name}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Leave team" }).click();
    await teamOption.waitFor({ state: "detached" });
    // The last team offers no "Leave".
    expect(await page.getByRole("button", { name: `Leave team ${team.teamName}` }).count()).toBe(0);
  }, 30_000);

  it("signs out", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in with Test IdP" }).waitFor();
    const state = await page.evaluate(() => fetch("/console/api/session").then((r) => r.status));
    expect(state).toBe(401);
  }, 30_000);

  it("ran without script errors or Content-Security-Policy violations", () => {
    expect(problems).toEqual([]);
  });
});

/** Resolves true once `locator`'s text equals `text` (within 5 s). */
async function waitForText(locator: ReturnType<Page["locator"]>, text: string): Promise<boolean> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if ((await locator.textContent()) === text) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
