/**
 * First run in a development environment: on an empty database, create a `dev` team, a developer and a
 * playerCreate service account, so a newcomer can call the API at once. Their keys are printed once and
 * written to `$HOOT_DATA_DIR/dev-credentials.json` (mode 0600). Other environments create nothing.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Conflict } from "../errors.ts";
import { createServiceAccount } from "../service-accounts/service.ts";
import { createTeam, hasAnyTeam } from "../teams/service.ts";
import { createDeveloper } from "../users/service.ts";
import type { Deps } from "./deps.ts";

export interface DevCredentials {
  team: string;
  developer_email: string;
  developer_api_key: string;
  service_account_api_key: string;
  created_at: string;
}

/**
 * Creates the dev credentials when `env` is dev and no team exists; returns them (or null) and the file path.
 * Of several nodes starting at once on one empty PostgreSQL database, one creates them; the others find the
 * `dev` team taken and create nothing.
 */
export async function bootstrapDev(
  deps: Pick<Deps, "store" | "secrets" | "config" | "revocations">,
): Promise<{ credentials: DevCredentials; path: string } | null> {
  if (deps.config.env !== "dev") return null;
  if (await hasAnyTeam(deps)) return null;
  let made;
  try {
    // One transaction: a failure half-way leaves the database empty, so the next start tries again.
    made = await deps.store.transaction(async (tx) => {
      const inTx = { ...deps, store: tx };
      const team = await createTeam(inTx, "dev");
      const dev = await createDeveloper(inTx, { teamName: "dev", email: "dev@hoot.local", name: "Developer" });
      const sa = await createServiceAccount(inTx, team.id, "dev-app", true);
      return { team, dev, sa };
    });
  } catch (error) {
    if (error instanceof Conflict) return null;
    throw error;
  }
  const { team, dev, sa } = made;
  const credentials: DevCredentials = {
    team: team.name,
    developer_email: dev.user.email,
    developer_api_key: dev.apiKey!,
    service_account_api_key: sa.api_key,
    created_at: new Date().toISOString(),
  };
  const path = join(deps.config.dataDir, "dev-credentials.json");
  writeFileSync(path, JSON.stringify(credentials, null, 2) + "\n", { mode: 0o600 });
  return { credentials, path };
}
