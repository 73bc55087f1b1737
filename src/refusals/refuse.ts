/**
 * Import-time refusal of a Node-side entry on a runtime that cannot run it.
 * The exports map sends the `workerd`, `edge-light` and `browser` conditions
 * of `./playwright` and `./worker` to the small modules beside this one,
 * which call {@link refuseNodeOnlyEntry} as they load.
 */

/** Names the runtime this code runs in, from what web-standard runtimes expose. */
export function currentRuntimeName(): string {
  const scope = globalThis as { navigator?: { userAgent?: unknown }; EdgeRuntime?: unknown; document?: unknown };
  if (scope.navigator?.userAgent === "Cloudflare-Workers") return "Cloudflare Workers (workerd)";
  if (typeof scope.EdgeRuntime === "string") return `the ${scope.EdgeRuntime} edge runtime`;
  if (scope.document !== undefined) return "a browser";
  return "a runtime without Node APIs (the package was resolved with its workerd, edge-light or browser condition)";
}

/**
 * Throws at once: `entry` needs Node, Deno or Bun (`why`), and `instead`
 * names what to import on this runtime.
 *
 * @throws {Error} always, naming the runtime, the entry and the entry to use instead.
 */
export function refuseNodeOnlyEntry(entry: string, why: string, instead: string): never {
  const error = new Error(
    `${entry} cannot run in ${currentRuntimeName()}: ${why}, which needs Node, Deno or Bun. ` + `On this runtime use ${instead}.`,
  );
  error.name = "UnsupportedRuntimeError";
  throw error;
}
