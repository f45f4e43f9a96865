/** The console's settings: single sign-on needs an issuer and a client id; the public URL is an origin. */
import { describe, expect, it } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";

const problems = (env: Record<string, string>): string[] => {
  try {
    loadConfig({ HOOT_DATA_DIR: "/tmp/x", ...env });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
};

describe("console settings", () => {
  it("default to API-key sign-in with 2-hour idle and 12-hour sessions", () => {
    const config = loadConfig({ HOOT_DATA_DIR: "/tmp/x" });
    expect(config.oidcIssuer).toBeNull();
    expect(config.publicUrl).toBeNull();
    expect(config.consoleSessionIdleMinutes).toBe(120);
    expect(config.consoleSessionMaxHours).toBe(12);
    expect(config.oidcTokenAuthMethod).toBe("client_secret_basic");
  });

  it("read a complete single-sign-on setup", () => {
    const config = loadConfig({
      HOOT_DATA_DIR: "/tmp/x",
      HOOT_OIDC_ISSUER: "https://accounts.google.com",
      HOOT_OIDC_CLIENT_ID: "123.apps.googleusercontent.com",
      HOOT_OIDC_CLIENT_SECRET: "s",
      HOOT_PUBLIC_URL: "https://hoot.example.com/",
    });
    expect(config.oidcIssuer).toBe("https://accounts.google.com");
    expect(config.oidcProviderName).toBe("accounts.google.com");
    expect(config.publicUrl).toBe("https://hoot.example.com");
  });

  it("name every mistake", () => {
    expect(problems({ HOOT_OIDC_ISSUER: "https://idp.example.com", HOOT_PUBLIC_URL: "https://hoot.example.com" })).toEqual([
      "HOOT_OIDC_CLIENT_ID is required when HOOT_OIDC_ISSUER is set",
    ]);
    expect(problems({ HOOT_OIDC_ISSUER: "http://idp.example.com", HOOT_OIDC_CLIENT_ID: "x", HOOT_PUBLIC_URL: "https://hoot.example.com" })[0]).toContain(
      "must use https unless it is on loopback",
    );
    expect(problems({ HOOT_OIDC_ISSUER: "idp.example.com", HOOT_OIDC_CLIENT_ID: "x", HOOT_PUBLIC_URL: "https://hoot.example.com" })[0]).toContain(
      "HOOT_OIDC_ISSUER must be an https URL",
    );
    expect(problems({ HOOT_PUBLIC_URL: "https://hoot.example.com/console" })[0]).toContain("HOOT_PUBLIC_URL must be an origin");
    expect(problems({ HOOT_CONSOLE_SESSION_IDLE_MINUTES: "0" })[0]).toContain("HOOT_CONSOLE_SESSION_IDLE_MINUTES");
    expect(problems({ HOOT_OIDC_TOKEN_AUTH_METHOD: "private_key_jwt" })[0]).toContain("HOOT_OIDC_TOKEN_AUTH_METHOD");
    expect(problems({ HOOT_OIDC_ISSUER: "http://127.0.0.1:9000", HOOT_OIDC_CLIENT_ID: "x", HOOT_PUBLIC_URL: "http://127.0.0.1:8080" })).toEqual([]);
  });

  it("require HOOT_PUBLIC_URL with single sign-on, with one clear error (behind a TLS proxy the request's origin is wrong)", () => {
    expect(problems({ HOOT_OIDC_ISSUER: "https://idp.example.com", HOOT_OIDC_CLIENT_ID: "x" })).toEqual([
      "HOOT_PUBLIC_URL is required when HOOT_OIDC_ISSUER is set: the origin browsers use to reach hoot, such as https://hoot.example.com",
    ]);
  });
});
