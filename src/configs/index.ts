/**
 * The stored-configurations feature: a team's named, versioned configurations and utilities, which a
 * session's configuration refers to with `{"reference": "name"}` or `{"reference": "name@v2"}` (resolved
 * in src/interact/references.ts through `storedConfigLookup`). Developer tokens only, team-scoped.
 * Routes, the same for both kinds:
 *   GET|POST /api/configs,   GET|PUT|DELETE /api/configs/{name}     (`{name}@v2` reads a version)
 *   GET|POST /api/utilities, GET|PUT|DELETE /api/utilities/{name}
 */
import { Elysia } from "elysia";
import { type AuthNeeds, authPlugin } from "../auth/index.ts";
import type { Config } from "../config.ts";
import { noContent } from "../http/no-content.ts";
import {
  ConfigList,
  CreateConfigBody,
  CreateUtilityBody,
  PutConfigBody,
  PutUtilityBody,
  StoredConfigBody,
  StoredParams,
  StoredUtilityBody,
  UtilityList,
} from "./model.ts";
import type { StoredConfigNeeds } from "./service.ts";
import { createStored, getStored, listStored, putStored, removeStored, type StoredVersion } from "./service.ts";

const asConfig = ({ body, ...rest }: StoredVersion) => ({ ...rest, config: body });
const asUtility = ({ body, ...rest }: StoredVersion) => ({ ...rest, utility: body });

/** The /api/configs and /api/utilities controllers. */
export function configsRoutes(
  deps: AuthNeeds &
    StoredConfigNeeds & { config: Pick<Config, "maxStoredConfigBytesPerTeam" | "maxStoredNamesPerKind" | "maxStoredVersionsPerName" | "maxStoredBodyBytes"> },
) {
  const auth = ["developer"] as ["developer"];
  const params = StoredParams;
  return new Elysia({ name: "configs" })
    .use(authPlugin(deps))
    .group("/api/configs", { detail: { tags: ["Stored configurations"] } }, (app) =>
      app
        .post(
          "",
          async ({ caller, body, set }) => {
            set.status = 201;
            return asConfig(await createStored(deps, caller.teamId, "config", body.name, body.config, body.description));
          },
          {
            auth,
            body: CreateConfigBody,
            response: { 201: StoredConfigBody },
            detail: { summary: "Store a configuration", description: "Version 1 of a new name (409 name_taken if the team has it)." },
          },
        )
        .get("", async ({ caller }) => ({ configs: await listStored(deps, caller.teamId, "config") }), {
          auth,
          response: ConfigList,
          detail: { summary: "List stored configurations" },
        })
        .get("/:name", async ({ caller, params }) => asConfig(await getStored(deps, caller.teamId, "config", params.name)), {
          auth,
          params,
          response: StoredConfigBody,
          detail: { summary: "Get a stored configuration", description: "The latest version, or `{name}@v2` for version 2." },
        })
        .put(
          "/:name",
          async ({ caller, params, body, set }) => {
            const { created, stored } = await putStored(deps, caller.teamId, "config", params.name, body.config, body.description);
            set.status = created ? 201 : 200;
            return asConfig(stored);
          },
          {
            auth,
            params,
            body: PutConfigBody,
            response: { 200: StoredConfigBody, 201: StoredConfigBody },
            detail: { summary: "Store a new version of a configuration" },
          },
        )
        .delete(
          "/:name",
          async ({ caller, params }) => {
            await removeStored(deps, caller.teamId, "config", params.name);
            return noContent();
          },
          {
            auth,
            params,
            detail: { summary: "Delete a stored configuration", description: "Every version; sessions already configured keep what they resolved." },
          },
        ),
    )
    .group("/api/utilities", { detail: { tags: ["Stored utilities"] } }, (app) =>
      app
        .post(
          "",
          async ({ caller, body, set }) => {
            set.status = 201;
            return asUtility(await createStored(deps, caller.teamId, "utility", body.name, body.utility, body.description));
          },
          {
            auth,
            body: CreateUtilityBody,
            response: { 201: StoredUtilityBody },
            detail: { summary: "Store a utility", description: "Version 1 of a new name (409 name_taken if the team has it)." },
          },
        )
        .get("", async ({ caller }) => ({ utilities: await listStored(deps, caller.teamId, "utility") }), {
          auth,
          response: UtilityList,
          detail: { summary: "List stored utilities" },
        })
        .get("/:name", async ({ caller, params }) => asUtility(await getStored(deps, caller.teamId, "utility", params.name)), {
          auth,
          params,
          response: StoredUtilityBody,
          detail: { summary: "Get a stored utility", description: "The latest version, or `{name}@v2` for version 2." },
        })
        .put(
          "/:name",
          async ({ caller, params, body, set }) => {
            const { created, stored } = await putStored(deps, caller.teamId, "utility", params.name, body.utility, body.description);
            set.status = created ? 201 : 200;
            return asUtility(stored);
          },
          {
            auth,
            params,
            body: PutUtilityBody,
            response: { 200: StoredUtilityBody, 201: StoredUtilityBody },
            detail: { summary: "Store a new version of a utility" },
          },
        )
        .delete(
          "/:name",
          async ({ caller, params }) => {
            await removeStored(deps, caller.teamId, "utility", params.name);
            return noContent();
          },
          { auth, params, detail: { summary: "Delete a stored utility", description: "Every version; sessions already configured keep what they resolved." } },
        ),
    );
}
