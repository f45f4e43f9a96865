/**
 * Where the synthesis worker's code lives, from source and inside a `bun build --compile` executable.
 *
 * From source, `import.meta.url` is this file, so the worker is next to it. In a compiled executable every
 * module reports the main entrypoint's URL (`/$bunfs/root/<name>`), and a worker exists only if its file was
 * passed to `bun build --compile` as an extra entrypoint. It is then stored under the virtual root at its path
 * relative to the build's root folder (the entrypoints' common folder, or `--root`), as `.js`: for
 * `src/main.ts src/engine/tts/flite/worker.ts` that is `engine/tts/flite/worker.js`. Every suffix of the
 * source path is tried, longest first, so any build layout finds it.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SOURCE_PATH = ["src", "engine", "tts", "flite", "worker.js"];

/**
 * The path to pass to `new Worker(...)`, or null when the executable was built without the worker entrypoint.
 * @example new Worker(fliteWorkerPath() ?? fail())
 */
export function fliteWorkerPath(): string | null {
  const here = fileURLToPath(new URL("./worker.ts", import.meta.url));
  if (existsSync(here)) return here;
  const root = dirname(fileURLToPath(import.meta.url));
  for (let start = 0; start < SOURCE_PATH.length; start++) {
    const path = join(root, ...SOURCE_PATH.slice(start));
    if (existsSync(path)) return path;
  }
  return null;
}
