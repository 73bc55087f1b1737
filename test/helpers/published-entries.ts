/**
 * The package's entries as published: each subpath of package.json's exports
 * map, the tsup entry that builds its `import` file, and that entry's source.
 * Tests that check entries read them from here, so a new subpath is checked
 * without anyone listing it.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import tsupConfig from "../../tsup.config.js";

export const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The conditions under which a runtime without Node APIs resolves the package. */
export const nonNodeConditions = ["workerd", "edge-light", "browser"] as const;

type ConditionMap = { [condition: string]: string | ConditionMap };

export interface PublishedEntry {
  /** The subpath: ".", "./agent", … */
  subpath: string;
  /** The tsup entry name that builds it ("index", "agent", …). */
  name: string;
  /** Its source file, relative to the repository root. */
  source: string;
  /** The exports map's conditions for it, in order. */
  conditions: ConditionMap;
  /** True when the exports map refuses it on runtimes without Node (a `workerd` condition). */
  nodeOnly: boolean;
}

export const packageJson = JSON.parse(readFileSync(`${repositoryRoot}package.json`, "utf8")) as {
  name: string;
  exports: Record<string, string | ConditionMap>;
};

const tsupEntries = (tsupConfig as { entry: Record<string, string> }).entry;

/** The tsup entry name whose output is `file` ("./dist/agent.js" → "agent"). */
export function tsupEntryOf(file: string): { name: string; source: string } {
  const name = /^\.\/dist\/([^/]+)\.(?:js|cjs)$/.exec(file)?.[1];
  const source = name === undefined ? undefined : tsupEntries[name];
  if (name === undefined || source === undefined) throw new Error(`${file} is not the output of a tsup entry`);
  return { name, source };
}

function importFile(conditions: ConditionMap): string {
  const entry = conditions.import;
  const file = typeof entry === "string" ? entry : entry?.default;
  if (typeof file !== "string") throw new Error("an export without an import default");
  return file;
}

/** Every code subpath of the exports map (not ./package.json). */
export function publishedEntries(): PublishedEntry[] {
  return Object.entries(packageJson.exports)
    .filter(([subpath]) => subpath !== "./package.json")
    .map(([subpath, value]) => {
      if (typeof value === "string") throw new Error(`${subpath}: expected import/require conditions`);
      return { subpath, ...tsupEntryOf(importFile(value)), conditions: value, nodeOnly: "workerd" in value };
    });
}
