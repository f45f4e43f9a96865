/**
 * Single sign-on for people: who may come in, and the bookkeeping of sign-ins in flight.
 *
 * Data model: a sign-in in flight is a `console_logins` row found by the keyed hash of its `state`, holding
 * the encrypted PKCE verifier, the nonce and the redirect URI, for ten minutes, used once. A console sign-in
 * is also bound to the browser that started it by a random cookie whose hash is in the row, so a callback
 * URL replayed in another browser (login CSRF) is refused.
 *
 * Anyone may start a sign-in, so what one caller can hold is bounded twice: a client address may start at most
 * HOOT_SIGN_IN_STARTS_PER_ADDRESS in ten minutes (a row's lifetime), and each flow (console, SDK) has its own
 * cap on rows in flight, so filling one flow cannot block the other.
 *
 * Rules: only a verified e-mail counts. It signs in the developer with that e-mail, to their first team:
 * signing in never joins a team, so invitations for an existing developer wait in the console until they
 * accept them (nobody can attach an account, and so its key, to a team behind its owner's back). An e-mail
 * that is not a developer but was invited becomes one, in the team that invited it first (the invitation was
 * for exactly this verified e-mail, and the new key is known to nobody else); anyone else is refused with a
 * sentence saying what to do.
 */

import { createFailureLimiter, type FailureLimiter } from "../auth/rate-limit.ts";
import { safeEqual } from "../auth/secrets.ts";
import { AppError, SignInRefused, TooManyRequests } from "../errors.ts";
import type { Identity, OidcClient } from "./oidc.ts";
import type { ConsoleNeeds } from "./services.ts";
import { developerKeyVersion, findDeveloperByEmail, isInvited, joinFirstInvitingTeam, registerInvitedDeveloper, teamsOf } from "./services.ts";
import { randomToken } from "./sessions.ts";

const PENDING_MS = 10 * 60_000;
/** Sign-ins in flight at once, per flow; anyone may start one, so the table must not grow without bound. */
export const MAX_PENDING: Readonly<Record<"console" | "sdk", number>> = { console: 10_000, sdk: 10_000 };

/** Counts sign-in starts per client address over a pending sign-in's lifetime. */
export function signInStartLimiter(perAddress: number): FailureLimiter {
  return createFailureLimiter(perAddress, PENDING_MS);
}

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

/**
 * Records a sign-in sent to the provider; `browser` is the binding cookie value for console sign-ins.
 * `starts` and `client` limit how many one address may start (429 past that).
 */
export async function beginSignIn(
  deps: ConsoleNeeds,
  oidc: OidcClient,
  purpose: "console" | "sdk",
  redirectUri: string,
  gate: { starts: FailureLimiter; client: string },
): Promise<{ url: string; browser: string | null }> {
  const now = Date.now();
  const bucket = `sign-in:${gate.client}`;
  const wait = gate.starts.retryAfter(bucket, now);
  if (wait > 0) throw new TooManyRequests(wait, "Too many sign-ins were started from your address; try again later.");
  // The limiter counts "failures"; here every start counts.
  gate.starts.recordFailure(bucket, now);
  await deps.store.console.deleteExpiredLogins(now);
  if ((await deps.store.console.countLogins(purpose)) >= MAX_PENDING[purpose])
    throw new TooManyRequests(60, "Too many sign-ins are in progress; try again in a minute.");
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
  deps: ConsoleNeeds,
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

/** Lets a signed-in identity in as a developer (a new one joins the team that invited them), or throws SignInRefused. */
export async function admit(deps: ConsoleNeeds, identity: Identity): Promise<Admitted> {
  const email = identity.email;
  if (!email || !identity.emailVerified) {
    throw new SignInRefused(
      "email_not_verified",
      email
        ? `Your identity provider has not verified that ${email} is yours, so hoot cannot use it. Verify the address with your provider, then sign in again.`
        : "Your identity provider did not share an e-mail address. hoot asks for the openid, email and profile scopes; allow them, then sign in again.",
    );
  }
  const name = identity.name?.trim() || email.split("@")[0]!;
  try {
    return await admitVerified(deps, email, name);
  } catch (error) {
    // Two callbacks for one new e-mail at once (PostgreSQL, two nodes): the unique e-mail index lets one create
    // the account; the other runs again and finds it.
    if (!(error instanceof AppError && error.code === "email_taken")) throw error;
    return admitVerified(deps, email, name);
  }
}

function admitVerified(deps: ConsoleNeeds, email: string, name: string): Promise<Admitted> {
  return deps.store.transaction(async (tx) => {
    const inTx = { ...deps, store: tx };
    const existing = await findDeveloperByEmail(inTx, email);
    let userId: number;
    let teamId: number | undefined;
    if (existing) {
      userId = existing.id;
      teamId = (await teamsOf(inTx, userId))[0]?.pk;
      if (teamId === undefined) {
        throw new SignInRefused(
          "no_team",
          `${email} is a developer here but belongs to no team. An existing account accepts invitations from the console of a team it is in, so ask ` +
            `this server's operator to add you to a team (hoot admin add-member).`,
        );
      }
    } else {
      if (!(await isInvited(inTx, email))) {
        throw new SignInRefused(
          "not_a_developer",
          `${email} is not a developer on this hoot server. Ask someone in your team to invite this e-mail from the console (Profile, Invite to team), ` +
            `then sign in again.`,
        );
      }
      userId = await registerInvitedDeveloper(inTx, { email, name });
      teamId = (await joinFirstInvitingTeam(inTx, userId, email)) ?? undefined;
      if (teamId === undefined) throw new SignInRefused("not_a_developer", `${email} is not a developer on this hoot server.`);
    }
    const keyVersion = await developerKeyVersion(inTx, userId);
    if (keyVersion === null) throw new SignInRefused("not_a_developer", `${email} is not a developer on this hoot server.`);
    return { userId, teamId, keyVersion };
  });
}
