/**
 * Stored configurations and utilities: rules. Every read and write is scoped to the caller's team (another
 * team's names are simply not found); names are unique per team and kind; every PUT stores a new version and
 * no version ever changes, so `name@v2` always means the same thing; a body is checked before it is stored
 * (the same sentences as set_configuration), and references inside it are resolved only when a session uses it.
 */
import type { Config } from "../config.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { StoredConfig } from "../db/schema.ts";
import type { Store } from "../db/store.ts";
import { Conflict, InvalidRequest, LimitReached, NotFound } from "../errors.ts";
import { checkStoredConfiguration } from "../interact/configure.ts";
import { parseReference, RESERVED_NAMES } from "../interact/references.ts";
import { checkUtility } from "../interact/utility-schema.ts";
import type { StoredSummaryBody } from "./model.ts";
import type { StoredConfigRepo, StoredKind } from "./repo.ts";

/** What the stored configurations feature needs. */
export interface StoredConfigNeeds {
  store: Store<{ storedConfigs: StoredConfigRepo }>;
}
type WriteNeeds = StoredConfigNeeds & {
  config: Pick<Config, "maxStoredConfigBytesPerTeam" | "maxStoredNamesPerKind" | "maxStoredVersionsPerName" | "maxStoredBodyBytes">;
};

/** Limits that keep one team from filling the database. */

/** A stored version as the routes show it (`body` is the configuration or the utility). */
export interface StoredVersion {
  name: string;
  version: number;
  latest_version: number;
  description: string | null;
  created_at: string;
  body: Record<string, unknown>;
}

const WHAT: Record<StoredKind, string> = { config: "stored configuration", utility: "stored utility" };

/** Stores version 1 of a new name; 409 `name_taken` when the team already has it. */
export async function createStored(
  deps: WriteNeeds,
  teamId: number,
  kind: StoredKind,
  name: string,
  body: Record<string, unknown>,
  description: string | null | undefined,
): Promise<StoredVersion> {
  checkName(name);
  const text = checkBody(kind, body, deps.config.maxStoredBodyBytes);
  const taken = () => new Conflict(`The team already has a ${WHAT[kind]} called "${name}"; PUT /api/${route(kind)}/${name} adds a version.`, "name_taken");
  try {
    return await deps.store.transaction(async (tx) => {
      if ((await tx.storedConfigs.latestVersion(teamId, kind, name)) !== null) throw taken();
      await checkNameCount(deps, tx, teamId, kind);
      await checkTeamBytes(deps, tx, teamId, text);
      return show(await tx.storedConfigs.insert({ teamId, kind, name, version: 1, description: description ?? null, body: text }), 1);
    });
  } catch (error) {
    // Two requests creating the same name at once (PostgreSQL): the unique index refuses the second.
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/** Stores the next version of a name (version 1 when it is new); `created` says which. */
export async function putStored(
  deps: WriteNeeds,
  teamId: number,
  kind: StoredKind,
  ref: string,
  body: Record<string, unknown>,
  description: string | null | undefined,
): Promise<{ created: boolean; stored: StoredVersion }> {
  const name = plainName(ref);
  const text = checkBody(kind, body, deps.config.maxStoredBodyBytes);
  const attempt = () =>
    deps.store.transaction(async (tx) => {
      const latest = await tx.storedConfigs.latestVersion(teamId, kind, name);
      if (latest === null) await checkNameCount(deps, tx, teamId, kind);
      const versions = deps.config.maxStoredVersionsPerName;
      if (latest !== null && (await tx.storedConfigs.countVersions(teamId, kind, name)) >= versions) {
        throw new Conflict(
          `"${name}" already has ${versions} versions (the operator's HOOT_MAX_STORED_VERSIONS_PER_NAME); store the next one under a new name.`,
          "limit_reached",
        );
      }
      await checkTeamBytes(deps, tx, teamId, text);
      const version = (latest ?? 0) + 1;
      const row = await tx.storedConfigs.insert({ teamId, kind, name, version, description: description ?? null, body: text });
      return { created: latest === null, stored: show(row, version) };
    });
  // Two PUTs of one name at once (PostgreSQL) both read the same latest version; the unique index refuses the
  // second insert, and trying again gives it the next version (as if it had come a moment later).
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isUniqueViolation(error) || tries >= 5) throw error;
    }
  }
}

