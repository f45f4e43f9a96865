#!/usr/bin/env bun
import { startServer } from "./boot/server.ts";
/**
 * hoot's command line: `serve` (the default) or `admin <command>`. The same for `bun src/main.ts`,
 * `npm run hoot -- …` and the compiled `dist/hoot`.
 */
import { type Config, ConfigError, loadConfig } from "./config.ts";

async function main(argv: string[]): Promise<number> {
  const [command = "serve", ...rest] = argv;
  // Help needs no valid settings: it is what someone with broken settings reads.
  if (command === "help" || command === "--help" || command === "-h") {
    // The help and admin modules load only for their commands: `serve` starts without them.
    const { helpText } = await import("./cli/help.ts");
    process.stdout.write(helpText());
    return 0;
  }
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`hoot: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (command === "admin") return (await import("./cli/admin.ts")).runAdmin(config, rest);
  if (command === "serve") return serve(config);
  process.stderr.write(`hoot: unknown command "${command}" (try: serve, admin, --help)\n`);
  return 2;
}

async function serve(config: Config): Promise<number> {
  const server = await startServer(config, { bootstrap: true });
  // The compiled binary starts with the JIT reluctant to compile (scripts/build.ts: --compile-jit-policy), so
  // run-once start-up code is interpreted instead of compiled on the way to listening; from the next tick (the
  // first requests) it compiles hot code as usual. Running from source, the policy is already the normal one.
  setTimeout(() => Bun.unsafe.setJITPolicy(1), 0);
  if (server.devCredentials) {
    const { credentials, path } = server.devCredentials;
    // Printed once, on the terminal only, by design: a newcomer needs them to try the API.
    process.stderr.write(
      `\nFirst run in the dev environment: created team "${credentials.team}".\n` +
        `  developer key:        ${credentials.developer_api_key}\n` +
        `  service account key:  ${credentials.service_account_api_key} (playerCreate)\n` +
        `Saved to ${path} (mode 0600). They are not shown again.\n\n`,
    );
  }
  // Handlers go in before the "listening" line, so a supervisor that signals as soon as it sees it is honoured.
  const stopped = new Promise<number>((resolve) => {
    const shutdown = (signal: string) => {
      server.logger.info({ event: "signal", signal }, "shutting down");
      server.stop().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.once("SIGTERM", () => shutdown("SIGTERM"));
    process.once("SIGINT", () => shutdown("SIGINT"));
  });
  process.stderr.write(`hoot listening on ${server.url} (docs: ${server.url}/docs)\n`);
  return stopped;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`hoot: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
