/**
 * The Deno permissions each check runs with: the narrowest set that passes,
 * so the README's permissions per entry are what the suite proves.
 */
export interface PermissionContext {
  /** Loopback ports the check talks to (the worker, the provider stand-in). */
  ports: number[];
}

const loopback = (ports: number[]) => `--allow-net=${ports.map((port) => `127.0.0.1:${port}`).join(",")}`;

export const denoPermissions = {
  /** station-browser-use/agent: the network, to the worker only. */
  agent: ({ ports }: PermissionContext) => [loopback(ports)],
  /**
   * station-browser-use/browserbase and /steel (REST halves): the network, to
   * the provider's API only, and the variables their SDKs read: DEBUG (both,
   * on every request) and BROWSERBASE_CUSTOM_HEADERS (Browserbase's
   * constructor).
   */
  rest: ({ ports }: PermissionContext) => [loopback(ports), "--allow-env=BROWSERBASE_CUSTOM_HEADERS,DEBUG"],
  /**
   * The REST halves without DEBUG: each call is refused before it is sent,
   * and reported as a plain provider error naming `--allow-env=DEBUG`.
   */
  "rest-without-debug": ({ ports }: PermissionContext) => [loopback(ports), "--allow-env=BROWSERBASE_CUSTOM_HEADERS"],
  /** The CDP client (src/cdp/): the network, to the browser's DevTools port only. */
  cdp: ({ ports }: PermissionContext) => [loopback(ports)],
  /**
   * Edge-direct (the manager, station-browser-use/cdp and the REST halves):
   * the network, to the provider's API and the browser's DevTools port only,
   * and what the REST halves' SDKs read.
   */
  edge: ({ ports }: PermissionContext) => [loopback(ports), "--allow-env=BROWSERBASE_CUSTOM_HEADERS,DEBUG"],
  /**
   * station-browser-use/playwright: everything. playwright-core, as it loads,
   * reads the environment and the home directory and checks
   * /proc/sys/fs/binfmt_misc/WSLInterop, a path Deno opens only under
   * --allow-all; launching Chromium then needs --allow-run as well.
   */
  engine: (_context: PermissionContext) => ["--allow-all"],
  /** station-browser-use/worker with the Playwright engine behind it: as /playwright. */
  worker: (_context: PermissionContext) => ["--allow-all"],
};
