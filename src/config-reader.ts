/**
 * How config.ts reads the environment: one typed reader per kind of value (string, whole number within bounds,
 * boolean, one of a list, a list of web origins), each noting a bad value in the problems list instead of
 * throwing, so every problem is reported at once; and the small parsers it shares with config.ts.
 */
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

/** Reads settings from the environment; each bad value is noted in `problems` and its default used. */
export class Reader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === "" ? undefined : value.trim();
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max}, got "${value}"`);
      return fallback;
    }
    return n;
  }

  bool(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (["1", "true", "yes", "on"].includes(value)) return true;
    if (["0", "false", "no", "off"].includes(value)) return false;
    this.problems.push(`${name} must be true or false, got "${value}"`);
    return fallback;
  }

  /** A comma-separated list of exact web origins (`https://app.example.com`), or `*`. */
  origins(name: string): string[] {
    const value = this.raw(name);
    if (value === undefined) return [];
    const list = value.split(",").map((o) => o.trim()).filter(Boolean);
    for (const origin of list) {
      if (origin !== "*" && !isOrigin(origin)) {
        this.problems.push(`${name} must list exact origins such as https://app.example.com (scheme, host, optional port, no path), got "${origin}"`);
      }
    }
    return list;
  }

  oneOf<const T extends readonly string[]>(name: string, fallback: T[number], allowed: T): T[number] {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!allowed.includes(value)) {
      this.problems.push(`${name} must be one of ${allowed.join(", ")}, got "${value}"`);
      return fallback;
    }
    return value as T[number];
  }
}
