/**
 * First run in a development environment: on an empty database, create a `dev` team, a developer and a
 * playerCreate service account, so a newcomer can call the API at once. Their keys are printed once and
 * written to `$HOOT_DATA_DIR/dev-credentials.json` (mode 0600). Other environments create nothing.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Deps } from "../deps.ts";
import { createTeam, hasAnyTeam } from "../teams/service.ts";
import { createDeveloper } from "../users/service.ts";
import { createServiceAccount } from "../service-accounts/service.ts";

export interface DevCredentials {
  team: string;
  developer_email: string;
  developer_api_key: string;
  service_account_api_key: string;
  created_at: string;
}

/** Creates the dev credentials when `env` is dev and no team exists; returns them (or null) and the file path. */
export function bootstrapDev(deps: Pick<Deps, "db" | "secrets" | "config" | "revocations">): { credentials: DevCredentials; path: string } | null {
  if (deps.config.env !== "dev") return null;
  if (hasAnyTeam(deps)) return null;
  // One transaction: a failure half-way leaves the database empty, so the next start tries again.
  const { team, dev, sa } = deps.db.transaction(() => {
    const team = createTeam(deps, "dev");
    const dev = createDeveloper(deps, { teamName: "dev", email: "dev@hoot.local", name: "Developer" });
    const sa = createServiceAccount(deps, team.id, "dev-app", true);
    return { team, dev, sa };
  });
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
