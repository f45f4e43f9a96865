/**
 * Single sign-on for people: who may come in, and the bookkeeping of sign-ins in flight.
 *
 * Data model: a sign-in in flight is a `console_logins` row found by the keyed hash of its `state`, holding
 * the encrypted PKCE verifier, the nonce and the redirect URI, for ten minutes, used once. A console sign-in
 * is also bound to the browser that started it by a random cookie whose hash is in the row, so a callback
 * URL replayed in another browser (login CSRF) is refused.
 *
 * Rules: only a verified e-mail counts. It signs in the developer with that e-mail, adding them to every team
 * that invited the e-mail; an e-mail that is not a developer but was invited becomes one (through the users
 * service) in the inviting teams; anyone else is refused with a sentence saying what to do.
 */
import type { ConsoleDeps } from "./services.ts";
import { addToTeam, developerKeyVersion, findDeveloperByEmail, joinTeam, teamsOf } from "./services.ts";
import type { Identity, OidcClient } from "./oidc.ts";
import { randomToken } from "./sessions.ts";
import { SignInRefused, TooManyRequests } from "../errors.ts";
import { safeEqual } from "../auth/secrets.ts";

const PENDING_MS = 10 * 60_000;
/** Sign-ins in flight at once; anyone may start one, so the table must not grow without bound. */
export const MAX_PENDING = 10_000;

export interface Admitted {
  userId: number;
  teamId: number;
  keyVersion: number;
}

/** A callback whose state is unknown, expired, already used, or from another browser. */
export class UnknownSignIn extends Error {
  constructor() {
    super("This sign-in has expired, was already used, or was started in another browser.");
    this.name = "UnknownSignIn";
  }
}

/** Records a sign-in sent to the provider; `browser` is the binding cookie value for console sign-ins. */
export async function beginSignIn(
  deps: ConsoleDeps,
  oidc: OidcClient,
  purpose: "console" | "sdk",
  redirectUri: string,
): Promise<{ url: string; browser: string | null }> {
  const now = Date.now();
  await deps.store.console.deleteExpiredLogins(now);
  if ((await deps.store.console.countLogins()) >= MAX_PENDING) throw new TooManyRequests(60, "Too many sign-ins are in progress; try again in a minute.");
  const pending = await oidc.start(redirectUri);
  const browser = purpose === "console" ? randomToken() : null;
  await deps.store.console.insertLogin({
    stateHash: deps.secrets.lookupHash(pending.state),
    purpose,
    browserHash: browser ? deps.secrets.lookupHash(browser) : null,
    codeVerifierEnc: deps.secrets.encrypt(pending.verifier),
    nonce: pending.nonce,
    redirectUri,
    expiresAt: now + PENDING_MS,
  });
  return { url: pending.url, browser };
}

/**
 * Finishes a sign-in: finds it by state (once), checks the browser binding, exchanges the code and returns
 * who signed in. Throws UnknownSignIn, SignInFailed (provider), or IdentityProviderFailed.
 */
export async function finishSignIn(
  deps: ConsoleDeps,
  oidc: OidcClient,
  purpose: "console" | "sdk",
  params: URLSearchParams,
  browser: string | null,
): Promise<Identity> {
  const state = params.get("state");
  if (!state || state.length > 512) throw new UnknownSignIn();
  const row = await deps.store.console.takeLogin(deps.secrets.lookupHash(state));
  if (!row || row.purpose !== purpose || row.expiresAt < Date.now()) throw new UnknownSignIn();
  if (purpose === "console" && (!browser || !row.browserHash || !safeEqual(deps.secrets.lookupHash(browser), row.browserHash))) throw new UnknownSignIn();
  const verifier = deps.secrets.decrypt(row.codeVerifierEnc);
  if (verifier === null) throw new UnknownSignIn();
  return oidc.finish({ redirectUri: row.redirectUri, params, state, nonce: row.nonce, verifier, addIssuer: purpose === "sdk" });
}

/** Lets a signed-in identity in as a developer (joining invited teams), or throws SignInRefused. */
export async function admit(deps: ConsoleDeps, identity: Identity): Promise<Admitted> {
  const email = identity.email;
  if (!email || !identity.emailVerified) {
    throw new SignInRefused(
      "email_not_verified",
      email
        ? `Your identity provider has not verified that ${email} is yours, so hoot cannot use it. Verify the address with your provider, then sign in again.`
        : "Your identity provider did not share an e-mail address. hoot asks for the openid, email and profile scopes; allow them, then sign in again.",
    );
  }
  return deps.store.transaction(async (tx) => {
    const inTx = { ...deps, store: tx };
    const invites = await tx.console.invitationsFor(email);
    const existing = await findDeveloperByEmail(inTx, email);
    if (!existing && invites.length === 0) {
      throw new SignInRefused(
        "not_a_developer",
        `${email} is not a developer on this hoot server. Ask someone in your team to invite this e-mail from the console (Profile, Invite to team), then sign in again.`,
      );
    }
    const name = identity.name?.trim() || email.split("@")[0]!;
    const userId = existing?.id ?? (await joinTeam(inTx, { teamName: invites[0]!.teamName, email, name }));
    for (const invite of invites) await addToTeam(inTx, invite.teamId, userId);
    if (invites.length > 0) await tx.console.deleteInvitationsFor(email);
    const teams = await teamsOf(inTx, userId);
    const team = invites[0] ? teams.find((t) => t.pk === invites[0]!.teamId) : teams[0];
    if (!team) throw new SignInRefused("no_team", `${email} is a developer here but belongs to no team yet. Ask a team member to invite this e-mail.`);
    const keyVersion = await developerKeyVersion(inTx, userId);
    if (keyVersion === null) throw new SignInRefused("not_a_developer", `${email} is not a developer on this hoot server.`);
    return { userId, teamId: team.pk, keyVersion };
  });
}
