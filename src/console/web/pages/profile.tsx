/**
 * Profile: who you are, your teams (leave one), invitations waiting for you (accept, decline), your developer
 * API key (reveal, copy, rotate) and your team's invitations of others.
 */
import { useEffect, useState } from "preact/hooks";
import { api, messageOf, type SessionInfo, setCsrf, type TeamRef } from "../api.ts";
import { Confirm, CopyButton, Notice, Page, Secret } from "../components.tsx";

interface Invitation {
  pk: number;
  email: string;
  created_at: string;
}

interface MyInvitation {
  pk: number;
  team: TeamRef;
  created_at: string;
}

export function ProfilePage(props: { session: SessionInfo; onChange: (s: SessionInfo) => void }) {
  const { session } = props;
  const [confirming, setConfirming] = useState(false);
  const [newKey, setNewKey] = useState<string | null>(null);
  const [error, setError] = useState("");

  const rotate = async () => {
    setConfirming(false);
    try {
      const { api_key } = await api<{ api_key: string }>("POST", "/key/rotate");
      setNewKey(api_key);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Page title="Profile">
      {error ? <Notice kind="error">{error}</Notice> : null}
      <dl class="facts">
        <dt>Name</dt>
        <dd>{session.user.name}</dd>
        <dt>E-mail</dt>
        <dd>{session.user.email}</dd>
        <dt>Teams</dt>
        <dd>
          <Teams session={session} onChange={props.onChange} onError={setError} />
        </dd>
      </dl>

      <MyInvitations onChange={props.onChange} />

      <h2>Developer API key</h2>
      <p>
        Your private key: it acts for you on every team you are in. Use it only on servers (never in an app), with <code>POST /api/auth/login</code>.
      </p>
      {newKey ? (
        <Notice kind="warning">
          Your key was rotated. The old key, the tokens made with it and your other console sessions no longer work. Your new key:{" "}
          <Secret label="new developer API key" value={newKey} id="developer-key" />
        </Notice>
      ) : (
        <Secret label="developer API key" load={() => api<{ api_key: string }>("GET", "/key").then((r) => r.api_key)} id="developer-key" />
      )}
      <p>
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Rotate key…
        </button>
      </p>
      <Confirm open={confirming} title="Rotate your developer key?" confirmLabel="Rotate now" danger onConfirm={rotate} onCancel={() => setConfirming(false)}>
        <p>A new key replaces the current one at once. What stops working:</p>
        <ul>
          <li>the current key, wherever it is used (servers, scripts, CI);</li>
          <li>every access token made with it, on every team;</li>
          <li>your console sessions in other browsers.</li>
        </ul>
        <p>Players, service-account keys and player tokens are not affected.</p>
      </Confirm>

      <Invitations team={session.team.name} singleSignOn={session.method === "oidc"} />
    </Page>
  );
}

/** The developer's teams, each with "Leave" (not the last one). */
function Teams(props: { session: SessionInfo; onChange: (s: SessionInfo) => void; onError: (message: string) => void }) {
  const { session } = props;
  const [leaving, setLeaving] = useState<TeamRef | null>(null);
  const leave = async (team: TeamRef) => {
    setLeaving(null);
    try {
      const s = await api<SessionInfo>("POST", `/teams/${team.pk}/leave`);
      setCsrf(s.csrf_token);
      props.onChange(s);
    } catch (e) {
      props.onError(messageOf(e));
    }
  };
  return (
    <>
      <ul class="inline" id="my-teams">
        {session.teams.map((t) => (
          <li>
            {t.name}
            {t.pk === session.team.pk ? " (current)" : ""}{" "}
            {session.teams.length > 1 ? (
              <button type="button" class="secondary" aria-label={`Leave team ${t.name}`} onClick={() => setLeaving(t)}>
                Leave
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <Confirm
        open={leaving !== null}
        title={`Leave team ${leaving?.name ?? ""}?`}
        confirmLabel="Leave team"
        titleId="leave-team-title"
        danger
        onConfirm={() => leaving && leave(leaving)}
        onCancel={() => setLeaving(null)}
      >
        <p>Your key and tokens stop working for this team at once. To come back, someone in the team must invite you again.</p>
      </Confirm>
    </>
  );
}

/** Invitations of the signed-in developer's e-mail: joining a team takes pressing "Accept". */
function MyInvitations(props: { onChange: (s: SessionInfo) => void }) {
  const [items, setItems] = useState<MyInvitation[] | null>(null);
  const [error, setError] = useState("");
  const load = () =>
    api<{ invitations: MyInvitation[] }>("GET", "/my-invitations").then(
      (r) => setItems(r.invitations),
      (e) => setError(messageOf(e)),
    );
  useEffect(() => void load(), []);

  const answer = async (invitation: MyInvitation, accept: boolean) => {
    setError("");
    try {
      if (accept) {
        const s = await api<SessionInfo>("POST", `/my-invitations/${invitation.pk}/accept`);
        setCsrf(s.csrf_token);
        props.onChange(s);
      } else {
        await api("POST", `/my-invitations/${invitation.pk}/decline`);
      }
      await load();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  if (!items || items.length === 0) return error ? <Notice kind="error">{error}</Notice> : null;
  return (
    <>
      <h2>Invitations for you</h2>
      <p>A team invited your e-mail. You join it only if you accept; your key then works for that team too.</p>
      {error ? <Notice kind="error">{error}</Notice> : null}
      <div class="table-wrap">
        <table id="my-invitations">
          <caption>Teams that invited you</caption>
          <thead>
            <tr>
              <th scope="col">Team</th>
              <th scope="col">Invited</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((i) => (
              <tr>
                <td>{i.team.name}</td>
                <td>{new Date(i.created_at).toLocaleString()}</td>
                <td>
                  <button type="button" aria-label={`Accept the invitation to ${i.team.name}`} onClick={() => answer(i, true)}>
                    Accept
                  </button>{" "}
                  <button type="button" class="secondary" aria-label={`Decline the invitation to ${i.team.name}`} onClick={() => answer(i, false)}>
                    Decline
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Invitations(props: { team: string; singleSignOn: boolean }) {
  const [items, setItems] = useState<Invitation[] | null>(null);
  const [email, setEmail] = useState("");
  const [error, setError] = useState("");
  const [news, setNews] = useState("");

  const load = () =>
    api<{ invitations: Invitation[] }>("GET", "/invitations").then(
      (r) => setItems(r.invitations),
      (e) => setError(messageOf(e)),
    );
  useEffect(() => void load(), []);

  const invite = async (event: Event) => {
    event.preventDefault();
    setError("");
    try {
      await api("POST", "/invitations", { email: email.trim() });
      setNews(
        `${email.trim()} is invited to ${props.team}: someone new joins by signing in with single sign-on; someone who already has an account accepts in their console.`,
      );
      setEmail("");
      await load();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const cancel = async (pk: number) => {
    try {
      await api("DELETE", `/invitations/${pk}`);
      await load();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <>
      <h2>Invite to team {props.team}</h2>
      <p>
        Someone new joins this team by signing in through single sign-on with the invited, verified e-mail. Someone who already has an account here sees the
        invitation on their Profile page and joins only if they accept it. hoot sends no e-mail: tell them to open this console and sign in.
      </p>
      {props.singleSignOn ? null : (
        <Notice kind="info">
          You signed in with an API key, so single sign-on may not be configured on this server: invitations take effect once it is (see HOOT_OIDC_ISSUER in
          docs/console.md).
        </Notice>
      )}
      {error ? <Notice kind="error">{error}</Notice> : null}
      {news ? <Notice kind="info">{news}</Notice> : null}
      <form class="row" onSubmit={invite}>
        <label for="invite-email">E-mail</label>
        <input id="invite-email" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <button type="submit">Invite</button>
      </form>
      {items && items.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption>Pending invitations</caption>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Invited</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((i) => (
                <tr>
                  <td>{i.email}</td>
                  <td>{new Date(i.created_at).toLocaleString()}</td>
                  <td>
                    <CopyButton value={i.email} label={`Copy ${i.email}`} />{" "}
                    <button type="button" class="secondary" aria-label={`Cancel the invitation of ${i.email}`} onClick={() => cancel(i.pk)}>
                      Cancel
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : items ? (
        <p>No pending invitations.</p>
      ) : null}
    </>
  );
}
