/** Entry point of the console page: mounts the app into #app. */
import { render } from "preact";
import { App } from "./app.tsx";

render(<App />, document.getElementById("app")!);
