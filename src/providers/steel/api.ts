/**
 * The Steel SDK client and one way to call it: 429s wait (bounded), every
 * failure becomes an error of this package with the key removed. Neutral code.
 */
import Steel, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "steel-sdk";
import { ActionFailedError, isStationBrowserError } from "../../errors.js";
import { readProviderFailure, toProviderError, type ProviderErrorClasses, type ProviderFailure } from "../hosted/errors.js";
import { keyPlaceholder, providerFetch } from "../hosted/fetch.js";
import { retryAfterWait } from "../hosted/rate-limit.js";
import type { ResolvedSteelOptions } from "./options.js";

const errorClasses: ProviderErrorClasses = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

/** What a call to Steel is, to phrase its error and judge its outcome. */
export interface SteelCall {
  /** E.g. `create session 6f1…`. */
  operation: string;
  /** True for create and release: an unanswered one may have taken effect. */
  mutating: boolean;
  signal?: AbortSignal | undefined;
}

/** A Steel client with the package's call discipline. */
export interface SteelApi {
  client: Steel;
  /** Values never to repeat (the key). */
  secrets: readonly string[];
  /** Runs a call; throws this package's errors. */
  call<T>(what: SteelCall, run: () => PromiseLike<T>): Promise<T>;
  /**
   * Like `call`, but a 404 answer gives `undefined`, except a 404 for a route
   * the server does not have (see {@link isMissingRoute}), which is thrown as
   * a `NotFoundError`.
   */
  callOrAbsent<T>(what: SteelCall, run: () => PromiseLike<T>): Promise<T | undefined>;
}

/** Builds the SDK client (`maxRetries: 0`, explicit fetch and base URL, no environment lookups). */
export function createSteelApi(options: ResolvedSteelOptions): SteelApi {
  const client = new Steel({
    // The key travels in the fetch below, so an SDK debug log never prints it.
    steelAPIKey: options.apiKey === undefined ? null : keyPlaceholder,
    baseURL: options.baseURL,
    timeout: options.requestTimeoutMs,
    maxRetries: 0,
    fetch: providerFetch({
      fetch: options.fetch,
      timeoutMs: options.requestTimeoutMs,
      ...(options.apiKey === undefined ? {} : { auth: { header: "steel-api-key", key: options.apiKey } }),
    }),
  });
  const secrets = options.apiKey === undefined ? [] : [options.apiKey];
  const read = (error: unknown): ProviderFailure => readProviderFailure(error, errorClasses, secrets);

  async function attempt<T>(what: SteelCall, run: () => PromiseLike<T>, absentOn404: boolean): Promise<T | undefined> {
    if (what.signal?.aborted) throw new ActionFailedError(`steel: ${what.operation}: cancelled before it was sent`);
    try {
      return await retryAfterWait(async () => await run(), read, {
        capMs: options.rateLimitCapMs,
        signal: what.signal,
        ...(options.sleep ? { sleep: options.sleep } : {}),
      });
    } catch (error) {
      // Our own errors (a cancelled 429 wait) already say what happened.
      if (isStationBrowserError(error)) throw error;
      const failure = read(error);
      // A 404 for a route the server lacks says nothing about the thing asked for.
      if (absentOn404 && failure.kind === "status" && failure.status === 404 && !isMissingRoute(failure)) return undefined;
      throw toProviderError(failure, { provider: "steel", operation: what.operation, mutating: what.mutating, secrets });
    }
  }

  return {
    client,
    secrets,
    async call(what, run) {
      return (await attempt(what, run, false)) as Awaited<ReturnType<typeof run>>;
    },
    callOrAbsent: (what, run) => attempt(what, run, true),
  };
}

/**
 * True for the 404 a server answers for a route it does not have rather than
 * for a missing record: Fastify's (steel-browser's) `Route GET:/v1/profiles/… not found`.
 */
export function isMissingRoute(failure: ProviderFailure): boolean {
  return failure.kind === "status" && failure.status === 404 && /^Route [A-Z]+:\S* not found$/.test(failure.message);
}
