// prom-client's modules one by one (metrics.ts imports them so the package's index, which also loads the
// Pushgateway client and with it node:http, node:https and node:zlib, stays off the start-up path). The
// package ships one declaration file, for its index; these map each module onto the class it exports.
declare module "prom-client/lib/registry" {
  import { Registry } from "prom-client";
  export = Registry;
}
declare module "prom-client/lib/counter" {
  import { Counter } from "prom-client";
  export = Counter;
}
declare module "prom-client/lib/gauge" {
  import { Gauge } from "prom-client";
  export = Gauge;
}
declare module "prom-client/lib/histogram" {
  import { Histogram } from "prom-client";
  export = Histogram;
}
declare module "prom-client/lib/defaultMetrics" {
  import { collectDefaultMetrics } from "prom-client";
  export = collectDefaultMetrics;
}
