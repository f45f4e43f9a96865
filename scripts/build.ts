/**
 * Builds dist/hoot: one executable with migrations, the docs assets, the TTS engine (wasm and voices) and
 * its worker embedded, so it runs from an empty folder. `bun run build [--outfile PATH]`.
 */

import { join } from "node:path";
import { parseArgs } from "node:util";
import { ASSETS_FILE, buildConsoleAssets } from "./build-console.ts";

const root = join(import.meta.dir, "..");
/** Extra entrypoints Bun must embed: worker scripts are loaded by path at run time. */
export const EXTRA_ENTRYPOINTS: string[] = ["src/engine/tts/flite/worker.ts"];

// The developer console is bundled first, so the binary embeds what src/console/web says now.
await Bun.write(ASSETS_FILE, await buildConsoleAssets());

const { values } = parseArgs({ args: Bun.argv.slice(2), options: { outfile: { type: "string", default: join(root, "dist/hoot") } } });
/**
 * Start-up, decided here rather than paid at every start (bench:startup measures it):
 * - `--bytecode`: JavaScriptCore bytecode is built now and embedded, so a start does not parse and compile the
 *   bundle (ESM, so the speech worker's dependencies bundle as they do without it);
 * - `--compile-jit-policy 50`: the binary starts with the JIT fifty times more reluctant to tier up, so code that
 *   runs once while starting is not sent to the compiler threads; src/main.ts sets the normal policy once the
 *   server listens. Workers (speech) have their own VMs and are not affected.
 */
const COMPILE_FLAGS = ["--compile", "--minify", "--bytecode", "--format", "esm", "--compile-jit-policy", "50"];
const args = [
  process.execPath,
  "build",
  ...COMPILE_FLAGS,
  join(root, "src/main.ts"),
  ...EXTRA_ENTRYPOINTS.map((e) => join(root, e)),
  "--outfile",
  values.outfile!,
];
const proc = Bun.spawn(args, { cwd: root, stdout: "inherit", stderr: "inherit" });
process.exit(await proc.exited);
