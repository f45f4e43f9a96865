/**
 * OpenID Connect with `openid-client` (discovery, PKCE, state, nonce, ID-token validation), against any
 * standard issuer. Rules:
 * - authorization code flow with PKCE (S256), a random state and a random nonce on every sign-in;
 * - the ID token is validated by openid-client (signature from the issuer's JWKS, iss, aud, exp, nonce);
 * - the e-mail comes from the ID token, or from userinfo (whose `sub` must match) when the ID token lacks it
 *   or does not say whether it is verified; it counts only when `email_verified` is true;
 * - discovery is fetched on first use and kept; a failed discovery is retried on the next sign-in.
 * http issuers are accepted only on loopback (a local Keycloak, the tests' provider).
 * openid-client (and jose under it) is loaded on the first sign-in, not at start-up.
 */
import type * as OpenIdClient from "openid-client";
import type { Config } from "../config.ts";
import { isLoopbackHost } from "../config.ts";
import { IdentityProviderFailed } from "../errors.ts";

export interface Identity {
  subject: string;
  /** Lower-cased; null when the provider gave none. */
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

export interface PendingSignIn {
  url: string;
  state: string;
  nonce: string;
  verifier: string;
}

/** Why a finished sign-in could not be used (shown to the person, never with secrets). */
export class SignInFailed extends Error {
  constructor(
    readonly reason: "provider_refused" | "exchange_failed",
    message: string,
  ) {
    super(message);
    this.name = "SignInFailed";
  }
}

export interface OidcClient {
  /** The provider's sign-in URL for a browser that will come back to `redirectUri`. */
  start(redirectUri: string): Promise<PendingSignIn>;
  /** Exchanges the code in `params` (the query the provider sent back) and reads who signed in. */
  finish(input: { redirectUri: string; params: URLSearchParams; state: string; nonce: string; verifier: string; addIssuer?: boolean }): Promise<Identity>;
}

const SCOPE = "openid email profile";

type Client = typeof OpenIdClient;
let loading: Promise<Client> | null = null;
const openidClient = (): Promise<Client> => (loading ??= import("openid-client"));

/** A client for the issuer in `config`, or null when single sign-on is not configured. */
export function createOidcClient(config: Pick<Config, "oidcIssuer" | "oidcClientId" | "oidcClientSecret" | "oidcTokenAuthMethod">): OidcClient | null {
  const issuer = config.oidcIssuer;
  if (!issuer) return null;
  const issuerUrl = new URL(issuer);
  const insecure = issuerUrl.protocol === "http:" && isLoopbackHost(issuerUrl.hostname);
  let discovered: Promise<OpenIdClient.Configuration> | null = null;

  const configuration = () => {
    discovered ??= (async () => {
      const client = await openidClient();
      const secret = config.oidcClientSecret;
      const auth = !secret
        ? client.None()
        : config.oidcTokenAuthMethod === "client_secret_post"
          ? client.ClientSecretPost(secret)
          : client.ClientSecretBasic(secret);
      return client.discovery(issuerUrl, config.oidcClientId, secret || undefined, auth, {
        execute: insecure ? [client.allowInsecureRequests] : [],
        timeout: 10,
      });
    })();
    return discovered.catch(() => {
      discovered = null;
      throw new IdentityProviderFailed("The identity provider could not be reached (discovery failed); try again shortly.");
    });
  };

  return {
    async start(redirectUri) {
      const cfg = await configuration();
      const client = await openidClient();
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(cfg, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
        nonce,
      });
      return { url: url.href, state, nonce, verifier };
    },

    async finish({ redirectUri, params, state, nonce, verifier, addIssuer }) {
      const cfg = await configuration();
      const client = await openidClient();
      const providerError = params.get("error");
      if (providerError) {
        throw new SignInFailed("provider_refused", `The identity provider did not sign you in (${providerError.slice(0, 64)}).`);
      }
      const current = new URL(redirectUri);
      for (const [k, v] of params) current.searchParams.set(k, v);
      // RFC 9207: a client that only relays code and state (the Python SDK) has no `iss`; we have one issuer.
      if (addIssuer && !current.searchParams.has("iss") && cfg.serverMetadata().authorization_response_iss_parameter_supported) {
        current.searchParams.set("iss", cfg.serverMetadata().issuer);
      }
      let tokens;
      try {
        tokens = await client.authorizationCodeGrant(cfg, current, {
          pkceCodeVerifier: verifier,
          expectedState: state,
          expectedNonce: nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw new SignInFailed("exchange_failed", `The identity provider's answer could not be used (${describe(client, error)}).`);
      }
      const claims = tokens.claims();
      if (!claims) throw new SignInFailed("exchange_failed", "The identity provider sent no ID token.");
      let email = typeof claims.email === "string" ? claims.email : null;
      let verified = claims.email_verified;
      let name = typeof claims.name === "string" ? claims.name : null;
      if (email === null || verified === undefined) {
        try {
          const info = await client.fetchUserInfo(cfg, tokens.access_token, claims.sub);
          if (typeof info.email === "string") {
            email = info.email;
            verified = info.email_verified;
          }
          name ??= typeof info.name === "string" ? info.name : null;
        } catch (error) {
          throw new SignInFailed("exchange_failed", `The identity provider's userinfo could not be read (${describe(client, error)}).`);
        }
      }
      return { subject: claims.sub, email: email?.trim().toLowerCase() || null, emailVerified: verified === true || verified === "true", name };
    },
  };
}

/** An error's code or class, never its message (which may quote tokens). */
function describe(client: Client, error: unknown): string {
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) return error.error;
  if (error instanceof client.ClientError) return error.code ?? "client error";
  return error instanceof Error ? error.name : "unknown error";
}
