/**
 * `hoot admin …`: operator commands. Each prints one JSON object on stdout (with the new `api_key` when one
 * was made), warnings on stderr, and exits non-zero with a clear message on error, having written nothing.
 *
 * Adding a command is one entry in ADMIN_COMMANDS: its flags, a one-line summary for `hoot --help`, and
 * `run(deps, flags, io)`, which gets the opened deployment. A command marked `offline` gets only the
 * settings and opens what it needs itself (restore must not open the database it replaces).
 * On PostgreSQL every command but backup and restore works the same; those two refuse and name the
 * PostgreSQL tools that do the job (pg_dump, pg_restore): see the README's "More than one machine".
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { openDeployment } from "../boot/deployment.ts";
import { buildDeps, type Deps } from "../boot/deps.ts";
import type { Config } from "../config.ts";
import { backupDatabase } from "../db/client.ts";
import { InvalidRequest } from "../errors.ts";
import { createLogger } from "../log.ts";
import { createMetrics } from "../metrics.ts";
import { createOperatorKey, removeOperatorKey, rotateOperatorKey } from "../operator/service.ts";
import { writePrivateFileAtomic } from "../private-files.ts";
import { encodeKey } from "../secret-key.ts";
import { createServiceAccount } from "../service-accounts/service.ts";
import { addTeamMember, createTeam, requireTeam, setRequireConsent } from "../teams/service.ts";
import { createDeveloper, rotateDeveloperKeyByEmail } from "../users/service.ts";
import { restoreBackup } from "./restore.ts";

export type Flags = Record<string, string | boolean | undefined>;

/** What a command may use besides the database: the settings, the master key, and stderr for warnings. */
export interface AdminIo {
  config: Config;
  masterKey: Uint8Array;
  warn(message: string): void;
}

export interface AdminCommand {
  /** One line for `hoot --help`. */
  summary?: string;
  flags: Record<string, "string" | "boolean">;
  offline?: false;
  run(deps: Deps, flags: Flags, io: AdminIo): object | Promise<object>;
}

export interface OfflineAdminCommand {
  summary?: string;
  flags: Record<string, "string" | "boolean">;
  offline: true;
  run(config: Config, flags: Flags, warn: (message: string) => void): object;
}

/** Every admin command by name (a Map, so `hoot admin constructor` finds nothing). */
export const ADMIN_COMMANDS = new Map<string, AdminCommand | OfflineAdminCommand>([
  [
    "create-team",
    {
      summary: "creates a team (a name that exists is an error; nothing is written)",
      flags: { name: "string" },
      run: async (deps, f) => {
        const team = await createTeam(deps, need(f, "name"));
        return { team: { pk: team.id, name: team.name } };
      },
    },
  ],
  [
    "create-developer",
    {
      summary: "creates the developer if new (prints api_key) and adds them to the team",
      flags: { team: "string", email: "string", name: "string" },
      run: async (deps, f) => {
        const { user, apiKey, teamId } = await createDeveloper(deps, { teamName: need(f, "team"), email: need(f, "email"), name: need(f, "name") });
        return {
          developer: { pk: user.id, name: user.name, email: user.email },
          team_pk: teamId,
          created: apiKey !== null,
          ...(apiKey ? { api_key: apiKey } : {}),
        };
      },
    },
  ],
  [
    "add-member",
    {
      summary: "adds an existing developer to a team",
      flags: { team: "string", email: "string" },
      run: async (deps, f) => {
        const { team, userId } = await addTeamMember(deps, need(f, "team"), need(f, "email"));
        return { team: { pk: team.id, name: team.name }, developer_pk: userId };
      },
    },
  ],
  [
    "create-service-account",
    {
      summary: "a login-only key, or with --player-create a backend key that may create players",
      flags: { team: "string", name: "string", "player-create": "boolean" },
      run: async (deps, f) => {
        const team = await requireTeam(deps, need(f, "team"));
        return { service_account: await createServiceAccount(deps, team.id, need(f, "name"), f["player-create"] === true) };
      },
    },
  ],
  [
    "require-consent",
    {
      summary: "--team NAME --value on|off: players without a parent's consent talk in data-lite mode (docs/privacy.md)",
      flags: { team: "string", value: "string" },
      run: async (deps, f) => {
        const value = need(f, "value");
        if (value !== "on" && value !== "off") throw new InvalidRequest("--value must be on or off");
        const team = await requireTeam(deps, need(f, "team"));
        const shown = await setRequireConsent(deps, team.id, value === "on");
        return { team: { pk: shown.pk, name: shown.name, require_consent: shown.require_consent } };
      },
    },
  ],
  [
    "rotate-developer-key",
    {
      summary: "new developer key; the old key and its tokens stop at once",
      flags: { email: "string" },
      run: async (deps, f) => {
        const { user, apiKey } = await rotateDeveloperKeyByEmail(deps, need(f, "email"));
        return { developer: { pk: user.id, email: user.email }, api_key: apiKey };
      },
    },
  ],
  // Operator keys exist only through these commands (never over HTTP); --name defaults to "operator".
  [
    "create-operator-key",
    {
      summary: "a key for the operator routes (/api/settings, /api/teams, /api/users); --name defaults to operator",
      flags: { name: "string" },
      run: (deps, f) => createOperatorKey(deps, typeof f.name === "string" ? f.name.trim() : "operator"),
    },
  ],
  [
    "rotate-operator-key",
    {
      summary: "a new operator key; the old one and its tokens stop at once",
      flags: { name: "string" },
      run: (deps, f) => rotateOperatorKey(deps, typeof f.name === "string" ? f.name.trim() : "operator"),
    },
  ],
  [
    "delete-operator-key",
    {
      summary: "deletes an operator key; its tokens stop at once",
      flags: { name: "string" },
      run: async (deps, f) => {
        const name = typeof f.name === "string" ? f.name.trim() : "operator";
        await removeOperatorKey(deps, name);
        return { deleted: { operator_key: name } };
      },
    },
  ],
  [
    "backup",
    {
      summary: "a consistent online copy of the database (0600) and, unless --no-key, its key in FILE.key",
      flags: { out: "string", "no-key": "boolean" },
      run: (deps, f, io) => {
        const raw = deps.database.raw;
        if (raw.kind !== "sqlite") throw new InvalidRequest(POSTGRES_BACKUP);
        const out = need(f, "out");
        const keyFile = `${out}.key`;
        if (f["no-key"] !== true && existsSync(keyFile)) throw new InvalidRequest(`${keyFile} already exists; choose a new file for the backup`);
        backupDatabase(raw.sqlite, out);
        if (f["no-key"] === true) {
          io.warn(
            `wrote ${out} without its key: it can only be restored with this deployment's secret key (HOOT_SECRET_KEY or secret.key). Keep that key safe.`,
          );
          return { backup: out, key_file: null };
        }
        writePrivateFileAtomic(keyFile, encodeKey(io.masterKey), { exclusive: true });
        io.warn(
          `WARNING: ${keyFile} holds this deployment's secret key. With it, anyone who has the backup can read every credential and ` +
            `conversation in it. Store it apart from the backup (e.g. in a password manager), and delete this copy once it is safe. ` +
            `Without it the backup cannot be restored. (--no-key leaves the key out.)`,
        );
        return { backup: out, key_file: keyFile };
      },
    },
  ],
  [
    "restore",
    {
      summary: "replaces the database with a backup (server stopped) and installs its key; --force replaces an existing database",
      flags: { from: "string", key: "string", force: "boolean" },
      offline: true,
      run: (config, f, warn) => {
        if (config.databaseUrl !== null) throw new InvalidRequest(POSTGRES_RESTORE);
        return restoreBackup(config, { from: need(f, "from"), keyFile: optional(f, "key"), force: f.force === true }, warn);
      },
    },
  ],
]);

