/**
 * The Deno permissions each check runs with: the narrowest set that passes,
 * so the README's table of permissions per entry is what the suite proves.
 */
export interface PermissionContext {
  /** Loopback ports the check talks to (the worker, the page server, the stand-in). */
  ports: number[];
  chromium: string;
  /** The suite's scratch directory (temporary roots live under it). */
  scratch: string;
}

export const denoPermissions = {
  /** station-browser-use/agent: the network, to the worker only. */
  agent: ({ ports }: PermissionContext) => [`--allow-net=${ports.map((port) => `127.0.0.1:${port}`).join(",")}`],
  /** station-browser-use/playwright with local Chromium. */
  engine: (_context: PermissionContext) => ["-A"],
  /** station-browser-use/worker (and /playwright under it). */
  worker: (_context: PermissionContext) => ["-A"],
};
