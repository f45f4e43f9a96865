/**
 * One player (PROTOCOL.md section 8): consent as the team's backend reported it, a download of everything
 * hoot holds about the player (for a parent's request), erasure of their conversation history (after a
 * confirmation), and the player's audit rows. Opening the page is itself audited (`player.read`).
 */
import { useEffect, useState } from "preact/hooks";
import { api, messageOf } from "../api.ts";
import { Confirm, Notice, Page } from "../components.tsx";

interface Player {
  pk: number;
  external_id: string;
  consent: "none" | "granted";
  consent_updated_at: string | null;
}

interface AuditRow {
  at: string;
  actor: { kind: string; pk: number | null };
  action: string;
  request_id: string | null;
}

const when = (iso: string) => new Date(iso).toLocaleString();

export function PlayerPage(props: { playerPk: string | null }) {
  const pk = props.playerPk;
  const [player, setPlayer] = useState<Player | null>(null);
  const [rows, setRows] = useState<AuditRow[] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState("");
  const [news, setNews] = useState("");

  const loadAudit = () =>
    api<{ audit: AuditRow[] }>("GET", `/players/${pk}/audit`).then(
      (a) => setRows(a.audit),
      (e) => setError(messageOf(e)),
    );
  useEffect(() => {
    if (!pk) return;
    api<Player>("GET", `/players/${pk}`).then(
      (p) => {
        setPlayer(p);
        void loadAudit();
      },
      (e) => setError(messageOf(e)),
    );
  }, [pk]);

  const erase = async () => {
    setConfirming(false);
    setError("");
    try {
      await api("DELETE", `/players/${pk}/history`);
      setNews("The conversation history was erased. The player stays, and starts again with no memory.");
      await loadAudit();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  if (!pk)
    return (
      <Page title="Player">
        <p>No player chosen: open one from the Players page.</p>
      </Page>
    );
  return (
    <Page title={player ? `Player ${player.external_id}` : "Player"}>
      {error ? <Notice kind="error">{error}</Notice> : null}
      {news ? <Notice kind="info">{news}</Notice> : null}
      {player === null ? (
        <p>Loading…</p>
      ) : (
        <>
          <dl class="facts">
            <dt>pk</dt>
            <dd>{player.pk}</dd>
            <dt>Consent</dt>
            <dd id="player-consent">
              {player.consent === "granted" ? "granted" : "none"}
              {player.consent_updated_at ? ` (since ${when(player.consent_updated_at)})` : " (never reported)"}
            </dd>
          </dl>
          <p>
            Your app's backend reports a parent's consent with <code>PATCH /api/players/{player.pk}</code>. On a team that requires consent, a player without it
            talks in data-lite mode: nothing of the conversation is stored.
          </p>
          <h2>A parent's request</h2>
          <div class="actions">
            <a class="button" href={`/console/api/players/${player.pk}/data`} download={`player-${player.pk}.json`}>
              Download the player's data
            </a>
            <button type="button" class="danger" onClick={() => setConfirming(true)}>
              Erase conversation history
            </button>
          </div>
          <h2>Audit trail</h2>
          {rows === null ? (
            <p>Loading…</p>
          ) : rows.length === 0 ? (
            <p>Nothing yet.</p>
          ) : (
            <div class="table-wrap">
              <table id="player-audit">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Action</th>
                    <th scope="col">Who</th>
                    <th scope="col">Request id</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr>
                      <td>{when(r.at)}</td>
                      <td>{r.action}</td>
                      <td>{r.actor.pk === null ? r.actor.kind : `${r.actor.kind} ${r.actor.pk}`}</td>
                      <td>
                        <code>{r.request_id ?? "-"}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
      <Confirm
        open={confirming}
        title={`Erase the conversation history of ${player?.external_id ?? ""}?`}
        confirmLabel="Erase history"
        danger
        titleId="erase-title"
        onConfirm={erase}
        onCancel={() => setConfirming(false)}
      >
        <p>Everything the player said and was told is deleted from the database, and the character forgets it. The player, their consent and incidents stay.</p>
      </Confirm>
    </Page>
  );
}
