import { createServer, type Server } from "node:http";
import * as v from "valibot";
import { ValidationError } from "../errors.js";
import { integerIn } from "../protocol/fields.js";
import { parseWith } from "../protocol/parse.js";
import type { BrowserWorker } from "./worker.js";

/** Options of {@link createWorkerHttpServer}: what a slow or greedy client may hold. */
export interface WorkerHttpServerOptions {
  /** Time a client has to send the request headers (ms, default 10 000). */
  headersTimeoutMs?: number;
  /** Time a client has to send the whole request, headers and body (ms, default 30 000; at least `headersTimeoutMs`). */
  requestTimeoutMs?: number;
  /**
   * Idle time before a kept-alive connection is closed (ms, default 60 000).
   * Sent to clients as `Keep-Alive: timeout=…`, which Node's `fetch` honours
   * (less 2 s): a client's next call after a model turn of some seconds
   * still finds its connection open instead of connecting (and on TLS,
   * handshaking) again.
   */
  keepAliveTimeoutMs?: number;
  /** Connections held at once (default 256); a connection past it is closed at once. */
  maxConnections?: number;
}

/** The defaults, in one table. */
export const workerHttpServerDefaults = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 60_000,
  maxConnections: 256,
} as const;

const WorkerHttpServerOptionsSchema = v.strictObject({
  headersTimeoutMs: v.optional(integerIn(100, 10 * 60_000)),
  requestTimeoutMs: v.optional(integerIn(100, 60 * 60_000)),
  keepAliveTimeoutMs: v.optional(integerIn(100, 10 * 60_000)),
  maxConnections: v.optional(integerIn(1, 65_536)),
});

/** Options after defaults and validation. */
export type ResolvedWorkerHttpServerOptions = Required<WorkerHttpServerOptions>;

/**
 * Applies defaults and validates.
 *
 * @throws {ValidationError} naming the option out of range, or when `headersTimeoutMs` exceeds `requestTimeoutMs`.
 */
export function resolveWorkerHttpServerOptions(options: WorkerHttpServerOptions = {}): ResolvedWorkerHttpServerOptions {
  const parsed = parseWith(WorkerHttpServerOptionsSchema, options, "options");
  const resolved = { ...workerHttpServerDefaults, ...stripUndefined(parsed) };
  if (resolved.headersTimeoutMs > resolved.requestTimeoutMs) {
    throw new ValidationError("options.headersTimeoutMs", `must not exceed requestTimeoutMs (${resolved.requestTimeoutMs} ms)`);
  }
  return resolved;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

/**
 * A `node:http` server for a worker, with bounds a slow or greedy client
 * cannot get past: headers must arrive within `headersTimeoutMs` and the
 * whole request within `requestTimeoutMs` (else 408 and the connection is
 * closed), idle kept-alive connections close after `keepAliveTimeoutMs`, and
 * at most `maxConnections` connections are held (more are dropped at once).
 * Call `listen` on it as on any server.
 *
 * @throws {ValidationError} for an option out of range.
 * @example
 * ```ts
 * const server = createWorkerHttpServer(worker, { maxConnections: 64 });
 * server.listen(8931, "127.0.0.1");
 * ```
 */
export function createWorkerHttpServer(worker: Pick<BrowserWorker, "handleNode">, options: WorkerHttpServerOptions = {}): Server {
  const resolved = resolveWorkerHttpServerOptions(options);
  const server = createServer(
    {
      headersTimeout: resolved.headersTimeoutMs,
      requestTimeout: resolved.requestTimeoutMs,
      keepAliveTimeout: resolved.keepAliveTimeoutMs,
      // Node checks the two timeouts on this interval (30 s by default): check often enough to honour them.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(resolved.headersTimeoutMs / 4))),
    },
    worker.handleNode,
  );
  server.maxConnections = resolved.maxConnections;
  return server;
}
