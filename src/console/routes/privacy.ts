/**
 * A parent's requests from the console (PROTOCOL.md section 8): a player's page (consent and the audit rows),
 * the download of everything held about the player, erasure of their history, and the team's require_consent.
 * The same services as the API; every action is audited with actor kind `console` (the signed-in developer).
 */
import { Elysia, t } from "elysia";
import { noContent } from "../../http/no-content.ts";
import { PkParams } from "../model.ts";
import * as services from "../services.ts";
import { type ConsoleContext, consoleAudit, consoleSessionPlugin } from "./common.ts";

const AuditQuery = t.Object({ after: t.Optional(t.String({ maxLength: 64 })) }, { additionalProperties: false });
const TeamSettingsBody = t.Object({ require_consent: t.Boolean() }, { additionalProperties: false });

/** The player page and team settings routes. */
export function consolePrivacyRoutes(context: ConsoleContext) {
  const { deps } = context;
  return new Elysia({ name: "console-privacy", detail: { hide: true } })
    .use(consoleSessionPlugin(deps))
    .get("/console/api/players/:pk", ({ session, params, set }) => services.players(deps).get(session.teamId, Number(params.pk), consoleAudit(session, set)), {
      consoleSession: "read",
      params: PkParams,
    })
    .get(
      "/console/api/players/:pk/data",
      async ({ session, params, set }) => {
        const document = await services.players(deps).exportData(session.teamId, Number(params.pk), consoleAudit(session, set));
        // Streamed as it is read (src/players/privacy.ts); the pk was found in the team, so it names the file.
        return new Response(document, {
          headers: { "content-type": "application/json; charset=utf-8", "content-disposition": `attachment; filename="player-${Number(params.pk)}.json"` },
        });
      },
      { consoleSession: "read", params: PkParams },
    )
    .delete(
      "/console/api/players/:pk/history",
      async ({ session, params, set }) => {
        await services.players(deps).eraseHistory(session.teamId, Number(params.pk), consoleAudit(session, set));
        return noContent();
      },
      { consoleSession: "write", params: PkParams },
    )
    .get("/console/api/players/:pk/audit", ({ session, params, query }) => services.players(deps).audit(session.teamId, Number(params.pk), query.after), {
      consoleSession: "read",
      params: PkParams,
      query: AuditQuery,
    })
    .get("/console/api/team", ({ session }) => services.teamSettings(deps, session.teamId), { consoleSession: "read" })
    .patch("/console/api/team", ({ session, body }) => services.setTeamRequireConsent(deps, session.teamId, body.require_consent), {
      consoleSession: "write",
      body: TeamSettingsBody,
    });
}
