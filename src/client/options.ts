import * as v from "valibot";
import { parseWith } from "../protocol/parse.js";
import { baseUrlProblem, integerIn } from "../protocol/fields.js";

/** How reads are retried on network errors and 502/503/504. Mutations are never retried. */
export interface ClientRetryOptions {
  /** Retries after the first attempt (0–5). Default 2. */
  limit?: number;
  /** Delay before the first retry, doubled for each next one. Default 100 ms. */
  delayMs?: number;
  /** Longest delay between two attempts. Default 400 ms. */
  maxDelayMs?: number;
  /** The wait between attempts (tests pass one that records instead of waiting); it rejects when `signal` aborts. Default: a timer. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Options of {@link BrowserUseClient}. */
export interface BrowserUseClientOptions {
  /** The worker's origin, optionally with a path prefix: `https://browsers.example.com`. http(s), no credentials, query or fragment. */
  baseUrl: string;
  /** The station (worker) this client binds to; it is encoded into the route. */
  stationId: string;
  /** The tenant key (or, with `operator: true`, the operator token). Sent as `Authorization: Bearer`; never put in an error message. */
  apiKey: string;
  /**
   * The fetch to use (default: the global one, bound to `globalThis`). On
   * Node, without one, the JSON calls go over `node:http` (kept-alive
   * connections, as fetch keeps them) instead of fetch, which is slower per call; a `fetch`
   * given here is used for every call (pass `fetch` to keep a dispatcher set
   * with undici's `setGlobalDispatcher`, a proxy say, which applies to fetch only).
   */
  fetch?: typeof globalThis.fetch;
  /** Time limit of each call, retries included. Default 60 000 ms. */
  timeoutMs?: number;
  /** Use the operator route instead of the tenant route. Default false. */
  operator?: boolean;
  /** Retries of reads (`list`, `liveFrame`, `control`, `checkpoints`, `recording*` reads, `reconcile`). */
  retry?: ClientRetryOptions;
}

/** Options after validation, with every default filled in. */
export interface ResolvedBrowserUseClientOptions {
  /** Without a trailing slash. */
  baseUrl: string;
  stationId: string;
  apiKey: string;
  fetch: typeof globalThis.fetch;
  /** True when `fetch` was given (it is then used for every call). */
  ownFetch: boolean;
  timeoutMs: number;
  operator: boolean;
  retry: Required<Omit<ClientRetryOptions, "sleep">> & Pick<ClientRetryOptions, "sleep">;
}

/** Every default of the client, in one place (see {@link resolveClientOptions}). */
export const clientDefaults = {
  timeoutMs: 60_000,
  operator: false,
  retry: { limit: 2, delayMs: 100, maxDelayMs: 400 },
} as const;

/** A function option (one `custom` schema for all: `v.function` would add a schema kind to the `/agent` bundle). */
const functionOption = (what: string) => v.optional(v.custom<(...args: never[]) => unknown>((value) => typeof value === "function", `expected ${what}`));

const ClientOptionsSchema = v.strictObject({
  baseUrl: v.custom<string>(
    (value) => typeof value === "string" && baseUrlProblem(value) === undefined,
    (issue) => (typeof issue.input === "string" ? (baseUrlProblem(issue.input) ?? "invalid URL") : "expected the worker's URL as a string"),
  ),
  stationId: v.pipe(
    v.string("expected the station id as a string"),
    v.minLength(1, "expected a non-empty station id"),
    v.maxLength(256, "longer than 256 characters"),
  ),
  apiKey: v.pipe(
    v.string("expected the API key as a string"),
    v.minLength(1, "expected a non-empty API key"),
    v.maxLength(4096, "longer than 4096 characters"),
    // Custom message: never echo the key.
    v.regex(/^[\x21-\x7e]+$/, "expected printable ASCII without spaces"),
  ),
  fetch: functionOption("a fetch function"),
  timeoutMs: v.optional(integerIn(1, 3_600_000)),
  operator: v.optional(v.boolean("expected a boolean")),
  retry: v.optional(
    v.strictObject(
      {
        limit: v.optional(integerIn(0, 5)),
        delayMs: v.optional(integerIn(0, 10_000)),
        maxDelayMs: v.optional(integerIn(0, 60_000)),
        sleep: functionOption("a function"),
      },
      "expected an object",
    ),
  ),
}, "expected an options object");

/**
 * Validates client options and fills in the defaults. Throws a
 * `ValidationError` naming the field, e.g. `options.baseUrl: expected an http: or https: URL`.
 *
 * @example
 * ```ts
 * const resolved = resolveClientOptions({ baseUrl: "http://127.0.0.1:8931", stationId: "local", apiKey: key });
 * resolved.timeoutMs; // 60000
 * ```
 */
export function resolveClientOptions(options: BrowserUseClientOptions): ResolvedBrowserUseClientOptions {
  const parsed = parseWith(ClientOptionsSchema, options, "options");
  const fetch = (parsed.fetch as typeof globalThis.fetch | undefined) ?? globalThis.fetch.bind(globalThis);
  return {
    baseUrl: parsed.baseUrl.replace(/\/+$/, ""),
    stationId: parsed.stationId,
    apiKey: parsed.apiKey,
    fetch,
    ownFetch: parsed.fetch !== undefined,
    timeoutMs: parsed.timeoutMs ?? clientDefaults.timeoutMs,
    operator: parsed.operator ?? clientDefaults.operator,
    retry: {
      limit: parsed.retry?.limit ?? clientDefaults.retry.limit,
      delayMs: parsed.retry?.delayMs ?? clientDefaults.retry.delayMs,
      maxDelayMs: parsed.retry?.maxDelayMs ?? clientDefaults.retry.maxDelayMs,
      ...(parsed.retry?.sleep ? { sleep: parsed.retry.sleep as (ms: number, signal: AbortSignal) => Promise<void> } : {}),
    },
  };
}
