/**
 * Every subpath of the installed package's exports map loads under Node both
 * ways, `import` (ESM) and `require` (CJS), with the same exports.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect } from "./agent-check.mjs";
import { runMain } from "./main.mjs";

await runMain(async () => {
  const require = createRequire(import.meta.url);
  const manifest = JSON.parse(readFileSync(new URL("../node_modules/station-browser-use/package.json", import.meta.url), "utf8"));
  const subpaths = Object.keys(manifest.exports).filter((subpath) => subpath !== "./package.json");
  expect(subpaths.length >= 8, `only ${subpaths.length} subpaths in the exports map`);
  const checked = [];
  for (const subpath of subpaths) {
    const name = subpath === "." ? "station-browser-use" : `station-browser-use/${subpath.slice(2)}`;
    const esm = Object.keys(await import(name)).filter((key) => key !== "default");
    const cjs = Object.keys(require(name));
    expect(esm.length > 0, `${name}: no ESM exports`);
    const missing = esm.filter((key) => !cjs.includes(key));
    expect(missing.length === 0, `${name}: CJS lacks ${missing.join(", ")}`);
    checked.push(`${name} (${esm.length})`);
  }
  return { checked: [`ESM and CJS: ${checked.join(", ")}`] };
});
