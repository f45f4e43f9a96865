/**
 * How config.ts reads the environment: one typed reader per kind of value (string, whole number within bounds,
 * boolean, one of a list, a list of web origins), with defaults and bounds from the settings table, each noting a
 * bad value in the problems list instead of throwing, so every problem is reported at once; the small parsers
 * it shares with config.ts; and the readers of settings that go together (TLS files, the PostgreSQL database).
 */
import { settingOf } from "./settings.ts";

/** The environment the settings are read from. */
export type Env = Record<string, string | undefined>;

/** The URL when `value` is an http(s) URL, else null. */
export function parseHttpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

/** The bytes of a base64 (or base64url) value, or null. */
export function decodeBase64(value: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return null;
  try {
    return Uint8Array.from(Buffer.from(value, "base64"));
  } catch {
    return null;
  }
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value;
  } catch {
    return false;
  }
}

/**
 * Reads settings from the environment by name; defaults, bounds and choices come from the one settings table
 * (settings.ts). Each bad value is noted in `problems` and its default used.
 */
export class Reader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === "" ? undefined : value.trim();
  }

  /** A text setting; `fallback` for a default derived from other settings. */
  string(name: string, fallback?: string): string {
    return this.raw(name) ?? fallback ?? String(settingOf(name).default ?? "");
  }

  /** A whole number within the table's bounds; `fallback` for a default derived from other settings. */
  int(name: string, fallback?: number): number {
    const { min = 0, max = Number.MAX_SAFE_INTEGER, default: base } = settingOf(name);
    const otherwise = fallback ?? Number(base);
    const value = this.raw(name);
    if (value === undefined) return otherwise;
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max}, got "${value}"`);
      return otherwise;
    }
    return n;
  }

  bool(name: string): boolean {
    const fallback = settingOf(name).default === true;
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (["1", "true", "yes", "on"].includes(value)) return true;
    if (["0", "false", "no", "off"].includes(value)) return false;
    this.problems.push(`${name} must be true or false, got "${value}"`);
    return fallback;
  }

  /** A comma-separated list of exact web origins (`https://app.example.com`), or `*`. */
  origins(name: string): string[] {
    settingOf(name);
    const value = this.raw(name);
    if (value === undefined) return [];
    const list = value
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean);
    for (const origin of list) {
      if (origin !== "*" && !isOrigin(origin)) {
        this.problems.push(`${name} must list exact origins such as https://app.example.com (scheme, host, optional port, no path), got "${origin}"`);
      }
    }
    return list;
  }

  /** One of the setting's choices (the table's list is what the type names). */
  oneOf<T extends string>(name: string): T {
    const { choices = [], default: fallback } = settingOf(name);
    const value = this.raw(name);
    if (value === undefined) return fallback as T;
    if (!choices.includes(value)) {
      this.problems.push(`${name} must be one of ${choices.join(", ")}, got "${value}"`);
      return fallback as T;
    }
    return value as T;
  }
}

export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** HOOT_TLS_CERT_FILE and HOOT_TLS_KEY_FILE: both or neither (one alone is a mistake worth stopping for). */
export function readTls(env: Env, problems: string[]): TlsFiles | null {
  const certFile = env.HOOT_TLS_CERT_FILE?.trim() || "";
  const keyFile = env.HOOT_TLS_KEY_FILE?.trim() || "";
  if (certFile === "" && keyFile === "") return null;
  if (certFile === "" || keyFile === "") problems.push("HOOT_TLS_CERT_FILE and HOOT_TLS_KEY_FILE go together: set both to serve TLS, or neither");
  return { certFile, keyFile };
}

/**
 * HOOT_DATABASE_URL (PostgreSQL) and its pool. Every node of a deployment must share one secret key, so
 * PostgreSQL needs HOOT_SECRET_KEY: a key generated into one node's data folder would lock the others out.
 */
export function readDatabaseSettings(read: Reader, problems: string[], secretKey: string | null) {
  const url = read.string("HOOT_DATABASE_URL");
  if (url) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
    // The value is never repeated: it may hold a password.
    if (!parsed || (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") || !parsed.hostname) {
      problems.push("HOOT_DATABASE_URL must be a PostgreSQL URL such as postgres://hoot:password@db.example.com:5432/hoot");
    }
    if (secretKey === null)
      problems.push("HOOT_SECRET_KEY is required with HOOT_DATABASE_URL: every node must use the same key (try: openssl rand -base64 32)");
  }
  return {
    databaseUrl: url || null,
    databasePoolSize: read.int("HOOT_DATABASE_POOL_SIZE"),
  };
}
