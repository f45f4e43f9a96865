/**
 * The Safety page's data comes from HTTP routes that have no service the console can call yet (the policy list,
 * team safety policies, incidents): the console calls this server's own API in-process as the signed-in
 * developer, so what it shows is exactly what the API answers, and a missing route reads as "not available".
 */
import type { Deps } from "../deps.ts";
import { NotAvailableYet } from "../errors.ts";
import { clientAddress, type AddressSource } from "../http/client-address.ts";
import * as services from "./services.ts";
import type { ConsoleSession } from "./sessions.ts";

/** Calls this server's own HTTP API in-process as the signed-in developer. */
export async function forward(
  deps: Deps,
  session: ConsoleSession,
  request: Request,
  server: (services.InProcessServer & AddressSource) | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<services.ApiAnswer> {
  if (!server) return { available: false };
  const token = await services.developerToken(deps, session.userId, session.teamId, clientAddress(request, server, deps.config.trustProxy));
  return services.callApi(server, new URL(request.url).origin, token.access_token, method, path, body);
}

type Item = Record<string, unknown>;

/** The array under `key` (or the body itself when it is an array). */
export function itemsOf(body: unknown, key: string): Item[] {
  const list = Array.isArray(body) ? body : typeof body === "object" && body !== null ? (body as Record<string, unknown>)[key] : undefined;
  return Array.isArray(list) ? list.filter((i): i is Item => typeof i === "object" && i !== null) : [];
}

export function section(answer: services.ApiAnswer, key: string) {
  if (!answer.available) return { available: false };
  if (answer.status >= 400) {
    const error = (answer.body as { error?: unknown } | null)?.error;
    return { available: true, items: [], error: typeof error === "string" ? error : `The API answered ${answer.status}.` };
  }
  return { available: true, items: itemsOf(answer.body, key) };
}

export function passOn(answer: services.ApiAnswer, set: { status?: number | string }) {
  if (!answer.available) throw new NotAvailableYet("Team safety policies are not available on this server yet.");
  set.status = answer.status;
  return answer.body;
}
