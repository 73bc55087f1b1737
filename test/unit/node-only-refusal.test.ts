import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nonNodeConditions, packageJson, publishedEntries, repositoryRoot, tsupEntryOf } from "../helpers/published-entries.js";

/**
 * The Node-side entries (./playwright, ./worker) refuse at import, with a
 * clear error, on runtimes without Node APIs. esbuild resolves the real
 * exports map from an installed-looking copy of the package whose dist files
 * re-export their tsup sources, under each condition a Worker, edge or
 * browser bundler sets; the bundle is then run.
 */
const nodeOnly = publishedEntries().filter((entry) => entry.nodeOnly);

let project: string;

/** A scratch project with node_modules/<package>: the real package.json, and each dist file re-exporting its source. */
async function createScratchProject(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "station-refusal-"));
  const packageRoot = join(root, "node_modules", packageJson.name);
  await mkdir(join(packageRoot, "dist"), { recursive: true });
  await writeFile(join(packageRoot, "package.json"), JSON.stringify(packageJson));
  const files = new Set(JSON.stringify(packageJson.exports).match(/\.\/dist\/[^"]+\.js/g));
  for (const file of files) {
    const target = join(packageRoot, file);
    await mkdir(dirname(target), { recursive: true });
    const source = join(repositoryRoot, tsupEntryOf(file).source);
    await writeFile(target, `export * from ${JSON.stringify(relative(dirname(target), source).replaceAll("\\", "/"))};\n`);
  }
  return root;
}

/** Bundles `import { name } from specifier` as a user's code would, under `conditions`. */
async function bundleImport(specifier: string, name: string, conditions: string[], platform: "neutral" | "node") {
  const result = await build({
    stdin: { contents: `import { ${name} } from ${JSON.stringify(specifier)};\nexport const used = ${name};\n`, resolveDir: project, loader: "ts" },
    bundle: true,
    platform,
    format: "esm",
    write: false,
    metafile: true,
    conditions,
    mainFields: ["browser", "module", "main"],
    external: ["playwright-core", "@browserbasehq/sdk", "steel-sdk", "valibot", "eventemitter3", "ai", "@modelcontextprotocol/sdk"],
    logLevel: "silent",
  });
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}

/** Export names of a source module, as esbuild sees them. */
async function exportNames(source: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(repositoryRoot, source)],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    metafile: true,
    packages: "external",
    logLevel: "silent",
  });
  return Object.values(result.metafile.outputs)[0]!.exports.sort();
}

beforeAll(async () => {
  project = await createScratchProject();
});

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe("Node-only entries on runtimes without Node", () => {
  it("are ./playwright and ./worker, each with the three conditions ahead of import and require", () => {
    expect(nodeOnly.map(({ subpath }) => subpath).sort()).toEqual(["./playwright", "./worker"]);
    for (const { conditions } of nodeOnly) {
      const order = Object.keys(conditions);
      for (const condition of nonNodeConditions) expect(order.indexOf(condition)).toBeLessThan(order.indexOf("import"));
    }
  });

  for (const entry of nodeOnly) {
    const specifier = `${packageJson.name}${entry.subpath.slice(1)}`;

    it(`${specifier}: the refusal exports the same names as the entry, so a user's bundle builds`, async () => {
      const refusal = entry.conditions.workerd as { default: string };
      expect(await exportNames(tsupEntryOf(refusal.default).source)).toEqual(await exportNames(entry.source));
    });

    for (const condition of nonNodeConditions) {
      it(`${specifier} under "${condition}" throws at import, naming the entry and what to use instead`, async () => {
        const name = (await exportNames(entry.source))[0]!;
        const { code, inputs } = await bundleImport(specifier, name, [condition], "neutral");
        expect(inputs.some((input) => input.includes("src/refusals/"))).toBe(true);
        expect(inputs.some((input) => input.includes("src/engine/") || input.includes("src/worker/worker.ts"))).toBe(false);
        const loaded = import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
        await expect(loaded).rejects.toThrow(`${specifier} cannot run in`);
        await expect(loaded).rejects.toThrow(/needs Node, Deno or Bun\. On this runtime use "station-browser-use\/agent"/);
      });
    }

    it(`${specifier} resolves to the real entry for Node`, async () => {
      const name = (await exportNames(entry.source))[0]!;
      const { inputs } = await bundleImport(specifier, name, [], "node");
      expect(inputs.some((input) => input.includes("src/refusals/"))).toBe(false);
      expect(inputs).toContain(relative(process.cwd(), join(repositoryRoot, entry.source)).replaceAll("\\", "/"));
    });
  }
});
