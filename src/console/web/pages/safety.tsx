/**
 * Safety: the policies a configuration may name (built-in and the team's own), creating and editing team
 * policies, and the latest incidents.
 */
import { useEffect, useState } from "preact/hooks";
import { api, messageOf } from "../api.ts";
import { Notice, Page } from "../components.tsx";

interface PolicyInfo {
  name: string;
  description: string;
  builtin: boolean;
}

/** A team policy as the API shows it (name, description, the policy's other fields, version, times). */
type TeamPolicy = { name: string; description?: string } & Record<string, unknown>;

interface Incident {
  pk: number;
  player_pk: number;
  session_id: string;
  category: string;
  action: string;
  direction: "input" | "output";
  policy: string;
  created_at: string;
}

interface SafetyInfo {
  policies: PolicyInfo[];
  team_policies: TeamPolicy[];
  incidents: Incident[];
}

const TEMPLATE = `{
  "name": "my-policy",
  "description": "What this policy allows and refuses"
}`;

export function SafetyPage() {
  const [info, setInfo] = useState<SafetyInfo | null>(null);
  const [editing, setEditing] = useState<{ name: string | null; text: string } | null>(null);
  const [error, setError] = useState("");
  const [news, setNews] = useState("");

  const load = () => api<SafetyInfo>("GET", "/safety").then(setInfo, (e) => setError(messageOf(e)));
  useEffect(() => void load(), []);

  const save = async (event: Event) => {
    event.preventDefault();
    if (!editing) return;
    setError("");
    let body: unknown;
    try {
      body = JSON.parse(editing.text);
    } catch {
      setError("The policy is not valid JSON.");
      return;
    }
    try {
      if (editing.name === null) await api("POST", "/safety/policies", body);
      else await api("PUT", `/safety/policies/${encodeURIComponent(editing.name)}`, body);
      setNews("Policy saved.");
      setEditing(null);
      await load();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Page title="Safety">
      {error ? <Notice kind="error">{error}</Notice> : null}
      {news ? <Notice kind="info">{news}</Notice> : null}
      {info === null ? (
        <p>Loading…</p>
      ) : (
        <>
          <h2>Policies a configuration may name</h2>
          <p>
            Set one in <code>set_configuration</code> as <code>safety_policy</code>. <code>default</code> is the strictest built-in children's policy.
          </p>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Description</th>
                  <th scope="col">Kind</th>
                </tr>
              </thead>
              <tbody>
                {info.policies.map((p) => (
                  <tr>
                    <td>
                      <code>{p.name}</code>
                    </td>
                    <td>{p.description}</td>
                    <td>{p.builtin ? "built-in" : "team"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          <h2>Team policies</h2>
          {info.team_policies.length === 0 ? <p>This team has no policies of its own yet.</p> : null}
          <ul class="cards">
            {info.team_policies.map((p) => (
              <li>
                <strong>{p.name}</strong> {p.description ? <span>{p.description}</span> : null}
                <details>
                  <summary>Definition</summary>
                  <pre>{JSON.stringify(p, null, 2)}</pre>
                </details>
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Edit policy ${p.name}`}
                  onClick={() => setEditing({ name: p.name, text: JSON.stringify(p, null, 2) })}
                >
                  Edit
                </button>
              </li>
            ))}
          </ul>
          {editing ? (
            <form class="stack" onSubmit={save}>
              <label for="policy-json">{editing.name === null ? "New policy (JSON)" : `Policy ${editing.name} (JSON)`}</label>
              <textarea
                id="policy-json"
                rows={12}
                spellcheck={false}
                value={editing.text}
                onInput={(e) => setEditing({ ...editing, text: e.currentTarget.value })}
              />
              <div class="actions">
                <button type="button" class="secondary" onClick={() => setEditing(null)}>
                  Cancel
                </button>
                <button type="submit">Save policy</button>
              </div>
            </form>
          ) : (
            <button type="button" onClick={() => setEditing({ name: null, text: TEMPLATE })}>
              New team policy
            </button>
          )}

          <h2>Incidents</h2>
          {info.incidents.length === 0 ? (
            <p>No incidents recorded.</p>
          ) : (
            <div class="table-wrap">
              <table id="incidents">
                <caption>The latest incidents, newest first (never any words)</caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Category</th>
                    <th scope="col">Action</th>
                    <th scope="col">Direction</th>
                    <th scope="col">Player</th>
                    <th scope="col">Policy</th>
                  </tr>
                </thead>
                <tbody>
                  {info.incidents.map((i) => (
                    <tr>
                      <td>{new Date(i.created_at).toLocaleString()}</td>
                      <td>{i.category}</td>
                      <td>{i.action}</td>
                      <td>{i.direction}</td>
                      <td>{i.player_pk}</td>
                      <td>
                        <code>{i.policy}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </Page>
  );
}
