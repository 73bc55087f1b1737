/**
 * Runs the agent check in Node, Deno or Bun: the JSON config is the first
 * argument; prints one JSON line with the result and exits 1 on a failure.
 * It also checks which file `station-browser-use/agent` resolves to: on Node
 * the `node` condition's (the client posts over node:http), on Deno and Bun
 * the plain one (fetch).
 */
import { expect, runAgentCheck } from "./agent-check.mjs";
import { runMain } from "./main.mjs";

await runMain(async (config) => {
  const result = await runAgentCheck(config);
  const resolved = String(import.meta.resolve("station-browser-use/agent"));
  const expected = globalThis.Deno || globalThis.Bun ? "/dist/agent.js" : "/dist/agent-node.js";
  expect(resolved.endsWith(expected), `station-browser-use/agent resolved to ${resolved}, expected …${expected}`);
  result.checked.push(`entry ${expected.slice("/dist/".length)}`);
  return result;
});
