/**
 * The whole data model. Secrets the API must show again (developer keys, playerCreate service keys,
 * federated ids) are stored only as AES-256-GCM ciphertext plus an HMAC-SHA256 "lookup hash", so a copied
 * database file alone yields no usable credential. `*_version` columns are stamped into every token a
 * credential mints; bumping one ends those tokens at once.
 */
import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const createdAt = () => integer("created_at", { mode: "number" }).notNull().default(sql`(unixepoch('subsec') * 1000)`);

export const teams = sqliteTable("teams", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  createdAt: createdAt(),
  /** Players without a parent's consent talk in data-lite mode (docs/privacy.md); set by the team's developer. */
  requireConsent: integer("require_consent", { mode: "boolean" }).notNull().default(false),
});

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  apiKeyEnc: blob("api_key_enc", { mode: "buffer" }).notNull(),
  apiKeyHash: text("api_key_hash").notNull().unique(),
  keyVersion: integer("key_version").notNull().default(1),
  createdAt: createdAt(),
});

export const teamMembers = sqliteTable(
  "team_members",
  {
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  // (user, team) so "teams of a user, in team order" is one index range scan with no sort (login hot path).
  (table) => [primaryKey({ columns: [table.teamId, table.userId] }), index("team_members_user").on(table.userId, table.teamId)],
);

export const serviceAccounts = sqliteTable(
  "service_accounts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    playerCreate: integer("player_create", { mode: "boolean" }).notNull().default(false),
    keyEnc: blob("key_enc", { mode: "buffer" }).notNull(),
    keyHash: text("key_hash").notNull().unique(),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("service_accounts_team_name").on(table.teamId, table.name)],
);

export const players = sqliteTable(
  "players",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    externalId: text("external_id").notNull(),
    federatedIdEnc: blob("federated_id_enc", { mode: "buffer" }).notNull(),
    federatedIdHash: text("federated_id_hash").notNull().unique(),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    /** A parent's consent as the team's backend reports it; "none" until it says otherwise. */
    consent: text("consent", { enum: ["none", "granted"] })
      .notNull()
      .default("none"),
    /** When `consent` last changed (ms), null while it never has. */
    consentUpdatedAt: integer("consent_updated_at", { mode: "number" }),
  },
  (table) => [uniqueIndex("players_team_external").on(table.teamId, table.externalId), index("players_team").on(table.teamId, table.id)],
);

/** A player's remembered conversation; deleted with the player and purged after the retention period. */
export const conversationMessages = sqliteTable(
  "conversation_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    playerId: integer("player_id")
      .notNull()
      .references(() => players.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    /** Plain text of rows written before encryption at rest; "" once `text_enc` holds the words. */
    text: text("text").notNull(),
    /** The words, AES-256-GCM with the deployment key (src/conversations/cipher.ts); null only on old rows. */
    textEnc: blob("text_enc", { mode: "buffer" }),
    createdAt: createdAt(),
  },
  (table) => [index("conversation_player").on(table.playerId, table.id), index("conversation_created").on(table.createdAt)],
);

/**
 * Operator keys (`hoot admin create-operator-key`): deployment-wide administration over HTTP. Only the keyed
 * lookup hash is stored: the key is shown once and never again, so there is nothing to decrypt.
 */
export const operatorKeys = sqliteTable("operator_keys", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  keyHash: text("key_hash").notNull().unique(),
  version: integer("version").notNull().default(1),
  createdAt: createdAt(),
});

// --- Developer console (src/console) ---

/**
 * A signed-in console browser. The cookie holds a random token; only its keyed hash is stored. `keyVersion`
 * is the user's key version at sign-in: a rotated key ends the session. Ends at `expiresAt` (absolute) or
 * after the idle lifetime since `lastSeenAt`, whichever comes first.
 */
export const consoleSessions = sqliteTable(
  "console_sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    keyVersion: integer("key_version").notNull(),
    method: text("method", { enum: ["oidc", "api_key"] }).notNull(),
    createdAt: createdAt(),
    lastSeenAt: integer("last_seen_at", { mode: "number" }).notNull(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
  },
  (table) => [index("console_sessions_user").on(table.userId), index("console_sessions_expires").on(table.expiresAt)],
);

/**
 * A single sign-on started and not yet finished (console browser or the Python SDK's loopback flow), found by
 * the keyed hash of its `state`. The PKCE verifier is stored encrypted; `browserHash` binds a console sign-in
 * to the browser that started it. Used once, then deleted.
 */
export const consoleLogins = sqliteTable(
  "console_logins",
  {
    stateHash: text("state_hash").primaryKey(),
    purpose: text("purpose", { enum: ["console", "sdk"] }).notNull(),
    browserHash: text("browser_hash"),
    codeVerifierEnc: blob("code_verifier_enc", { mode: "buffer" }).notNull(),
    nonce: text("nonce").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
  },
  (table) => [index("console_logins_expires").on(table.expiresAt)],
);

/** An e-mail invited to a team, until accepted, declined or withdrawn (the rules: src/invitations/service.ts). */
export const consoleInvitations = sqliteTable(
  "console_invitations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    invitedBy: integer("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("console_invitations_team_email").on(table.teamId, table.email), index("console_invitations_email").on(table.email)],
);
/**
 * Facts about the deployment, by name. `key_check` proves which secret key made the stored credentials and
 * conversations, so a server started with another key refuses to start instead of answering 401 to everyone.
 */
