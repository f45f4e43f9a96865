/**
 * The server's old address, kept as an entry point: tests that import the server's whole module graph in a fresh
 * process (the start-up path, the safety library's laziness) load it by this path. The server itself is in
 * boot/server.ts, the composition root.
 */
export { type RunningServer, type ServerOptions, startServer } from "./boot/server.ts";
