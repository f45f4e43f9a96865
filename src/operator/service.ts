/**
 * Operator key rules: a key is made only by `hoot admin create-operator-key` (never over HTTP), is shown once
 * and stored only as its keyed hash; keys are named so one can be rotated or deleted, and either ends every
 * token of the old key at once (its version changes or disappears, and every operator token is checked
 * against it on each use).
 */

import { generateKey } from "../auth/index.ts";
import type { Secrets } from "../auth/secrets.ts";
import type { Config } from "../config.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { Store } from "../db/store.ts";
import { Conflict, InvalidRequest, NotFound } from "../errors.ts";
import type { OperatorKeyRepo } from "./repo.ts";

/** What the operator keys feature needs. */
export interface OperatorNeeds {
  store: Store<{ operatorKeys: OperatorKeyRepo }>;
  secrets: Secrets;
  config: Pick<Config, "env">;
}

export interface IssuedOperatorKey {
  operator_key: { pk: number; name: string };
  api_key: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Makes a new operator key named `name`; 409 `name_taken` when one exists (rotate it instead). */
export async function createOperatorKey(deps: OperatorNeeds, name: string): Promise<IssuedOperatorKey> {
  if (!NAME.test(name)) throw new InvalidRequest(`"${name}" is not a valid operator key name (letters, digits, ".", "_", "-"; up to 64).`);
  const apiKey = generateKey("op", deps.config.env);
  const taken = () => new Conflict(`An operator key named "${name}" already exists; rotate or delete it instead.`, "name_taken");
  try {
    const row = await deps.store.transaction(async (tx) => {
      if (await tx.operatorKeys.findByName(name)) throw taken();
      return tx.operatorKeys.insert({ name, keyHash: deps.secrets.lookupHash(apiKey) });
    });
    return { operator_key: { pk: row.id, name: row.name }, api_key: apiKey };
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/** Gives the operator key named `name` a new value; the old one and its tokens stop working at once. */
export async function rotateOperatorKey(deps: OperatorNeeds, name: string): Promise<IssuedOperatorKey> {
  const apiKey = generateKey("op", deps.config.env);
  const row = await deps.store.operatorKeys.replace(name, deps.secrets.lookupHash(apiKey));
  if (!row) throw new NotFound(`operator key named "${name}"`);
  return { operator_key: { pk: row.id, name: row.name }, api_key: apiKey };
}

/** Deletes the operator key named `name`; its tokens stop working at once. */
export async function removeOperatorKey(deps: OperatorNeeds, name: string): Promise<void> {
  if (!(await deps.store.operatorKeys.delete(name))) throw new NotFound(`operator key named "${name}"`);
}
