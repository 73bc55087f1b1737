/**
 * Runs the REST check (Browserbase and Steel REST halves against the local
 * stand-in) in Node, Deno or Bun: the JSON config is the first argument.
 */
import { runRestCheck } from "./rest-check.mjs";
import { runMain } from "./main.mjs";

await runMain((config) => runRestCheck(config));
