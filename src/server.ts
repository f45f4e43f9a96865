/**
 * Starting and stopping a hoot server: open and migrate the database, wire the dependencies, build the
 * app, listen; and the graceful stop (refuse new work, let in-flight requests finish, close sockets,
 * checkpoint the WAL). Used by `hoot serve` and by the tests, which start the real thing on port 0.
 */
import type { DestinationStream } from "pino";
import type { Config } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { createLogger, type Logger } from "./log.ts";
import { createMetrics } from "./metrics.ts";
import { buildDeps, type Deps } from "./deps.ts";
import { createApp, type App } from "./app.ts";
import type { Lifecycle } from "./http/plugin.ts";
import { loadMasterKey } from "./secret-key.ts";
import { bootstrapDev, type DevCredentials } from "./cli/bootstrap.ts";
import type { Engine } from "./engine/types.ts";
import { buildEngine } from "./engine-wiring.ts";
import { interactRoutes, type Interact } from "./interact/index.ts";
import { startRetentionJob } from "./conversations/service.ts";

export interface ServerOptions {
  /** Where JSON logs go (stdout by default); tests capture them. */
  logDestination?: DestinationStream;
  /** Run the dev first-run bootstrap (true for `hoot serve`). */
  bootstrap?: boolean;
  /** The turn engine; by default the one the settings choose. */
  engine?: Engine;
}

export interface RunningServer {
  url: string;
  port: number;
  app: App;
  deps: Deps;
  logger: Logger;
  devCredentials: { credentials: DevCredentials; path: string } | null;
  engine: Engine;
  interact: Interact;
  /** Graceful stop; resolves when everything is closed. */
  stop(): Promise<void>;
}

/** Opens everything and listens on config.host:config.port (0 picks a free port). */
export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  const logger = createLogger(config.logLevel, options.logDestination);
  const master = loadMasterKey(config);
  if (master.warning) logger.warn({ event: "generated_secret_key" }, master.warning);
  const handle = openDatabase(config.databasePath);
  const deps = buildDeps({ config, db: handle.db, sqlite: handle.sqlite, logger, metrics: createMetrics(), masterKey: master.key });
  const devCredentials = options.bootstrap ? bootstrapDev(deps) : null;
  const lifecycle: Lifecycle = { draining: false };
  const engine = options.engine ?? (await buildEngine(config, logger));
  const interact = interactRoutes(deps, engine);
  const stopRetention = startRetentionJob(deps.db, config.retentionDays, config.retentionSweepMs, logger);
  const app = createApp(deps, { lifecycle, plugins: [interact.plugin] });
  app.listen({ hostname: config.host, port: config.port });
  const port = app.server!.port!;
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ event: "listening", host: config.host, port, env: config.env }, "hoot is listening");

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      lifecycle.draining = true;
      logger.info({ event: "draining" }, "stopping: finishing in-flight requests");
      stopRetention();
      // Every open stream sends its close, then its socket closes with 1001, before the listener stops.
      await interact.connections.shutdown();
      await app.server?.stop(false);
      await engine.close();
      handle.close();
      logger.info({ event: "stopped" }, "stopped");
      logger.flush?.();
    })());
  return { url, port, app, deps, logger, devCredentials, engine, interact, stop };
}
