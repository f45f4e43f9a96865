/**
 * What the socket replays of the hosted engine's SDKs share: their JSON as their serialisers write it (Python's
 * json.dumps, .NET's Newtonsoft, the browser's JSON.stringify), their client times, and the checks they need of
 * what comes back (standard padded base64, whole MP3 frames).
 */
import { loadHistory } from "../../src/conversations/service.ts";
import type { HistoryMessage } from "../../src/engine/types.ts";
import type { TestServer } from "../helpers/server.ts";
import type { Msg, WsProbe } from "../helpers/ws.ts";

/** A float as Python and .NET print it (1.0 stays "1.0", 0.0 stays "0.0"), where JavaScript would print "1". */
export class Float {
  constructor(readonly value: number) {}
  toString(): string {
    return Number.isInteger(this.value) ? this.value.toFixed(1) : String(this.value);
  }
}
export const float = (value: number) => new Float(value);

type Value = string | number | boolean | null | Float | Value[] | { [key: string]: Value | undefined };

/**
 * JSON text as `json.dumps` writes it (`", "` and `": "` separators, non-ASCII escaped), or as Newtonsoft's
 * JsonConvert.SerializeObject does (compact, non-ASCII as is). Undefined fields are left out, as both leave
 * out what their settings ignore.
 */
export function dumps(value: Value, style: "python" | "dotnet"): string {
  const [comma, colon] = style === "python" ? [", ", ": "] : [",", ":"];
  const text = (v: Value): string => {
    if (v instanceof Float) return v.toString();
    if (Array.isArray(v)) return `[${v.map(text).join(comma)}]`;
    if (v !== null && typeof v === "object") {
      return `{${Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => `${str(k)}${colon}${text(x as Value)}`)
        .join(comma)}}`;
    }
    return typeof v === "string" ? str(v) : JSON.stringify(v);
  };
  const str = (s: string) =>
    style === "python" ? JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) : JSON.stringify(s);
  return text(value);
}

/** `datetime.now(UTC)` as pydantic serialises it: six fractional digits and `Z`. */
export function pythonNow(): string {
  return `${new Date().toISOString().slice(0, 23)}${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}Z`;
}

/**
 * `DateTime.UtcNow.ToString("yyyy-MM-ddTHH:mm:ss.ffffffZ")` on a device of `culture`: the culture's time
 * separator replaces ":" (Finnish: "."), and Thai devices count years in the Buddhist era (+543).
 */
export function unityNow(culture: "en-US" | "fi-FI" | "th-TH" = "en-US"): string {
  const iso = new Date().toISOString();
  const year = Number(iso.slice(0, 4)) + (culture === "th-TH" ? 543 : 0);
  const time = iso.slice(11, 19).replaceAll(":", culture === "fi-FI" ? "." : ":");
  return `${year}${iso.slice(4, 10)}T${time}.${iso.slice(20, 23)}${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}Z`;
}

/** Standard base64 with padding (what Python's base64, .NET's Convert and the browser's atob all read). */
export function isStandardBase64(text: string): boolean {
  return text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);
}

export interface Mp3Frame {
  /** The first two bytes, e.g. "fffb". */
  sync: string;
  mpeg1: boolean;
  layer: number;
  crc: boolean;
  sampleRate: number;
  mono: boolean;
}

const BITRATES_MPEG1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const RATES_MPEG1 = [44100, 48000, 32000];

/**
 * The frames of an MPEG-1 Layer III buffer, walked as a frame-by-frame decoder does (the Unity SDK's MP3Decoder
 * looks for 0xFF 0xE0 and reads the frame length from the header); throws unless the buffer is whole frames.
 */
export function mp3Frames(bytes: Uint8Array): Mp3Frame[] {
  const frames: Mp3Frame[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 4 > bytes.length || bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) throw new Error(`no frame header at byte ${at} of ${bytes.length}`);
    const b1 = bytes[at + 1]!;
    const b2 = bytes[at + 2]!;
    const frame: Mp3Frame = {
      sync: Buffer.from(bytes.subarray(at, at + 2)).toString("hex"),
      mpeg1: ((b1 >> 3) & 3) === 3,
      layer: 4 - ((b1 >> 1) & 3),
      crc: (b1 & 1) === 0,
      sampleRate: RATES_MPEG1[(b2 >> 2) & 3] ?? 0,
      mono: bytes[at + 3]! >> 6 === 3,
    };
    if (!frame.mpeg1 || frame.layer !== 3 || !frame.sampleRate) throw new Error(`not an MPEG-1 Layer III frame at byte ${at}: ${JSON.stringify(frame)}`);
    const length = Math.floor((144 * BITRATES_MPEG1_L3[b2 >> 4]! * 1000) / frame.sampleRate) + ((b2 >> 1) & 1);
    if (length < 4 || at + length > bytes.length) throw new Error(`a frame cut at byte ${at} (length ${length}, ${bytes.length - at} left)`);
    frames.push(frame);
    at += length;
  }
  return frames;
}

/** The messages with `uid` that arrive from now until `ms` have passed. */
export async function arrivingFor(probe: WsProbe, uid: string, ms: number): Promise<Msg[]> {
  const from = probe.messages.length;
  await Bun.sleep(ms);
  return probe.messages.slice(from).filter((m) => m.uid === uid);
}

/** The player's remembered messages, oldest first (decrypted, as the next turn's prompt gets them). */
export function rememberedOf(server: TestServer, playerId: number): Promise<HistoryMessage[]> {
  return loadHistory(server.deps, playerId, 1_000_000);
}

/** Waits until `check` holds (polling), or throws after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await Bun.sleep(20);
  }
}
