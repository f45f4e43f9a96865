/**
 * Operator key rules: a key is made only by `hoot admin create-operator-key` (never over HTTP), is shown once
 * and stored only as its keyed hash; keys are named so one can be rotated or deleted, and either ends every
 * token of the old key at once (its version changes or disappears, and every operator token is checked
 * against it on each use).
 */
import type { Deps } from "../deps.ts";
import { Conflict, InvalidRequest, NotFound } from "../errors.ts";
import { generateKey } from "../auth/index.ts";
import { deleteOperatorKey, findOperatorKeyByName, insertOperatorKey, replaceOperatorKey } from "./repo.ts";

type OperatorDeps = Pick<Deps, "db" | "secrets" | "config">;

export interface IssuedOperatorKey {
  operator_key: { pk: number; name: string };
  api_key: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Makes a new operator key named `name`; 409 `name_taken` when one exists (rotate it instead). */
export function createOperatorKey(deps: OperatorDeps, name: string): IssuedOperatorKey {
  if (!NAME.test(name)) throw new InvalidRequest(`"${name}" is not a valid operator key name (letters, digits, ".", "_", "-"; up to 64).`);
  const apiKey = generateKey("op", deps.config.env);
  const row = deps.db.transaction(() => {
    if (findOperatorKeyByName(deps.db, name)) throw new Conflict(`An operator key named "${name}" already exists; rotate or delete it instead.`, "name_taken");
    return insertOperatorKey(deps.db, { name, keyHash: deps.secrets.lookupHash(apiKey) });
  });
  return { operator_key: { pk: row.id, name: row.name }, api_key: apiKey };
}

/** Gives the operator key named `name` a new value; the old one and its tokens stop working at once. */
export function rotateOperatorKey(deps: OperatorDeps, name: string): IssuedOperatorKey {
  const apiKey = generateKey("op", deps.config.env);
  const row = replaceOperatorKey(deps.db, name, deps.secrets.lookupHash(apiKey));
  if (!row) throw new NotFound(`operator key named "${name}"`);
  return { operator_key: { pk: row.id, name: row.name }, api_key: apiKey };
}

/** Deletes the operator key named `name`; its tokens stop working at once. */
export function removeOperatorKey(deps: OperatorDeps, name: string): void {
  if (!deleteOperatorKey(deps.db, name)) throw new NotFound(`operator key named "${name}"`);
}
