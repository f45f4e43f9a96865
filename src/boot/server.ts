/**
 * Starting and stopping a hoot server: open the data folder, database and key (refusing a key that cannot
 * open the data), wire the dependencies, build the app, listen (refusing a port another process holds); and
 * the graceful stop: refuse new work, let in-flight requests and streams finish for up to
 * HOOT_SHUTDOWN_DRAIN_MS, close whatever is left, close the database (SQLite: checkpoint the WAL; PostgreSQL:
 * close the pool). Used by `hoot serve` and by the tests,
 * which start the real thing on port 0.
 */
import { readFileSync } from "node:fs";
import type { DestinationStream } from "pino";
import type { Config } from "../config.ts";
import { storedConfigLookup } from "../configs/repo.ts";
import { startRetentionJob } from "../conversations/service.ts";
import { SERVER_BUSY_TIMEOUT_MS } from "../db/busy.ts";
import type { Engine } from "../engine/index.ts";
import type { Lifecycle } from "../http/plugin.ts";
import { servedModels } from "../interact/connections.ts";
import { conversationHistory } from "../interact/history.ts";
import { type Interact, interactRoutes } from "../interact/index.ts";
import { createLogger, type Logger } from "../log.ts";
import { createMetrics } from "../metrics.ts";
import { dataMode } from "../players/privacy.ts";
import { realtimeRoutes } from "../realtime/index.ts";
import { type App, createApp } from "./app.ts";
import { bootstrapDev, type DevCredentials } from "./bootstrap.ts";
import { openDeployment, StartupRefused } from "./deployment.ts";
import { buildDeps, type Deps } from "./deps.ts";
import { buildEngine } from "./engine-wiring.ts";
import { createSafetyPorts } from "./safety-ports.ts";

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
  const deployment = await openDeployment(config, {
    busyTimeoutMs: SERVER_BUSY_TIMEOUT_MS,
    onCallbackError: (error) =>
      logger.error({ event: "after_commit_failed", err: error instanceof Error ? error.message : String(error) }, "a step after a commit failed"),
  });
  for (const notice of deployment.notices) logger.warn({ event: notice.event }, notice.message);
  const database = deployment.database;
  const deps = buildDeps({ config, database, logger, metrics: createMetrics(), masterKey: deployment.masterKey });
  const lifecycle: Lifecycle = { draining: false };
  let engine: Engine;
  try {
    // PostgreSQL: listen for other nodes' revocations before serving anything.
    await deps.cluster?.start();
    engine = options.engine ?? (await buildEngine(config, logger, deps.metrics));
  } catch (error) {
    await deps.cluster?.stop();
    await database.close();
    throw error;
  }
  // The interact socket is handed what it reads and writes beyond its own wire: history, stored configurations,
  // safety, and whether a player's conversation may be stored at all (consent: data-lite mode).
  const history = conversationHistory(deps, deps.config.historyBudgetChars, deps.config.dbLockTimeoutMs);
  const interact = interactRoutes(deps, engine, {
    history,
    stored: storedConfigLookup(deps.store),
    safety: createSafetyPorts(deps),
    dataModes: { mode: (playerId) => dataMode(deps, playerId), memoryChars: deps.config.historyBudgetChars },
  });
  // The OpenAI Realtime door: a second wire over the interact socket's connections and sessions.
  const realtime = realtimeRoutes(deps, engine, interact.connections, servedModels(config));
  const app = createApp(deps, { lifecycle, plugins: [interact.plugin, realtime] });
  try {
    // Bun (and Elysia's default) bind with SO_REUSEPORT, which lets a second server share a busy port and
    // silently split the traffic; without it a taken port is an error.
    app.listen({ hostname: config.host, port: config.port, reusePort: false, ...tlsOptions(config) });
  } catch (error) {
    await engine.close();
    await deps.cluster?.stop();
    await database.close();
    if ((error as { code?: string }).code === "EADDRINUSE") {
      throw new StartupRefused(
        `port ${config.port} on ${config.host} is already in use (another hoot, or another program). Stop it, or choose another port with HOOT_PORT.`,
      );
    }
    throw error;
  }
  // The dev first-run bootstrap answers no request: the requests already waiting go first.
  if (options.bootstrap) await new Promise((resolve) => setTimeout(resolve, 0));
  const devCredentials = options.bootstrap ? await bootstrapDev(deps) : null;
  const stopRetention = startRetentionJob(deps, config.retentionDays, config.retentionSweepMs, logger);
  const port = app.server!.port!;
  const url = `${config.tls ? "https" : "http"}://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ event: "listening", host: config.host, port, env: config.env, database: database.kind }, "hoot is listening");

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      lifecycle.draining = true;
      logger.info({ event: "draining", deadlineMs: config.shutdownDrainMs }, "stopping: finishing in-flight requests");
      stopRetention();
      const deadline = performance.now() + config.shutdownDrainMs;
      // Every open stream sends its close, then its socket closes with 1001; then in-flight requests finish.
      const drained = await withinDeadline(
        (async () => {
          await interact.connections.shutdown();
          await app.server?.stop(false);
        })(),
        deadline,
      );
      if (!drained) {
        logger.warn(
          { event: "drain_deadline", pendingRequests: app.server?.pendingRequests ?? 0, pendingSockets: app.server?.pendingWebSockets ?? 0 },
          "drain deadline passed: closing what is left",
        );
        await app.server?.stop(true);
      }
      await engine.close();
      await deps.cluster?.stop();
      await database.close();
      logger.info({ event: "stopped" }, "stopped");
      logger.flush?.();
    })());
  return { url, port, app, deps, logger, devCredentials, engine, interact, stop };
}

/** Bun's TLS options from HOOT_TLS_CERT_FILE and HOOT_TLS_KEY_FILE (nothing without them); a file that cannot be read stops the start. */
function tlsOptions(config: Config): { tls?: { cert: string; key: string } } {
  if (!config.tls) return {};
  const read = (name: string, path: string): string => {
    try {
      return readFileSync(path, "utf8");
    } catch {
      throw new StartupRefused(`${name} (${path}) cannot be read: give the path of a PEM file this process may read.`);
    }
  };
  return { tls: { cert: read("HOOT_TLS_CERT_FILE", config.tls.certFile), key: read("HOOT_TLS_KEY_FILE", config.tls.keyFile) } };
}

/** True when `work` settled before `deadline` (a performance.now() time); false when the deadline came first. */
async function withinDeadline(work: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - performance.now()));
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
