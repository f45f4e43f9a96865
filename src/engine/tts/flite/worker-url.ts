/**
 * Where the synthesis worker's code lives, from source and inside a `bun build --compile` executable.
 *
 * From source, `import.meta.url` is this file, so the worker is next to it. In a compiled executable every
 * module reports the main entrypoint's URL (`/$bunfs/root/<name>`), and a worker exists only if its file was
 * passed to `bun build --compile` as an extra entrypoint; it is then stored under the virtual root at its path
 * relative to the entrypoints' common folder, as `.js`. That folder is `src/` when the entrypoints are
 * src/main.ts and this worker, and the repository root when one of them is outside src/ (the test fixture).
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const FROM_SRC = "engine/tts/flite/worker.js";

/**
 * The path to pass to `new Worker(...)`, or null when the executable was built without the worker entrypoint.
 * @example new Worker(fliteWorkerPath() ?? fail())
 */
export function fliteWorkerPath(): string | null {
  const here = fileURLToPath(new URL("./worker.ts", import.meta.url));
  if (existsSync(here)) return here;
  const root = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [FROM_SRC, `src/${FROM_SRC}`]) {
    const path = join(root, candidate);
    if (existsSync(path)) return path;
  }
  return null;
}
