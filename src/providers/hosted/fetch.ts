/**
 * The fetch a hosted provider's SDK is given. Neutral code.
 *
 * - The whole request, body included, is bounded by `timeoutMs`: the SDKs'
 *   own timeout stops at the response headers, so a stalled body would hang.
 * - The API key is added here, as a header, and the SDK is built with a
 *   placeholder: an SDK debug log (`DEBUG=true`) then prints the placeholder.
 */

/** What the SDK is given instead of the real key. */
export const keyPlaceholder = "set-by-station-browser-use-fetch";

/** Options of {@link providerFetch}. */
export interface ProviderFetchOptions {
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
  /** The auth header to set (`X-BB-API-Key`, `steel-api-key`), or none. */
  auth?: { header: string; key: string };
}

/** A fetch that bounds each request in time and carries the key. */
export function providerFetch(options: ProviderFetchOptions): typeof globalThis.fetch {
  return (input, init = {}) => {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const headers = new Headers(init.headers);
    if (options.auth) headers.set(options.auth.header, options.auth.key);
    return options.fetch(input, { ...init, headers, signal });
  };
}
