/**
 * Runs the agent check in Node, Deno or Bun: the JSON config is the first
 * argument; prints one JSON line with the result and exits 1 on a failure.
 */
import { runAgentCheck } from "./agent-check.mjs";
import { runMain } from "./main.mjs";

await runMain((config) => runAgentCheck(config));
