/** The page and single sign-on in the browser: GET /console, /console/auth/login and /console/auth/callback. */
import { Elysia } from "elysia";
import { IdentityProviderFailed, SignInRefused, TooManyRequests } from "../../errors.ts";
import { SignInFailed } from "../oidc.ts";
import { consolePage, messagePage } from "../page.ts";
import {
  consoleOrigin,
  cookieName,
  createSession,
  endPresentedSession,
  isSecure,
  LOGIN_COOKIE,
  readCookie,
  serializeCookie,
  sessionCookie,
} from "../sessions.ts";
import { admit, beginSignIn, finishSignIn, UnknownSignIn } from "../sign-in.ts";
import { type ConsoleContext, redirect, redirectHeaders } from "./common.ts";

/** The page and the browser's single sign-on routes. */
export function consoleSignInRoutes(context: ConsoleContext) {
  const { deps, oidc, starts, address } = context;
  return (
    new Elysia({ name: "console-sign-in", detail: { hide: true } })
      .get("/console", () => consolePage())
      .get("/console/", () => consolePage())

      // --- single sign-on in the browser ---
      .get("/console/auth/login", async ({ request, server }) => {
        if (!oidc) return redirect("/console");
        try {
          const redirectUri = `${consoleOrigin(deps, request)}/console/auth/callback`;
          const { url, browser } = await beginSignIn(deps, oidc, "console", redirectUri, { starts, client: address(request, server) });
          const secure = isSecure(deps, request);
          const headers = redirectHeaders(url);
          headers.append("set-cookie", serializeCookie(cookieName(LOGIN_COOKIE, secure), browser!, secure, 600));
          return new Response(null, { status: 303, headers });
        } catch (error) {
          if (error instanceof IdentityProviderFailed) return messagePage(502, "The identity provider cannot be reached", error.message, error.code);
          if (error instanceof TooManyRequests) return messagePage(429, "Too many sign-ins", error.message, error.code, new Headers(error.headers));
          throw error;
        }
      })
      .get("/console/auth/callback", async ({ request }) => {
        if (!oidc) return redirect("/console");
        const secure = isSecure(deps, request);
        const loginCookie = cookieName(LOGIN_COOKIE, secure);
        // The binding cookie is single use whatever happens next.
        const headers = new Headers({ "set-cookie": serializeCookie(loginCookie, "", secure, 0) });
        try {
          const identity = await finishSignIn(deps, oidc, "console", new URL(request.url).searchParams, readCookie(request, loginCookie));
          const admitted = await admit(deps, identity);
          await endPresentedSession(deps, request);
          const { token } = await createSession(deps, { ...admitted, method: "oidc" });
          deps.logger.info({ event: "console_sign_in", method: "oidc", userId: admitted.userId }, "console sign-in");
          const out = redirectHeaders("/console#/profile");
          out.append("set-cookie", serializeCookie(loginCookie, "", secure, 0));
          out.append("set-cookie", sessionCookie(deps, request, token));
          return new Response(null, { status: 303, headers: out });
        } catch (error) {
          const page = signInFailurePage(error, headers);
          if (!page) throw error;
          deps.metrics.authFailures.inc({ reason: `console_${page.code}` });
          deps.logger.warn({ event: "console_sign_in_refused", reason: page.code }, "console sign-in refused");
          return page.response;
        }
      })
  );
}

/** The page for a sign-in that could not finish, or null for an unexpected error. */
function signInFailurePage(error: unknown, headers: Headers): { code: string; response: Response } | null {
  if (error instanceof UnknownSignIn) {
    return {
      code: "unknown_state",
      response: messagePage(400, "This sign-in cannot be finished", `${error.message} Start again from the console.`, "unknown_state", headers),
    };
  }
  if (error instanceof SignInFailed) {
    return {
      code: error.reason,
      response: messagePage(error.reason === "provider_refused" ? 403 : 502, "Sign-in did not finish", error.message, error.reason, headers),
    };
  }
  if (error instanceof SignInRefused) {
    return { code: error.code, response: messagePage(403, "You cannot sign in to this console", error.message, error.code, headers) };
  }
  if (error instanceof IdentityProviderFailed) {
    return { code: error.code, response: messagePage(502, "The identity provider cannot be reached", error.message, error.code, headers) };
  }
  return null;
}
