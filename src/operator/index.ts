/**
 * The operator feature: the deployment-wide administrator. It owns operator keys (made, rotated and deleted
 * only by `hoot admin …-operator-key`, stored as keyed hashes) and the settings view. The operator's team and
 * user routes live with those features (teams/, users/) behind the `access: ["operator"]` macro.
 * Routes: GET /api/settings.
 */
import { Elysia } from "elysia";
import { type AuthNeeds, authPlugin } from "../auth/index.ts";
import type { Config } from "../config.ts";
import { SettingsBody } from "./model.ts";
import { visibleSettings } from "./settings.ts";

/** The operator controller. */
export function operatorRoutes(deps: AuthNeeds & { config: Config }) {
  return new Elysia({ name: "operator", detail: { tags: ["Operator"] } })
    .use(authPlugin(deps))
    .get("/api/settings", () => ({ settings: visibleSettings(deps.config) }), {
      access: ["operator"],
      response: SettingsBody,
      detail: { summary: "Deployment settings", description: "Operator only. Secret values are never shown." },
    });
}
