/**
 * station-browser-use/worker: the HTTP worker around a session manager
 * (Node, Deno, Bun). The CLI `station-browser-use worker` runs one with local
 * Chromium.
 */
export { createBrowserWorker, type BrowserWorker } from "./worker.js";
export { resolveBrowserWorkerOptions, type BrowserWorkerOptions, type ResolvedBrowserWorkerOptions, type TenantKey } from "./options.js";
export { parseTenantKeys } from "./tenant-keys.js";
export {
  createWorkerHttpServer,
  resolveWorkerHttpServerOptions,
  workerHttpServerDefaults,
  type WorkerHttpServerOptions,
  type ResolvedWorkerHttpServerOptions,
} from "./http-server.js";
export type { Caller } from "./auth.js";
export type { RouteScope } from "./routes.js";
