/** Players: the team's players a page at a time; create a test player, reset a federated id, delete. */
import { useEffect, useState } from "preact/hooks";
import { api, messageOf } from "../api.ts";
import { Confirm, Notice, Page, Secret } from "../components.tsx";
import { go } from "../route.ts";

export interface ConsolePlayer {
  pk: number;
  external_id: string;
  federated_id: string;
}

interface PlayerPage {
  players: ConsolePlayer[];
  next: string | null;
}

const PAGE_SIZE = 20;

export function PlayersPage() {
  const [page, setPage] = useState<PlayerPage | null>(null);
  const [cursors, setCursors] = useState<string[]>([]);
  const [externalId, setExternalId] = useState("");
  const [created, setCreated] = useState<ConsolePlayer | null>(null);
  const [pending, setPending] = useState<{ action: "reset" | "delete"; player: ConsolePlayer } | null>(null);
  const [error, setError] = useState("");

  const load = (after?: string) =>
    api<PlayerPage>("GET", `/players?limit=${PAGE_SIZE}${after ? `&after=${encodeURIComponent(after)}` : ""}`).then(setPage, (e) => setError(messageOf(e)));
  useEffect(() => void load(), []);
  const current = cursors[cursors.length - 1];

  const create = async (event: Event) => {
    event.preventDefault();
    setError("");
    try {
      const player = await api<ConsolePlayer>("POST", "/players", externalId.trim() ? { external_id: externalId.trim() } : {});
      setCreated(player);
      setExternalId("");
      await load(current);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const act = async () => {
    const todo = pending;
    setPending(null);
    if (!todo) return;
    try {
      if (todo.action === "delete") {
        await api("DELETE", `/players/${todo.player.pk}`);
        if (created?.pk === todo.player.pk) setCreated(null);
      } else {
        setCreated(await api<ConsolePlayer>("POST", `/players/${todo.player.pk}/reset-federated-id`));
      }
      await load(current);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Page title="Players">
      <p>
        Each player is one child of your app. A player logs in with a service-account key and its <strong>federated id</strong>, a secret as sensitive as a
        password: keep it only on that child's device.
      </p>
      {error ? <Notice kind="error">{error}</Notice> : null}
      {created ? (
        <Notice kind="warning">
          <p>
            Player <strong>{created.external_id}</strong> (pk {created.pk}). Its federated id is a secret: anyone who has it can talk as this player.
          </p>
          <Secret label={`federated id of ${created.external_id}`} value={created.federated_id} id="created-federated-id" />{" "}
          <button type="button" onClick={() => go("playground", { player: String(created.pk) })}>
            Talk as this player
          </button>
        </Notice>
      ) : null}

      <form class="stack" onSubmit={create} aria-labelledby="create-player-title">
        <h2 id="create-player-title">Create a test player</h2>
        <label for="external-id">External id (optional; your own id for the player)</label>
        <input id="external-id" maxLength={256} value={externalId} onInput={(e) => setExternalId(e.currentTarget.value)} placeholder="test-mia" />
        <button type="submit">Create test player</button>
      </form>

      <h2>Players of this team</h2>
      {page === null ? (
        <p>Loading…</p>
      ) : page.players.length === 0 ? (
        <p>No players yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">pk</th>
                <th scope="col">External id</th>
                <th scope="col">Federated id</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.players.map((p) => (
                <tr>
                  <td>{p.pk}</td>
                  <td>
                    <a href={`#/player?pk=${p.pk}`} aria-label={`Open player ${p.external_id}`}>
                      {p.external_id}
                    </a>
                  </td>
                  <td>
                    <Secret label={`federated id of ${p.external_id}`} value={p.federated_id} />
                  </td>
                  <td class="actions-cell">
                    <button type="button" class="secondary" onClick={() => go("playground", { player: String(p.pk) })} aria-label={`Talk as ${p.external_id}`}>
                      Talk
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      onClick={() => setPending({ action: "reset", player: p })}
                      aria-label={`Reset the federated id of ${p.external_id}`}
                    >
                      Reset id
                    </button>
                    <button type="button" class="danger" onClick={() => setPending({ action: "delete", player: p })} aria-label={`Delete ${p.external_id}`}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="actions">
        <button
          type="button"
          class="secondary"
          disabled={cursors.length === 0}
          onClick={() => {
            const back = cursors.slice(0, -1);
            setCursors(back);
            void load(back[back.length - 1]);
          }}
        >
          Previous page
        </button>
        <button
          type="button"
          class="secondary"
          disabled={!page?.next}
          onClick={() => {
            if (!page?.next) return;
            setCursors([...cursors, page.next]);
            void load(page.next);
          }}
        >
          Next page
        </button>
      </div>
      <Confirm
        open={pending !== null}
        title={
          pending?.action === "delete" ? `Delete player ${pending.player.external_id}?` : `Reset the federated id of ${pending?.player.external_id ?? ""}?`
        }
        confirmLabel={pending?.action === "delete" ? "Delete player" : "Reset id"}
        danger
        onConfirm={act}
        onCancel={() => setPending(null)}
      >
        {pending?.action === "delete" ? (
          <p>The player and their remembered conversation are deleted, and their open connections end at once.</p>
        ) : (
          <p>The old federated id and every token made with it stop working at once; give the device the new id.</p>
        )}
      </Confirm>
    </Page>
  );
}
