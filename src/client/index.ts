/**
 * The runtime-neutral HTTP client of a station's browser worker.
 */
export { BrowserUseClient, type ClientCallOptions } from "./client.js";
export type { LiveFrame, LiveView } from "../protocol/sessions.js";
export {
  resolveClientOptions,
  type BrowserUseClientOptions,
  type ResolvedBrowserUseClientOptions,
  type ClientRetryOptions,
} from "./options.js";
