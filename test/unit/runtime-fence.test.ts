import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";

/**
 * DESIGN.md "Runtime fence": the neutral entry points use web standards only.
 * Each is bundled for a neutral platform; any Node builtin, playwright-core,
 * or a free `Buffer` / `process` reference fails the test.
 */
const neutralEntries = [
  "src/index.ts",
  "src/protocol/index.ts",
  "src/lifecycle/index.ts",
  "src/agent.ts",
  "src/client/index.ts",
  "src/providers/hosted/index.ts",
];

/**
 * REST halves of the hosted providers: neutral too. Their SDKs touch `Buffer`
 * only behind `typeof Buffer !== "undefined"` (a content-length helper that
 * falls back to TextEncoder), which is allowed; an unguarded use is not.
 */
const sdkEntries = [
  { entry: "src/providers/browserbase/rest.ts", marker: "REQUEST_RELEASE" },
  { entry: "src/providers/steel/rest.ts", marker: "steel-api-key" },
];

const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

function forbiddenImports(found: string[]): Plugin {
  return {
    name: "forbidden-imports",
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        if (nodeBuiltins.has(args.path) || args.path.startsWith("node:") || args.path.startsWith("playwright")) {
          found.push(`${args.path} (imported by ${args.importer})`);
          return { path: args.path, external: true };
        }
        return undefined;
      });
    },
  };
}

async function bundle(entry: string): Promise<{ forbidden: string[]; code: string }> {
  const forbidden: string[] = [];
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../../${entry}`, import.meta.url))],
    bundle: true,
    platform: "neutral",
    format: "esm",
    write: false,
    mainFields: ["module", "main"],
    plugins: [forbiddenImports(forbidden)],
    logLevel: "silent",
  });
  return { forbidden, code: result.outputFiles[0]!.text };
}

describe("runtime fence", () => {
  for (const entry of neutralEntries) {
    it(`${entry} bundles for a neutral platform without Node or Playwright`, async () => {
      const { forbidden, code } = await bundle(entry);
      expect(forbidden).toEqual([]);
      expect(code).not.toMatch(/\bBuffer\s*\./);
      expect(code).not.toMatch(/\bprocess\s*\.\s*(env|versions|platform|cwd|exit)/);
      expect(code.length).toBeGreaterThan(1000);
    });
  }

  for (const { entry, marker } of sdkEntries) {
    it(`${entry} (with its SDK) bundles for a neutral platform; any Buffer use is guarded`, async () => {
      const { forbidden, code } = await bundle(entry);
      expect(forbidden).toEqual([]);
      expect(code).toContain(marker);
      const unguarded = [...code.matchAll(/\bBuffer\s*\./g)].filter(
        (match) => !/typeof Buffer !== ["']undefined["']/.test(code.slice(Math.max(0, match.index - 200), match.index)),
      );
      expect(unguarded).toEqual([]);
    });
  }

  it("catches a Node import when one is present (the check itself works)", async () => {
    const { forbidden } = await bundle("src/providers/local/find-chromium.ts");
    expect(forbidden.some((path) => path.startsWith("node:fs"))).toBe(true);
    expect(forbidden.some((path) => path.startsWith("playwright-core"))).toBe(true);
  });
});