const POSTGRES_BACKUP =
  "backup copies a SQLite database; this deployment runs on PostgreSQL (HOOT_DATABASE_URL). Back it up with PostgreSQL's own tools, e.g. " +
  '`pg_dump --format=custom --file=hoot.dump "$HOOT_DATABASE_URL"` (or your provider\'s snapshots), and keep HOOT_SECRET_KEY safe apart from it: ' +
  "without the key the dump cannot be read.";
const POSTGRES_RESTORE =
  "restore replaces a SQLite database file; this deployment runs on PostgreSQL (HOOT_DATABASE_URL), and nothing was changed. " +
  "Stop every node, restore the dump with PostgreSQL's own tools " +
  '(e.g. `pg_restore --clean --if-exists --dbname="$HOOT_DATABASE_URL" hoot.dump`), ' +
  "set HOOT_SECRET_KEY to the key the dump was made with, then start the nodes.";

/** Runs `admin <command> [--flags]`; returns the process exit code. */
export async function runAdmin(config: Config, argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : ADMIN_COMMANDS.get(name);
  if (!command) {
    process.stderr.write(`usage: hoot admin <${[...ADMIN_COMMANDS.keys()].join("|")}> [--flags]   (hoot --help lists them)\n`);
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
  const warn = (message: string) => process.stderr.write(`${message}\n`);
  if (command.offline) return report(() => command.run(config, flags, warn));
  let deployment: Awaited<ReturnType<typeof openDeployment>>;
  try {
    deployment = await openDeployment(config);
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  for (const notice of deployment.notices) warn(notice.message);
  const { database, masterKey } = deployment;
  let deps: Deps | null = null;
  try {
    deps = buildDeps({ config, database, logger: createLogger("silent"), metrics: createMetrics(), masterKey });
    const built = deps;
    return await report(() => command.run(built, flags, { config, masterKey, warn }));
  } finally {
    // PostgreSQL: the revocations a command published reach the running nodes before the pool closes.
    await deps?.cluster?.stop();
    await database.close();
  }
}

async function report(run: () => object | Promise<object>): Promise<number> {
  try {
    process.stdout.write(JSON.stringify(await run()) + "\n");
    return 0;
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

function need(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value.trim() === "") throw new InvalidRequest(`--${name} is required`);
  return value.trim();
}

function optional(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}
