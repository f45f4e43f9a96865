/** Authentication: the team's service-account keys; create (login-only or playerCreate), copy, delete. */
import { useEffect, useState } from "preact/hooks";
import { api, messageOf } from "../api.ts";
import { Confirm, CopyButton, Notice, Page, Secret } from "../components.tsx";

interface ServiceKey {
  pk: number;
  name: string;
  permissions: string[];
  api_key: string;
  created_at: string;
}

export function KeysPage() {
  const [keys, setKeys] = useState<ServiceKey[] | null>(null);
  const [name, setName] = useState("");
  const [playerCreate, setPlayerCreate] = useState(false);
  const [created, setCreated] = useState<ServiceKey | null>(null);
  const [deleting, setDeleting] = useState<ServiceKey | null>(null);
  const [error, setError] = useState("");

  const load = () =>
    api<{ service_accounts: ServiceKey[] }>("GET", "/service-accounts").then(
      (r) => setKeys(r.service_accounts),
      (e) => setError(messageOf(e)),
    );
  useEffect(() => void load(), []);

  const create = async (event: Event) => {
    event.preventDefault();
    setError("");
    try {
      const key = await api<ServiceKey>("POST", "/service-accounts", { name: name.trim(), player_create: playerCreate });
      setCreated(key);
      setName("");
      setPlayerCreate(false);
      await load();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const remove = async () => {
    const key = deleting;
    setDeleting(null);
    if (!key) return;
    try {
      await api("DELETE", `/service-accounts/${key.pk}`);
      if (created?.pk === key.pk) setCreated(null);
      await load();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Page title="Authentication">
      <p>
        Service-account keys let your app log players in (<code>POST /api/auth/login</code> with the key and a player's federated id). A login-only key is
        public: it ships inside your app. A <strong>playerCreate</strong> key is a backend secret that may also create players; it is shown once.
      </p>
      {error ? <Notice kind="error">{error}</Notice> : null}
      {created ? (
        <Notice kind={created.permissions.includes("playerCreate") ? "warning" : "info"}>
          <p>
            Key <strong>{created.name}</strong> created.
            {created.permissions.includes("playerCreate") ? " This backend key is shown only now: copy it and keep it on your server." : ""}
          </p>
          <Secret label={`key ${created.name}`} value={created.api_key} id="created-key" />
        </Notice>
      ) : null}

      <form class="stack" onSubmit={create} aria-labelledby="create-key-title">
        <h2 id="create-key-title">Create a key</h2>
        <label for="key-name">Name</label>
        <input id="key-name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="my-game-ios" />
        <label class="check">
          <input type="checkbox" checked={playerCreate} onChange={(e) => setPlayerCreate(e.currentTarget.checked)} />
          playerCreate: may create players (a backend secret)
        </label>
        <button type="submit">Create key</button>
      </form>

      <h2>Keys of this team</h2>
      {keys === null ? (
        <p>Loading…</p>
      ) : keys.length === 0 ? (
        <p>No keys yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Permissions</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr>
                  <td>{k.name}</td>
                  <td>{k.permissions.join(", ")}</td>
                  <td>
                    {k.permissions.includes("playerCreate") ? (
                      <code title="shown only when created">{k.api_key}</code>
                    ) : (
                      <>
                        <code class="key">{k.api_key}</code> <CopyButton value={k.api_key} label={`Copy key ${k.name}`} />
                      </>
                    )}
                  </td>
                  <td>{new Date(k.created_at).toLocaleString()}</td>
                  <td>
                    <button type="button" class="danger" aria-label={`Delete key ${k.name}`} onClick={() => setDeleting(k)}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Confirm
        open={deleting !== null}
        title={`Delete key ${deleting?.name ?? ""}?`}
        confirmLabel="Delete key"
        danger
        onConfirm={remove}
        onCancel={() => setDeleting(null)}
      >
        <p>Apps using this key can no longer log players in, and players it logged in are disconnected at once.</p>
      </Confirm>
    </Page>
  );
}
