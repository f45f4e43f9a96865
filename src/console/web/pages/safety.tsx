/**
 * Safety: the policies a configuration may name (built-in and the team's own), creating and editing team
 * policies, and the incident list. Parts whose API this server does not have yet say so.
 */
import { useEffect, useState } from "preact/hooks";
import { api, messageOf } from "../api.ts";
import { Notice, Page } from "../components.tsx";

type Item = Record<string, unknown>;
type Section = { available: false } | { available: true; items: Item[]; error?: string };

interface SafetyInfo {
  policies: Section;
  builtin: string[];
  team_policies: Section;
  incidents: Section;
}

const TEMPLATE = `{
  "name": "my-policy",
  "description": "What this policy allows and refuses"
}`;

/** A readable label for an item of unknown shape. */
function labelOf(item: Item): string {
  for (const key of ["name", "title", "category", "pk", "id"]) {
    const v = item[key];
    if (typeof v === "string" || typeof v === "number") return String(v);
  }
  return "item";
}

function idOf(item: Item): string | null {
  for (const key of ["pk", "id", "name"]) {
    const v = item[key];
    if (typeof v === "string" || typeof v === "number") return String(v);
  }
  return null;
}

export function SafetyPage() {
  const [info, setInfo] = useState<SafetyInfo | null>(null);
  const [editing, setEditing] = useState<{ id: string | null; text: string } | null>(null);
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
      if (editing.id === null) await api("POST", "/safety/policies", body);
      else await api("PUT", `/safety/policies/${encodeURIComponent(editing.id)}`, body);
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
          {info.policies.available ? (
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
                  {info.policies.items.map((p) => (
                    <tr>
                      <td>
                        <code>{labelOf(p)}</code>
                      </td>
                      <td>{typeof p.description === "string" ? p.description : ""}</td>
                      <td>{p.builtin === true ? "built-in" : "team"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <ul>
              {info.builtin.map((name) => (
                <li>
                  <code>{name}</code> (built-in)
                </li>
              ))}
            </ul>
          )}

          <h2>Team policies</h2>
          {!info.team_policies.available ? (
            <Notice kind="info">Team safety policies are not available on this server yet: configurations can use the built-in policies above.</Notice>
          ) : (
            <>
              {info.team_policies.error ? <Notice kind="error">{info.team_policies.error}</Notice> : null}
              {info.team_policies.items.length === 0 ? <p>This team has no policies of its own yet.</p> : null}
              <ul class="cards">
                {info.team_policies.items.map((p) => (
                  <li>
                    <strong>{labelOf(p)}</strong> {typeof p.description === "string" ? <span>{p.description}</span> : null}
                    <details>
                      <summary>Definition</summary>
                      <pre>{JSON.stringify(p, null, 2)}</pre>
                    </details>
                    <button type="button" class="secondary" aria-label={`Edit policy ${labelOf(p)}`} onClick={() => setEditing({ id: idOf(p), text: JSON.stringify(p, null, 2) })}>
                      Edit
                    </button>
                  </li>
                ))}
              </ul>
              {editing ? (
                <form class="stack" onSubmit={save}>
                  <label for="policy-json">{editing.id === null ? "New policy (JSON)" : `Policy ${editing.id} (JSON)`}</label>
                  <textarea id="policy-json" rows={12} spellcheck={false} value={editing.text} onInput={(e) => setEditing({ ...editing, text: e.currentTarget.value })} />
                  <div class="actions">
                    <button type="button" class="secondary" onClick={() => setEditing(null)}>
                      Cancel
                    </button>
                    <button type="submit">Save policy</button>
                  </div>
                </form>
              ) : (
                <button type="button" onClick={() => setEditing({ id: null, text: TEMPLATE })}>
                  New team policy
                </button>
              )}
            </>
          )}

          <h2>Incidents</h2>
          {!info.incidents.available ? (
            <Notice kind="info">The incident list is not available on this server yet.</Notice>
          ) : info.incidents.error ? (
            <Notice kind="error">{info.incidents.error}</Notice>
          ) : info.incidents.items.length === 0 ? (
            <p>No incidents recorded.</p>
          ) : (
            <ul class="cards">
              {info.incidents.items.map((i) => (
                <li>
                  <strong>{labelOf(i)}</strong>
                  {typeof i.created_at === "string" ? <span> {new Date(i.created_at).toLocaleString()}</span> : null}
                  <details>
                    <summary>Details</summary>
                    <pre>{JSON.stringify(i, null, 2)}</pre>
                  </details>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Page>
  );
}