export const hootMeta = sqliteTable("hoot_meta", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

// --- child safety (issue 11): team policies and incidents ---

/**
 * A team's own safety policy: a validated TeamPolicyBody (src/engine/safety/policy/model.ts) stored as JSON.
 * `version` grows with every change, so compiled copies are cached by (id, version) and a session keeps the
 * copy it resolved until it reconfigures.
 */
export const safetyPolicies = sqliteTable(
  "safety_policies",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    body: text("body").notNull(),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (table) => [uniqueIndex("safety_policies_team_name").on(table.teamId, table.name)],
);

/**
 * A safety escalation (self-harm or abuse disclosed, grooming in a reply, repeated boundary testing): who,
 * what kind, which way, when and in which session; never the child's words or the model's. Deleted with
 * the player (and with the team).
 */
export const safetyIncidents = sqliteTable(
  "safety_incidents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    playerId: integer("player_id")
      .notNull()
      .references(() => players.id, { onDelete: "cascade" }),
    sessionId: text("session_id").notNull(),
    category: text("category").notNull(),
    action: text("action").notNull(),
    direction: text("direction", { enum: ["input", "output"] }).notNull(),
    policy: text("policy").notNull(),
    // Further incidents of the same player in the same minute past HOOT_INCIDENTS_PER_PLAYER_PER_MINUTE,
    // counted on the last row written instead of one row each.
    repeats: integer("repeats").notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [
    index("safety_incidents_team").on(table.teamId, table.id),
    index("safety_incidents_player").on(table.playerId, table.id),
    // The retention purge finds old incidents by age.
    index("safety_incidents_created").on(table.createdAt),
  ],
);

/**
 * Named, versioned configurations and utilities a team stores (`/api/configs`, `/api/utilities`) and refers
 * to from a session's configuration (`{"reference": "name@v2"}`). Every PUT adds a row with the next version;
 * rows are never changed, so a reference to a version always means the same thing. `body` is the JSON text.
 */
export const storedConfigs = sqliteTable(
  "stored_configs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["config", "utility"] }).notNull(),
    name: text("name").notNull(),
    version: integer("version").notNull(),
    description: text("description"),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("stored_configs_team_kind_name_version").on(table.teamId, table.kind, table.name, table.version)],
);

/**
 * Who read, exported, erased or deleted a child's data, or changed their consent: never any content. No
 * foreign keys: a row outlives the player it names (and the team), so a deletion can still be shown later.
 */
export const audit = sqliteTable(
  "audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at", { mode: "number" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
    teamId: integer("team_id").notNull(),
    actorKind: text("actor_kind", { enum: ["developer", "service_account", "operator", "console", "system"] }).notNull(),
    /** The developer, service account or operator key; null for the system. */
    actorPk: integer("actor_pk"),
    action: text("action").notNull(),
    playerId: integer("player_id"),
    requestId: text("request_id"),
  },
  (table) => [
    index("audit_team").on(table.teamId, table.id),
    index("audit_team_player").on(table.teamId, table.playerId, table.id),
    // The retention sweep finds old rows by age.
    index("audit_at").on(table.at),
  ],
);

export type Team = typeof teams.$inferSelect;
export type AuditRow = typeof audit.$inferSelect;
export type User = typeof users.$inferSelect;
export type ServiceAccount = typeof serviceAccounts.$inferSelect;
export type Player = typeof players.$inferSelect;
export type ConversationMessage = typeof conversationMessages.$inferSelect;
export type OperatorKey = typeof operatorKeys.$inferSelect;

export type ConsoleSession = typeof consoleSessions.$inferSelect;
// --- several nodes (issue 17, src/cluster): used on PostgreSQL only; SQLite (one node) has the tables, empty ---

/**
 * Failed logins per bucket (a client address, or a key's or federated id's keyed lookup hash: never a secret)
 * in the bucket's current one-minute window, counted by every node with one atomic upsert.
 */
export const loginFailures = sqliteTable("login_failures", {
  bucket: text("bucket").primaryKey(),
  windowStart: integer("window_start", { mode: "number" }).notNull(),
  failures: integer("failures").notNull(),
});

/**
 * One row per authenticated interact socket on any node: what the per-player socket cap counts across nodes.
 * The node that holds the socket renews `expiresAt` while it lives; a dead node's rows expire on their own.
 */
export const socketLeases = sqliteTable(
  "socket_leases",
  {
    id: text("id").primaryKey(),
    playerId: integer("player_id").notNull(),
    nodeId: text("node_id").notNull(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
  },
  (table) => [index("socket_leases_player").on(table.playerId, table.expiresAt), index("socket_leases_node").on(table.nodeId)],
);

export type ConsoleLogin = typeof consoleLogins.$inferSelect;
export type ConsoleInvitation = typeof consoleInvitations.$inferSelect;
export type SafetyPolicyRow = typeof safetyPolicies.$inferSelect;
export type SafetyIncident = typeof safetyIncidents.$inferSelect;
export type StoredConfig = typeof storedConfigs.$inferSelect;
