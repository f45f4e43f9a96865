/** The console's frame: who is signed in, sign-in, the navigation, and which page shows (from the URL hash). */
import { useEffect, useState } from "preact/hooks";
import { ApiError, api, messageOf, type SessionInfo, type SignInOptions, setCsrf, whenSignedOut } from "./api.ts";
import { Notice } from "./components.tsx";
import { KeysPage } from "./pages/keys.tsx";
import { PlayerPage } from "./pages/player.tsx";
import { PlayersPage } from "./pages/players.tsx";
import { PlaygroundPage } from "./pages/playground.tsx";
import { ProfilePage } from "./pages/profile.tsx";
import { SafetyPage } from "./pages/safety.tsx";
import { SettingsPage } from "./pages/settings.tsx";
import { INNER_PAGES, PAGES, type PageId, route } from "./route.ts";

/** The whole console. */
export function App() {
  const [session, setSession] = useState<SessionInfo | null | undefined>(undefined);
  const [where, setWhere] = useState(route());

  const load = () =>
    api<SessionInfo>("GET", "/session").then(
      (s) => {
        setCsrf(s.csrf_token);
        setSession(s);
      },
      () => setSession(null),
    );

  useEffect(() => {
    whenSignedOut(() => setSession(null));
    void load();
    const onHash = () => setWhere(route());
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);

  useEffect(() => {
    const title = [...PAGES, ...INNER_PAGES].find((p) => p.id === where.page)?.title ?? "";
    document.title = session ? `${title} · hoot console` : "Sign in · hoot console";
  }, [where.page, session]);

  if (session === undefined) return <p class="loading">Loading…</p>;
  if (session === null) return <SignIn onSignedIn={load} />;
  return <Shell session={session} page={where.page} query={where.query} onChange={setSession} />;
}

function SignIn(props: { onSignedIn: () => void }) {
  const [options, setOptions] = useState<SignInOptions | null>(null);
  const [apiKey, setApiKey] = useState("");
  const [teamName, setTeamName] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api<SignInOptions>("GET", "/sign-in-options").then(setOptions, (e) => setError(messageOf(e)));
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError("");
    try {
      const s = await api<SessionInfo>("POST", "/session", { api_key: apiKey.trim(), ...(teamName.trim() ? { team_name: teamName.trim() } : {}) });
      setCsrf(s.csrf_token);
      setApiKey("");
      props.onSignedIn();
    } catch (e) {
      setError(e instanceof ApiError && e.status === 401 ? "That key was not accepted. Check that you copied the whole developer key." : messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="sign-in">
      <h1>hoot developer console</h1>
      {error ? <Notice kind="error">{error}</Notice> : null}
      {options === null ? (
        <p>Loading…</p>
      ) : options.single_sign_on ? (
        <>
          <p>Sign in with your organisation's account. hoot lets you in when your verified e-mail belongs to a developer or was invited to a team.</p>
          <p>
            <a class="button" href="/console/auth/login">
              Sign in with {options.provider_name}
            </a>
          </p>
        </>
      ) : (
        <form onSubmit={submit} aria-describedby="key-help">
          <p id="key-help">
            Single sign-on is not configured on this server, so sign in with your developer API key (in <code>data/dev-credentials.json</code> on a fresh local
            server, or from <code>hoot admin create-developer</code>).
          </p>
          <label for="api-key">Developer API key</label>
          <input id="api-key" type="password" autocomplete="off" required value={apiKey} onInput={(e) => setApiKey(e.currentTarget.value)} />
          <label for="team-name">Team (optional, when you are in several)</label>
          <input id="team-name" type="text" value={teamName} onInput={(e) => setTeamName(e.currentTarget.value)} />
          <button type="submit" disabled={busy}>
            {busy ? "Signing in…" : "Sign in"}
          </button>
        </form>
      )}
    </main>
  );
}

function Shell(props: { session: SessionInfo; page: PageId; query: URLSearchParams; onChange: (s: SessionInfo | null) => void }) {
  const { session } = props;
  const [error, setError] = useState("");

  const switchTeam = async (teamPk: number) => {
    try {
      const s = await api<SessionInfo>("PUT", "/session/team", { team_pk: teamPk });
      setCsrf(s.csrf_token);
      props.onChange(s);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const signOut = async () => {
    try {
      await api("DELETE", "/session");
    } finally {
      props.onChange(null);
    }
  };

  return (
    <>
      <a class="skip" href="#main">
        Skip to the page
      </a>
      <header class="top">
        <span class="brand">hoot console</span>
        <label class="team">
          <span>Team</span>
          <select value={String(session.team.pk)} onChange={(e) => switchTeam(Number(e.currentTarget.value))}>
            {session.teams.map((t) => (
              <option value={String(t.pk)}>{t.name}</option>
            ))}
          </select>
        </label>
        <span class="who">{session.user.email}</span>
        <button type="button" class="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <nav aria-label="Console pages">
        <ul>
          {PAGES.map((p) => (
            <li>
              <a href={`#/${p.id}`} aria-current={p.id === props.page ? "page" : undefined}>
                {p.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        {error ? <Notice kind="error">{error}</Notice> : null}
        {props.page === "profile" ? <ProfilePage key={session.team.pk} session={session} onChange={props.onChange} /> : null}
        {props.page === "keys" ? <KeysPage key={session.team.pk} /> : null}
        {props.page === "players" ? <PlayersPage key={session.team.pk} /> : null}
        {props.page === "safety" ? <SafetyPage key={session.team.pk} /> : null}
        {props.page === "playground" ? <PlaygroundPage key={session.team.pk} playerPk={props.query.get("player")} /> : null}
        {props.page === "player" ? <PlayerPage key={`${session.team.pk}-${props.query.get("pk")}`} playerPk={props.query.get("pk")} /> : null}
        {props.page === "settings" ? <SettingsPage key={session.team.pk} /> : null}
      </main>
    </>
  );
}
