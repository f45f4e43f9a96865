/**
 * The requests a session answers from what the server offers, without touching its own state:
 * `set_service_profile` (the language models this server serves) and the hosted engine's request kinds that hoot
 * does not serve (`add_keywords`, `add_speaker`, `generate_image`, ...).
 */
import { errorResponse, type RequestStamp, response, type ServerMessage } from "./protocol.ts";

/**
 * `set_service_profile`: with one model served, picking it (or "default", or "") changes nothing; another name is
 * refused by name, with the names that may be picked.
 * @example serviceProfile("gpt-9", new Map([["local", "…"]]), stamp) // error: unknown service profile "gpt-9" (available: default, local)
 */
export function serviceProfile(name: string, models: ReadonlyMap<string, string>, stamp: RequestStamp): ServerMessage {
  if (name !== "" && name !== "default" && !models.has(name)) {
    const available = ["default", ...models.keys()].join(", ");
    return errorResponse(stamp, `unknown service profile "${name}" (available: ${available})`, "unknown_service_profile");
  }
  return response("set_service_profile", stamp, {});
}

/** An error response naming a request kind this server does not serve (never "unknown request kind"). */
export function unsupported(kind: string, stamp: RequestStamp): ServerMessage {
  return errorResponse(stamp, `${kind} is not supported by this server`, "unsupported_request");
}
