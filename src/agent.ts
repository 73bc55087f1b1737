/**
 * station-browser-use/agent: what an agent app needs on any runtime (Node,
 * Deno, Bun, Cloudflare Workers, edge): the worker client.
 */
export {
  BrowserUseClient,
  resolveClientOptions,
  type ClientCallOptions,
  type BrowserUseClientOptions,
  type ResolvedBrowserUseClientOptions,
  type ClientRetryOptions,
} from "./client/index.js";
