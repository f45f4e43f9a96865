/** Route: POST /api/auth/login in its three forms (developer key, playerCreate service key, service key + federated id). */
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { LoginBody, LoginResponse } from "./model.ts";
import { login } from "./service.ts";
import { clientAddress } from "../../http/client-address.ts";

/** The login controller. */
export function loginRoutes(deps: Deps) {
  return new Elysia({ name: "login", detail: { tags: ["Authentication"] } }).post(
    "/api/auth/login",
    ({ body, request, server }) => login(deps, body, clientAddress(request, server, deps.config.trustProxy)),
    {
      body: LoginBody,
      response: LoginResponse,
      detail: {
        summary: "Exchange a key for an access token",
        description:
          "Developer key (+ team_name when in several teams) -> developer token; playerCreate service key -> service token; service key + federated_id -> player token. Tokens last expires_in seconds.",
      },
    },
  );
}
