/**
 * The playground's timeline: each interaction's timings from sending it (first text, first audio, first heard,
 * close), and every event as it arrived.
 */

export interface Turn {
  began: number;
  firstText?: number;
  firstAudio?: number;
  firstHeard?: number;
  closed?: number;
  audioChunks: number;
}

export interface Entry {
  n: number;
  uid: string;
  ms: number;
  label: string;
  detail: string;
}

export function Timeline(props: { turns: Record<string, Turn>; entries: Entry[] }) {
  return (
    <>
      <h2>Timeline</h2>
      {Object.keys(props.turns).length > 0 ? (
        <div class="table-wrap">
          <table id="pg-turns">
            <caption>Timings of each interaction, from sending it</caption>
            <thead>
              <tr>
                <th scope="col">Interaction</th>
                <th scope="col">First text</th>
                <th scope="col">First audio</th>
                <th scope="col">First heard</th>
                <th scope="col">Close</th>
                <th scope="col">Audio chunks</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(props.turns).map(([uid, t]) => (
                <tr data-uid={uid}>
                  <td>
                    <code>{uid.slice(0, 8)}</code>
                  </td>
                  <td>{ms(t.firstText, t.began)}</td>
                  <td>{ms(t.firstAudio, t.began)}</td>
                  <td>{ms(t.firstHeard, t.began)}</td>
                  <td data-closed={t.closed === undefined ? "false" : "true"}>{ms(t.closed, t.began)}</td>
                  <td>{t.audioChunks}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>No interactions yet.</p>
      )}
      <details open={props.entries.length > 0 && props.entries.length < 60}>
        <summary>Every event ({props.entries.length})</summary>
        <ol class="events" id="pg-events">
          {props.entries.map((e) => (
            <li data-event={e.label} data-uid={e.uid}>
              <code>+{e.ms} ms</code> <code>{e.uid.slice(0, 8)}</code> {e.label} {e.detail ? <span class="muted">{e.detail}</span> : null}
            </li>
          ))}
        </ol>
      </details>
    </>
  );
}

function ms(at: number | undefined, began: number): string {
  return at === undefined ? "—" : `${Math.round(at - began)} ms`;
}
