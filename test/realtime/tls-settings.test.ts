/** HOOT_TLS_CERT_FILE and HOOT_TLS_KEY_FILE: both or neither, and files that can be read, or hoot does not start. */
import { describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { startTestServer } from "../helpers/server.ts";

describe("the TLS settings", () => {
  it("refuses one without the other, naming both", () => {
    expect(() => loadConfig({ HOOT_TLS_CERT_FILE: "cert.pem" })).toThrow("HOOT_TLS_CERT_FILE and HOOT_TLS_KEY_FILE go together");
    expect(() => loadConfig({ HOOT_TLS_KEY_FILE: "key.pem" })).toThrow("HOOT_TLS_CERT_FILE and HOOT_TLS_KEY_FILE go together");
    expect(loadConfig({}).tls).toBeNull();
    expect(loadConfig({ HOOT_TLS_CERT_FILE: "c.pem", HOOT_TLS_KEY_FILE: "k.pem" }).tls).toEqual({ certFile: "c.pem", keyFile: "k.pem" });
  });

  it("stops the start with a sentence naming the setting when a file cannot be read", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hoot-tls-settings-"));
    try {
      const started = startTestServer({ HOOT_TLS_CERT_FILE: "/nonexistent/cert.pem", HOOT_TLS_KEY_FILE: "/nonexistent/key.pem" }, { dir, backend: "sqlite" });
      await expect(started).rejects.toThrow("HOOT_TLS_CERT_FILE (/nonexistent/cert.pem) cannot be read");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
