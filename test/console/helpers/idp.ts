/**
 * A real OpenID Connect provider (oidc-provider, the certified implementation) on loopback for the console
 * tests. Its sign-in page is a one-field form: type an account id and press "Sign in"; the test decides
 * which accounts exist and what they claim (e-mail, e-mail verified, name). Consent is granted with the
 * login, as a first-party provider would. `signInAtIdp` walks the same form with fetch, for tests without a browser.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createTcpServer } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

export interface IdpAccount {
  email?: string;
  email_verified?: boolean | string;
  name?: string;
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by id (the id is also the `sub`); edit freely between tests. */
  accounts: Map<string, IdpAccount>;
  /** Settings that point a hoot server at this provider. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface IdpOptions {
  /** Put the e-mail claims in the ID token too (by default they are only in userinfo). */
  emailInIdToken?: boolean;
}

/** Starts the provider on 127.0.0.1 with one confidential client for hoot. */
export async function startIdp(options: IdpOptions = {}): Promise<TestIdp> {
  const accounts = new Map<string, IdpAccount>();
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "hoot-console";
  const clientSecret = "test-client-secret-0123456789abcdef";

  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: "test", alg: "RS256", use: "sig" };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        // "native" so that any loopback port is accepted (RFC 8252), as the Python SDK's listener needs.
        application_type: "native",
        redirect_uris: ["http://127.0.0.1/console/auth/callback", "http://127.0.0.1/", "http://[::1]/", "http://localhost/console/auth/callback"],
        token_endpoint_auth_method: "client_secret_basic",
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ["idp-cookie-key-for-tests"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    conformIdTokenClaims: !options.emailInIdToken,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    ttl: { Interaction: 600, Grant: 3600, Session: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
  });
  // oidc-provider warns (on stderr) about the runtime; the tests need no reminder each run.
  provider.on("server_error", (_ctx: unknown, error: Error) => console.error("idp server_error", error));
  const callback = provider.callback();

  handler = (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const interaction = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
    if (!interaction) {
      callback(req, res);
      return;
    }
    const respond = async () => {
      const details = await provider.interactionDetails(req, res);
      if (req.method === "GET" && !interaction[2]) {
        res.setHeader("content-type", "text/html; charset=utf-8");
        res.end(`<!doctype html><html lang="en"><head><title>Test identity provider</title></head><body>
<h1>Test identity provider</h1>
<form method="post" action="/interaction/${details.uid}/login">
<label>Account <input name="login" autofocus></label>
<button type="submit">Sign in</button>
</form></body></html>`);
        return;
      }
      const body = await readBody(req);
      const accountId = new URLSearchParams(body).get("login") ?? "";
      if (!accounts.has(accountId)) {
        await provider.interactionFinished(req, res, { error: "access_denied", error_description: "unknown account" }, { mergeWithLastSubmission: false });
        return;
      }
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
    };
    respond().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  };

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    env: { HOOT_OIDC_ISSUER: issuer, HOOT_OIDC_CLIENT_ID: clientId, HOOT_OIDC_CLIENT_SECRET: clientSecret },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

/**
 * Settings for a hoot server that signs in with `idp`. Single sign-on requires HOOT_PUBLIC_URL, so the port is
 * chosen here (a free loopback port, just before the server binds it) instead of port 0.
 */
export async function ssoServerEnv(idp: Pick<TestIdp, "env">): Promise<Record<string, string>> {
  const port = await freePort();
  return { ...idp.env, HOOT_PORT: String(port), HOOT_PUBLIC_URL: `http://127.0.0.1:${port}` };
}

/** A loopback port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createTcpServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Follows a sign-in from an authorization URL through the provider's form as account `accountId`, the way a
 * browser would (cookies kept per host), and stops at the first redirect that leaves the provider.
 * Returns that URL (hoot's callback, or the SDK's loopback listener) unfetched.
 */
export async function signInAtIdp(idp: TestIdp, authorizationUrl: string, accountId: string): Promise<URL> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
  };
  let url = new URL(authorizationUrl);
  let method = "GET";
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop++) {
    if (url.origin !== idp.issuer) return url;
    const res = await fetch(url, {
      method,
      body,
      redirect: "manual",
      headers: { cookie: cookieHeader(), ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    });
    keep(res);
    const location = res.headers.get("location");
    if (location) {
      url = new URL(location, url);
      method = "GET";
      body = undefined;
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html);
    if (!action) throw new Error(`unexpected page from the provider (${res.status}): ${html.slice(0, 300)}`);
    url = new URL(action[1]!, url);
    method = "POST";
    body = new URLSearchParams({ login: accountId }).toString();
  }
  throw new Error("too many redirects at the provider");
}
