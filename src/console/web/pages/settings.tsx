/** Team settings: whether the team requires a parent's consent before anything of a conversation is stored. */
import { useEffect, useState } from "preact/hooks";
import { api, messageOf } from "../api.ts";
import { Notice, Page } from "../components.tsx";

interface Team {
  pk: number;
  name: string;
  require_consent: boolean;
}

export function SettingsPage() {
  const [team, setTeam] = useState<Team | null>(null);
  const [error, setError] = useState("");
  useEffect(() => void api<Team>("GET", "/team").then(setTeam, (e) => setError(messageOf(e))), []);

  const toggle = async (value: boolean) => {
    setError("");
    try {
      setTeam(await api<Team>("PATCH", "/team", { require_consent: value }));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Page title="Team settings">
      {error ? <Notice kind="error">{error}</Notice> : null}
      {team === null ? (
        <p>Loading…</p>
      ) : (
        <form class="stack" onSubmit={(e) => e.preventDefault()}>
          <label class="check">
            <input
              id="require-consent"
              type="checkbox"
              aria-describedby="require-consent-help"
              checked={team.require_consent}
              onChange={(e) => void toggle(e.currentTarget.checked)}
            />
            Require a parent's consent
          </label>
          <p id="require-consent-help">
            When on, a player whose consent your backend has not reported talks in data-lite mode: nothing of the conversation is stored, the character
            remembers only within one connection, and audio is never sent to a speech recogniser outside this server. Turning it on erases nothing already
            stored.
          </p>
        </form>
      )}
    </Page>
  );
}
