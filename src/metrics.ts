/**
 * Prometheus metrics (prom-client): request counts and durations, authentication failures by reason,
 * live websocket sessions. Served at GET /metrics.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<"method" | "route" | "status">;
  httpDuration: Histogram<"method" | "route">;
  authFailures: Counter<"reason">;
  wsSessions: Gauge;
}

/** A fresh registry (one per app, so tests running several apps do not share counters). */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Counter({ name: "hoot_http_requests_total", help: "HTTP requests", labelNames: ["method", "route", "status"], registers: [registry] }),
    httpDuration: new Histogram({
      name: "hoot_http_request_duration_seconds",
      help: "HTTP request duration",
      labelNames: ["method", "route"],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: [registry],
    }),
    authFailures: new Counter({ name: "hoot_auth_failures_total", help: "Failed authentications by reason", labelNames: ["reason"], registers: [registry] }),
    wsSessions: new Gauge({ name: "hoot_ws_sessions", help: "Open interact websockets", registers: [registry] }),
  };
}
