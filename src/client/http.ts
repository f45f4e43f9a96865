import type { AuditList } from "../audit/model.ts";
import type { PlayerExport } from "../players/model.ts";

/**
 * Developer helpers for hoot's HTTP API: log in with a key, manage players and answer a parent's requests.
 * @example
 *   const hoot = new HootApi("http://127.0.0.1:8080");
 *   await hoot.login(process.env.HOOT_DEVELOPER_KEY!);
 *   const player = await hoot.createPlayer("mia@example.com");
 */

export interface LoginAnswer {
  access_token: string;
  expires_in: number;
  token_type: "Bearer";
}

export interface Player {
  pk: number;
  external_id: string;
  federated_id: string;
  /** A parent's consent as the team's backend reported it. */
  consent: "none" | "granted";
  /** When consent last changed (ISO 8601), null while it never has. */
  consent_updated_at: string | null;
}

export type { AuditList, PlayerExport };

/** An error answered by the server: its status, code and sentence. */
export class HootError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "HootError";
  }
}

/** POST /api/auth/login with any of its three forms. */
export async function login(baseUrl: string, body: { api_key: string; federated_id?: string; team_name?: string }): Promise<LoginAnswer> {
  return request<LoginAnswer>(baseUrl, "POST", "/api/auth/login", undefined, body);
}

/** A developer's client: holds the access token after `login`. */
export class HootApi {
  private token: string | null = null;

  constructor(readonly baseUrl: string) {}

  /** Logs in with a developer key (or a playerCreate service key) and keeps the token. */
  async login(apiKey: string, teamName?: string): Promise<LoginAnswer> {
    const answer = await login(this.baseUrl, { api_key: apiKey, ...(teamName ? { team_name: teamName } : {}) });
    this.token = answer.access_token;
    return answer;
  }

  /** Creates a player; keep `federated_id` secret (it is the player's password). */
  createPlayer(externalId: string): Promise<Player> {
    return this.call<Player>("POST", "/api/players", { external_id: externalId });
  }

  /** One page of players; pass the previous page's `next` to continue. */
  listPlayers(options: { limit?: number; after?: string } = {}): Promise<{ players: { pk: number; federated_id: string }[]; next: string | null }> {
    const query = new URLSearchParams();
    if (options.limit) query.set("limit", String(options.limit));
    if (options.after) query.set("after", options.after);
    return this.call("GET", `/api/players/${query.size ? `?${query}` : ""}`);
  }

  getPlayer(pk: number): Promise<Player> {
    return this.call<Player>("GET", `/api/players/${pk}`);
  }

  async deletePlayer(pk: number): Promise<void> {
    await this.call("DELETE", `/api/players/${pk}`);
  }

  /** Records a parent's consent (or its withdrawal); a developer or playerCreate service token. */
  setConsent(pk: number, consent: "none" | "granted"): Promise<Player> {
    return this.call<Player>("PATCH", `/api/players/${pk}`, { consent });
  }

  /** Everything hoot holds about a player, decrypted, as one document (a parent's request). */
  playerData(pk: number): Promise<PlayerExport> {
    return this.call<PlayerExport>("GET", `/api/players/${pk}/data`);
  }

  /** Erases a player's conversation history and memory; the player stays. */
  async eraseHistory(pk: number): Promise<void> {
    await this.call("DELETE", `/api/players/${pk}/history`);
  }

  /** One page of the team's audit trail, newest first; pass the previous page's `next` to continue. */
  audit(options: { playerPk?: number; limit?: number; after?: string } = {}): Promise<AuditList> {
    const query = new URLSearchParams();
    if (options.playerPk !== undefined) query.set("player_pk", String(options.playerPk));
    if (options.limit) query.set("limit", String(options.limit));
    if (options.after) query.set("after", options.after);
    return this.call("GET", `/api/audit${query.size ? `?${query}` : ""}`);
  }

  private call<T>(method: string, path: string, body?: unknown): Promise<T> {
    if (!this.token) throw new Error("call login() first");
    return request<T>(this.baseUrl, method, path, this.token, body);
  }
}

async function request<T>(baseUrl: string, method: string, path: string, token: string | undefined, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  // Accept both `https://host` and `https://host/api` (the form clients of the hosted engine are given).
  const root = baseUrl.replace(/\/+$/, "").replace(/\/api$/, "");
  const res = await fetch(`${root}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 204) return undefined as T;
  const parsed = (await res.json().catch(() => ({}))) as { error?: string; code?: string };
  if (!res.ok) throw new HootError(res.status, parsed.code ?? "http_error", parsed.error ?? `HTTP ${res.status}`);
  return parsed as T;
}
