/**
 * The architecture as data (rules.json beside this file): reads every import
 * of src/ with TypeScript's own pre-processor (type-only imports count: they
 * are dependencies too) and fails on any edge a rule forbids, and on any
 * cycle between top-level folders.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

interface Rule {
  name: string;
  from: string | string[];
  allow?: string[];
  forbid?: string[];
  why: string;
}
const { rules, acyclic } = JSON.parse(readFileSync(new URL("./rules.json", import.meta.url), "utf8")) as {
  rules: Rule[];
  acyclic: { name: string; split: string[] };
};
const root = fileURLToPath(new URL("../..", import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** `src/x/y.ts` for a relative import (`.js` written for `.ts`), `node:` for builtins, else the package name. */
function moduleOf(file: string, specifier: string): string {
  if (specifier.startsWith(".")) return relative(root, normalize(join(dirname(file), specifier))).replace(/\.js$/, ".ts");
  if (specifier.startsWith("node:")) return "node:";
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** Every import edge of src/: [importer, imported]. */
function importEdges(): [string, string][] {
  return sourceFiles(join(root, "src")).flatMap((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    return importedFiles.map(({ fileName }) => [relative(root, file), moduleOf(file, fileName)] as [string, string]);
  });
}

const matches = (module: string, prefixes: string[]) => prefixes.some((prefix) => module === prefix || module.startsWith(prefix));

/** Edges that break `rule`. */
export function violations(rule: Rule, edges: [string, string][]): string[] {
  const from = Array.isArray(rule.from) ? rule.from : [rule.from];
  return edges
    .filter(([importer]) => matches(importer, from))
    .filter(([, imported]) => (rule.allow ? !matches(imported, rule.allow) : matches(imported, rule.forbid ?? [])))
    .map(([importer, imported]) => `${importer} → ${imported}`);
}

/**
 * The folder a module of src/ belongs to: its top-level folder (src/engine),
 * or, under a `split` folder, the next one down (src/providers/local; files
 * directly in it belong to the split folder itself). Files directly in src/
 * (the entries) belong to none.
 */
function folderOf(module: string, split: string[]): string | undefined {
  const parts = module.split("/");
  if (parts[0] !== "src" || parts.length < 3) return undefined;
  const top = `${parts[0]}/${parts[1]}`;
  return split.includes(`${top}/`) && parts.length > 3 ? `${top}/${parts[2]}` : top;
}

/** A cycle between folders (see {@link folderOf}), if any. */
export function folderCycle(edges: [string, string][], split: string[]): string[] | undefined {
  const graph = new Map<string, Set<string>>();
  for (const [importer, imported] of edges) {
    const [a, b] = [folderOf(importer, split), folderOf(imported, split)];
    if (a === undefined || b === undefined || a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)!.add(b);
  }
  const done = new Set<string>();
  const visit = (node: string, path: string[]): string[] | undefined => {
    if (path.includes(node)) return [...path.slice(path.indexOf(node)), node];
    if (done.has(node)) return undefined;
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next, [...path, node]);
      if (cycle) return cycle;
    }
    done.add(node);
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node, []);
    if (cycle) return cycle;
  }
  return undefined;
}

const edges = importEdges();

describe("architecture (test/architecture/rules.json)", () => {
  it("reads the imports of src/", () => {
    expect(edges.length).toBeGreaterThan(200);
    expect(edges).toContainEqual(["src/client/transport.ts", "src/client/never-sent.ts"]);
  });

  it.each(rules.map((rule) => [rule.name, rule] as const))("%s", (_name, rule) => {
    expect(violations(rule, edges), rule.why).toEqual([]);
  });

  it(acyclic.name, () => {
    expect(folderCycle(edges, acyclic.split)).toBeUndefined();
  });

  it("catches what it is meant to catch", () => {
    const protocol = rules.find((rule) => rule.from === "src/protocol/")!;
    expect(violations(protocol, [["src/protocol/backend.ts", "src/lifecycle/manager.ts"]])).toEqual(["src/protocol/backend.ts → src/lifecycle/manager.ts"]);
    const neutral = rules.find((rule) => Array.isArray(rule.from) && rule.from.includes("src/client/"))!;
    expect(violations(neutral, [["src/client/x.ts", "node:"], ["src/client/x.ts", "src/protocol/wire.ts"]])).toEqual(["src/client/x.ts → node:"]);
    expect(folderCycle([["src/a/x.ts", "src/b/y.ts"], ["src/b/y.ts", "src/a/z.ts"]], [])).toEqual(["src/a", "src/b", "src/a"]);
    expect(folderCycle([["src/p/q/x.ts", "src/p/y.ts"], ["src/p/y.ts", "src/p/q/z.ts"]], ["src/p/"])).toEqual(["src/p/q", "src/p", "src/p/q"]);
    expect(folderCycle([["src/p/q/x.ts", "src/p/r/y.ts"]], ["src/p/"])).toBeUndefined();
  });
});
