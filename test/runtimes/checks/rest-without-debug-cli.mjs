/**
 * Runs the REST check without DEBUG in Deno (its permissions lack
 * `--allow-env=DEBUG`): the JSON config is the first argument.
 */
import { runRestWithoutDebugCheck } from "./rest-check.mjs";
import { runMain } from "./main.mjs";

await runMain((config) => runRestWithoutDebugCheck(config));
