/**
 * createApp(deps): the Elysia application with every feature registered. No environment reads and no I/O
 * of its own; server.ts (and the tests through it) build `deps` and call listen.
 */

import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { auditRoutes } from "../audit/index.ts";
import { credentialGate } from "../auth/index.ts";
import { configsRoutes } from "../configs/index.ts";
import { consoleCredentialGate, consoleRoutes } from "../console/index.ts";
import { createBodyGuard } from "../http/body-guard.ts";
import { httpPlugin, type Lifecycle } from "../http/plugin.ts";
import { incidentsRoutes } from "../incidents/index.ts";
import { loginRoutes } from "../login/index.ts";
import { operatorRoutes } from "../operator/index.ts";
import { playersRoutes } from "../players/index.ts";
import { policiesRoutes } from "../policies/index.ts";
import { safetyPoliciesRoutes } from "../safety-policies/index.ts";
import { serviceAccountsRoutes } from "../service-accounts/index.ts";
import { systemRoutes } from "../system/index.ts";
import { teamsRoutes } from "../teams/index.ts";
import { usersRoutes } from "../users/index.ts";
import type { Deps } from "./deps.ts";

export interface AppOptions {
  lifecycle?: Lifecycle;
  /** Extra plugins (the interact websocket) registered after the HTTP features. */
  plugins?: Elysia[];
}

/** The hoot HTTP application. */
export function createApp(deps: Deps, options: AppOptions = {}) {
  const lifecycle = options.lifecycle ?? { draining: false };
  const bodies = createBodyGuard();
  // Who is calling, checked before a body or query is validated: bearer routes, then console routes.
  const gates = [credentialGate(deps), consoleCredentialGate(deps)];
  const gate = {
    async check(request: Request, route: string, server: Parameters<(typeof gates)[0]["check"]>[2]) {
      for (const one of gates) await one.check(request, route, server);
    },
  };
  let app = new Elysia({
    normalize: false,
    // Elysia's default assumes a Host of 4+ characters and misroutes `Host: api` (a compose or Kubernetes
    // service name) on every route its native router does not serve, e.g. POSTs and the /interact upgrade.
    // Its other choice looks for the path from the 8th character, inside `https://`: with TLS (HOOT_TLS_*),
    // the default's 11 is right for every Host of 3+ characters.
    handler: { standardHostname: deps.config.tls !== null },
    // Bun's own cap is a backstop well above ours, so our JSON 413 answers first.
    serve: { maxRequestBodySize: deps.config.bodyLimit * 4 + 65536 },
    // Bun enforces these for the interact socket. Its message cap is a backstop well above hoot's own limit,
    // which the session checks so it can say why before closing with 1009; a client that stops reading is
    // closed once this much is queued for it, so memory per socket stays bounded.
    websocket: {
      maxPayloadLength: deps.config.wsMaxMessageBytes * 4 + 65536,
      backpressureLimit: deps.config.wsBackpressureLimit,
      closeOnBackpressureLimit: true,
      idleTimeout: 120,
      sendPings: true,
    },
  })
    .use(httpPlugin(deps, lifecycle, bodies, gate))
    .use(
      openapi({
        provider: null,
        specPath: "/api/openapi.json",
        path: "/docs/openapi",
        exclude: { paths: ["/docs", "/docs/:file", "/metrics", "/interact"] },
        documentation: {
          info: {
            title: "hoot",
            version: "0.1.0",
            description:
              "Player management and authentication for the hoot conversational engine. Errors are `{error, code}`; the interact websocket is described by the AsyncAPI document below and in the README.",
          },
          externalDocs: { description: "The interact websocket: AsyncAPI 3 document", url: "/api/asyncapi.json" },
          components: {
            securitySchemes: {
              bearer: { type: "http", scheme: "bearer" },
              developerKey: { type: "http", scheme: "bearer", description: "The developer API key itself as the Bearer value (only where a route lists it)." },
            },
          },
          security: [{ bearer: [] }],
        },
      }),
    )
    .use(systemRoutes(deps, lifecycle))
    .use(loginRoutes(deps))
    .use(usersRoutes(deps))
    .use(playersRoutes(deps))
    .use(serviceAccountsRoutes(deps))
    .use(teamsRoutes(deps))
    .use(operatorRoutes(deps))
    .use(policiesRoutes(deps))
    .use(safetyPoliciesRoutes(deps))
    .use(incidentsRoutes(deps))
    .use(auditRoutes(deps))
    .use(consoleRoutes(deps))
    .use(configsRoutes(deps));
  for (const plugin of options.plugins ?? []) app = app.use(plugin) as typeof app;
  bodies.learn(app.routes);
  for (const one of gates) one.learn(app.routes);
  return app;
}

export type App = ReturnType<typeof createApp>;
