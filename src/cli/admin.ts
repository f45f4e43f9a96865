/**
 * `hoot admin …`: operator commands against the database. Each prints one JSON object on stdout (with the new
 * `api_key` when one was made) and exits non-zero with a clear message on error, having written nothing.
 */
import { parseArgs } from "node:util";
import type { Config } from "../config.ts";
import { backupDatabase, openDatabase } from "../db/client.ts";
import { buildDeps, type Deps } from "../deps.ts";
import { createLogger } from "../log.ts";
import { createMetrics } from "../metrics.ts";
import { loadMasterKey } from "../secret-key.ts";
import { InvalidRequest } from "../errors.ts";
import { addTeamMember, createTeam, requireTeam } from "../teams/service.ts";
import { createDeveloper, rotateDeveloperKeyByEmail } from "../users/service.ts";
import { createServiceAccount } from "../service-accounts/service.ts";
import { createOperatorKey, removeOperatorKey, rotateOperatorKey } from "../operator/service.ts";

type Flags = Record<string, string | boolean | undefined>;

const COMMANDS: Record<string, { flags: Record<string, "string" | "boolean">; run(deps: Deps, flags: Flags): object }> = {
  "create-team": {
    flags: { name: "string" },
    run: (deps, f) => {
      const team = createTeam(deps, need(f, "name"));
      return { team: { pk: team.id, name: team.name } };
    },
  },
  "create-developer": {
    flags: { team: "string", email: "string", name: "string" },
    run: (deps, f) => {
      const { user, apiKey, teamId } = createDeveloper(deps, { teamName: need(f, "team"), email: need(f, "email"), name: need(f, "name") });
      return { developer: { pk: user.id, name: user.name, email: user.email }, team_pk: teamId, created: apiKey !== null, ...(apiKey ? { api_key: apiKey } : {}) };
    },
  },
  "add-member": {
    flags: { team: "string", email: "string" },
    run: (deps, f) => {
      const { team, userId } = addTeamMember(deps, need(f, "team"), need(f, "email"));
      return { team: { pk: team.id, name: team.name }, developer_pk: userId };
    },
  },
  "create-service-account": {
    flags: { team: "string", name: "string", "player-create": "boolean" },
    run: (deps, f) => {
      const team = requireTeam(deps, need(f, "team"));
      return { service_account: createServiceAccount(deps, team.id, need(f, "name"), f["player-create"] === true) };
    },
  },
  "rotate-developer-key": {
    flags: { email: "string" },
    run: (deps, f) => {
      const { user, apiKey } = rotateDeveloperKeyByEmail(deps, need(f, "email"));
      return { developer: { pk: user.id, email: user.email }, api_key: apiKey };
    },
  },
  // Operator keys exist only through these commands (never over HTTP); --name defaults to "operator".
  "create-operator-key": {
    flags: { name: "string" },
    run: (deps, f) => createOperatorKey(deps, typeof f.name === "string" ? f.name.trim() : "operator"),
  },
  "rotate-operator-key": {
    flags: { name: "string" },
    run: (deps, f) => rotateOperatorKey(deps, typeof f.name === "string" ? f.name.trim() : "operator"),
  },
  "delete-operator-key": {
    flags: { name: "string" },
    run: (deps, f) => {
      const name = typeof f.name === "string" ? f.name.trim() : "operator";
      removeOperatorKey(deps, name);
      return { deleted: { operator_key: name } };
    },
  },
  backup: {
    flags: { out: "string" },
    run: (deps, f) => {
      const out = need(f, "out");
      backupDatabase(deps.sqlite, out);
      return { backup: out };
    },
  },
};

/** Runs `admin <command> [--flags]`; returns the process exit code. */
export function runAdmin(config: Config, argv: string[]): number {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(`usage: hoot admin <${Object.keys(COMMANDS).join("|")}> [--flags]\n`);
    return 2;
  }
  let flags: Flags;
  try {
    const options = Object.fromEntries(Object.entries(command.flags).map(([k, type]) => [k, { type }]));
    flags = parseArgs({ args: rest, options, strict: true, allowPositionals: false }).values as Flags;
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return 2;
  }
  const handle = openDatabase(config.databasePath);
  try {
    const logger = createLogger("silent");
    const deps = buildDeps({ config, db: handle.db, sqlite: handle.sqlite, logger, metrics: createMetrics(), masterKey: loadMasterKey(config).key });
    process.stdout.write(JSON.stringify(command.run(deps, flags)) + "\n");
    return 0;
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    handle.close();
  }
}

function need(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value.trim() === "") throw new InvalidRequest(`--${name} is required`);
  return value.trim();
}
