/**
 * Websocket timestamps: ISO 8601 UTC with exactly six fractional digits and `Z`
 * (`2026-11-22T09:41:07.123456Z`). Microseconds come from the high-resolution clock.
 */

const origin = performance.timeOrigin;

/** Now, in microseconds since the epoch. */
export function nowMicros(): number {
  return Math.round((origin + performance.now()) * 1000);
}

/** Formats microseconds since the epoch as the wire timestamp. */
export function formatMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const iso = new Date(ms).toISOString(); // 2026-11-22T09:41:07.123Z
  const fraction = String(micros - Math.floor(micros / 1_000_000) * 1_000_000).padStart(6, "0");
  return `${iso.slice(0, 19)}.${fraction}Z`;
}

const ISO = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/i;

/** A client timestamp normalised to the wire form, or null when it is not ISO 8601. A missing zone means UTC. */
export function normaliseTimestamp(value: string): string | null {
  const match = ISO.exec(value.trim());
  if (!match) return null;
  const [, date, time, fraction = "", zone = "Z"] = match;
  const zoneText = zone.toUpperCase() === "Z" ? "Z" : zone.includes(":") ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const seconds = Date.parse(`${date}T${time}${zoneText}`);
  if (Number.isNaN(seconds)) return null;
  const micros = Number((fraction + "000000").slice(0, 6));
  return formatMicros(seconds * 1000 + micros);
}
