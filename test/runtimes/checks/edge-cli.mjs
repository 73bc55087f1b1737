/**
 * Runs the edge-direct check in Node 22, Deno or Bun: the JSON config is the
 * first argument; prints one JSON line with the result and exits 1 on a failure.
 */
import { runEdgeCheck } from "./edge-check.mjs";
import { runMain } from "./main.mjs";

await runMain((config) => runEdgeCheck(config));
