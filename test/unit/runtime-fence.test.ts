import { builtinModules } from "node:module";
import { build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";
import { publishedEntries, repositoryRoot } from "../helpers/published-entries.js";

/**
 * DESIGN.md "Runtime fence": every entry of the exports map that a runtime
 * without Node can import (all but those with a `workerd` refusal condition)
 * uses web standards only. Each is bundled as published, from the source of
 * the tsup entry that builds it, for a neutral platform under the conditions
 * a Worker bundler uses; any Node builtin or playwright-core, or an
 * unguarded `Buffer` / `process` use, fails the test.
 */
const neutralEntries = publishedEntries().filter(({ nodeOnly }) => !nodeOnly);

/** Model and agent SDKs each neutral entry may import at run time (our code imports the rest as types only). */
const allowedSdks: Record<string, { imports: string[]; bundled?: RegExp }> = {
  "./ai-sdk": { imports: ["ai"] },
  "./mcp": {
    imports: ["@modelcontextprotocol/sdk/server/index.js", "@modelcontextprotocol/sdk/types.js"],
    bundled: /^@modelcontextprotocol\/sdk\//,
  },
};

const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
const modelSdks = /^(openai|@anthropic-ai\/sdk|ai|@ai-sdk\/.*|@modelcontextprotocol\/sdk)(\/|$)/;

/** Records Node, Playwright and (imported from our own code) model-SDK imports; `bundled` SDK paths are followed. */
function watchImports(found: string[], sdks: string[], bundled?: RegExp): Plugin {
  return {
    name: "watch-imports",
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        if (nodeBuiltins.has(args.path) || args.path.startsWith("node:") || args.path.startsWith("playwright")) {
          found.push(`${args.path} (imported by ${args.importer})`);
          return { path: args.path, external: true };
        }
        if (modelSdks.test(args.path) && !args.importer.includes("node_modules")) {
          sdks.push(args.path);
          return bundled?.test(args.path) ? undefined : { path: args.path, external: true };
        }
        return undefined;
      });
    },
  };
}

async function bundle(source: string, bundled?: RegExp): Promise<{ forbidden: string[]; sdks: string[]; code: string }> {
  const forbidden: string[] = [];
  const sdks: string[] = [];
  const result = await build({
    entryPoints: [`${repositoryRoot}${source}`],
    bundle: true,
    platform: "neutral",
    format: "esm",
    write: false,
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    plugins: [watchImports(forbidden, sdks, bundled)],
    // Drops comments (an SDK's docs mention process.env) but keeps the code as written.
    minifyWhitespace: true,
    logLevel: "silent",
  });
  return { forbidden, sdks: [...new Set(sdks)], code: result.outputFiles[0]!.text };
}

/** Uses of `global` (Buffer or process) not preceded, within 400 characters, by a `typeof global` guard. */
function unguarded(code: string, global: "Buffer" | "process", use: RegExp): string[] {
  return [...code.matchAll(use)]
    .filter((match) => !new RegExp(`typeof (?:globalThis\\.)?${global}\\s*!==?\\s*["']undefined["']`).test(code.slice(Math.max(0, match.index - 400), match.index)))
    .map((match) => code.slice(Math.max(0, match.index - 80), match.index + 40));
}

describe("runtime fence", () => {
  it("covers the neutral entries of the exports map, browserbase, steel and the CDP engine among them", () => {
    expect(neutralEntries.map(({ subpath }) => subpath)).toEqual(expect.arrayContaining([".", "./agent", "./browserbase", "./steel", "./cdp"]));
  });

  for (const { subpath, source } of neutralEntries) {
    it(`${subpath} (${source}) bundles for a neutral platform without Node, Playwright or an unlisted model SDK`, async () => {
      const allowed = allowedSdks[subpath];
      const { forbidden, sdks, code } = await bundle(source, allowed?.bundled);
      expect(forbidden).toEqual([]);
      expect(new Set(sdks)).toEqual(new Set(allowed?.imports ?? []));
      expect(unguarded(code, "Buffer", /\bBuffer\s*\./g)).toEqual([]);
      expect(unguarded(code, "process", /\bprocess\s*\.\s*(env|versions|platform|cwd|exit)\b/g)).toEqual([]);
      expect(code.length).toBeGreaterThan(1000);
    });
  }

  it("./cdp (the CDP engine and its client) bundles without ws, and holds both", async () => {
    const { forbidden, code } = await bundle("src/cdp.ts");
    expect(forbidden).toEqual([]);
    expect(code).not.toMatch(/from\s*["']ws["']/);
    expect(code).toContain("Target.attachToTarget");
    expect(code).toContain("Input.dispatchMouseEvent");
  });

  it("catches a Node import when one is present (the check itself works)", async () => {
    const { forbidden } = await bundle("src/providers/local/find-chromium.ts");
    expect(forbidden.some((path) => path.startsWith("node:fs"))).toBe(true);
    expect(forbidden.some((path) => path.startsWith("playwright-core"))).toBe(true);
  });
});
