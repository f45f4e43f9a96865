/**
 * Route: POST /api/auth/login in its four forms (developer key, playerCreate service key, service key +
 * federated id, operator key). An Authorization header on it is ignored: the SDKs send one (Unity an empty
 * `Bearer`, the browser SDK `Bearer undefined` or a stale token) and the body alone says who logs in.
 */
import { Elysia } from "elysia";
import type { Config } from "../config.ts";
import { clientAddress } from "../http/client-address.ts";
import { LoginBody, LoginResponse } from "./model.ts";
import { type LoginNeeds, login } from "./service.ts";

/** The login controller. */
export function loginRoutes(deps: LoginNeeds & { config: Pick<Config, "trustProxy"> }) {
  return new Elysia({ name: "login", detail: { tags: ["Authentication"] } }).post(
    "/api/auth/login",
    ({ body, request, server, set }) => {
      set.headers["cache-control"] = "no-store";
      return login(deps, body, clientAddress(request, server, deps.config.trustProxy, deps.logger));
    },
    {
      body: LoginBody,
      response: LoginResponse,
      detail: {
        summary: "Exchange a key for an access token",
        description:
          "Developer key (+ team_name when in several teams) -> developer token; playerCreate service key -> service token; service key + federated_id " +
          '-> player token; operator key -> operator token. null and "" mean absent. Any credential that does not authenticate answers 401. Tokens ' +
          "last expires_in seconds.",
      },
    },
  );
}