/** `name` (the latest version) or `name@v2`; 404 when the team has no such name or version. */
export async function getStored(deps: StoredConfigNeeds, teamId: number, kind: StoredKind, ref: string): Promise<StoredVersion> {
  const parsed = parseReference(ref);
  if (parsed === null || parsed === "default") throw new NotFound(WHAT[kind]);
  const stored = deps.store.storedConfigs;
  const row =
    parsed.version === null ? await stored.findLatest(teamId, kind, parsed.name) : await stored.findVersion(teamId, kind, parsed.name, parsed.version);
  if (!row) throw new NotFound(parsed.version === null ? WHAT[kind] : `${WHAT[kind]} version`);
  return show(row, parsed.version === null ? row.version : ((await stored.latestVersion(teamId, kind, parsed.name)) ?? row.version));
}

/** The latest version of every name of a kind, ordered by name. */
export async function listStored(deps: StoredConfigNeeds, teamId: number, kind: StoredKind): Promise<StoredSummaryBody[]> {
  return (await deps.store.storedConfigs.listLatest(teamId, kind)).map((s) => ({
    name: s.name,
    latest_version: s.version,
    description: s.description,
    created_at: new Date(s.createdAt).toISOString(),
    updated_at: new Date(s.updatedAt).toISOString(),
  }));
}

/** Deletes a name and all its versions; 404 when the team has no such name. */
export async function removeStored(deps: StoredConfigNeeds, teamId: number, kind: StoredKind, ref: string): Promise<void> {
  const name = plainName(ref);
  if (!(await deps.store.storedConfigs.deleteName(teamId, kind, name))) throw new NotFound(WHAT[kind]);
}

function route(kind: StoredKind): string {
  return kind === "config" ? "configs" : "utilities";
}

function checkName(name: string): void {
  if (RESERVED_NAMES.has(name)) throw new InvalidRequest(`"${name}" is reserved: it means hoot's default. Choose another name.`);
}

/** A path name without a version: versions are added by PUT and deleted with their name, never one by one. */
function plainName(ref: string): string {
  if (ref.includes("@")) throw new InvalidRequest(`"${ref}" names a version; versions are never changed or deleted one by one. Use the name alone.`);
  checkName(ref);
  return ref;
}

/**
 * 409 limit_reached when storing `text` would take the team's stored configurations and utilities (every
 * version) past HOOT_MAX_STORED_CONFIG_BYTES_PER_TEAM: names, versions and body size are capped too, but their
 * product alone would let one team keep ~130 GB.
 */
async function checkTeamBytes(deps: WriteNeeds, tx: { storedConfigs: StoredConfigRepo }, teamId: number, text: string): Promise<void> {
  const cap = deps.config.maxStoredConfigBytesPerTeam;
  const stored = await tx.storedConfigs.totalBytes(teamId);
  if (stored + Buffer.byteLength(text) > cap) {
    throw new LimitReached(
      "bytes of stored configurations and utilities",
      cap,
      "HOOT_MAX_STORED_CONFIG_BYTES_PER_TEAM",
      `it holds ${stored} bytes now; delete names it no longer needs (every version counts)`,
    );
  }
}

/** 409 limit_reached when the team already keeps HOOT_MAX_STORED_NAMES_PER_KIND names of this kind. */
async function checkNameCount(deps: WriteNeeds, tx: { storedConfigs: StoredConfigRepo }, teamId: number, kind: StoredKind): Promise<void> {
  const cap = deps.config.maxStoredNamesPerKind;
  if ((await tx.storedConfigs.countNames(teamId, kind)) >= cap)
    throw new LimitReached(`${WHAT[kind]}s`, cap, "HOOT_MAX_STORED_NAMES_PER_KIND", "delete some first");
}

function checkBody(kind: StoredKind, body: Record<string, unknown>, maxBytes: number): string {
  const problem = kind === "config" ? checkStoredConfiguration(body) : checkUtility(body, "utility");
  if (problem) throw new InvalidRequest(`${problem.charAt(0).toUpperCase()}${problem.slice(1)}.`);
  const text = JSON.stringify(body);
  if (Buffer.byteLength(text) > maxBytes)
    throw new InvalidRequest(
      `The ${kind === "config" ? "configuration" : "utility"} is larger than ${maxBytes} bytes (the operator's HOOT_MAX_STORED_BODY_BYTES).`,
    );
  return text;
}

function show(row: StoredConfig, latest: number): StoredVersion {
  return {
    name: row.name,
    version: row.version,
    latest_version: latest,
    description: row.description,
    created_at: new Date(row.createdAt).toISOString(),
    body: JSON.parse(row.body) as Record<string, unknown>,
  };
}
