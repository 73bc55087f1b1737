/**
 * Runs the CDP client check in Deno or Bun: the JSON config is the first
 * argument; prints one JSON line with the result and exits 1 on a failure.
 */
import { runCdpCheck } from "./cdp-check.mjs";
import { runMain } from "./main.mjs";

await runMain((config) => runCdpCheck(config));
