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
/** Model and agent SDKs: the neutral code imports none at run time (types only). */
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

async function bundle(entry: string, bundled?: RegExp): Promise<{ forbidden: string[]; sdks: string[]; code: string }> {
  const forbidden: string[] = [];
  const sdks: string[] = [];
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../../${entry}`, import.meta.url))],
    bundle: true,
    platform: "neutral",
    format: "esm",
    write: false,
    mainFields: ["module", "main"],
    plugins: [watchImports(forbidden, sdks, bundled)],
    logLevel: "silent",
  });
  return { forbidden, sdks: [...new Set(sdks)], code: result.outputFiles[0]!.text };
}

describe("runtime fence", () => {
  for (const entry of neutralEntries) {
    it(`${entry} bundles for a neutral platform without Node, Playwright or a model SDK`, async () => {
      const { forbidden, sdks, code } = await bundle(entry);
      expect(forbidden).toEqual([]);
      expect(sdks).toEqual([]);
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

  it("the AI SDK entry imports only `ai` (its optional peer) at run time", async () => {
    const { forbidden, sdks } = await bundle("src/ai-sdk.ts");
    expect(forbidden).toEqual([]);
    expect(sdks).toEqual(["ai"]);
  });

  it("the MCP entry (createMcpServer) bundles with the MCP SDK for a neutral platform", async () => {
    const { forbidden, sdks } = await bundle("src/mcp.ts", /^@modelcontextprotocol\/sdk\//);
    expect(forbidden).toEqual([]);
    expect(new Set(sdks)).toEqual(new Set(["@modelcontextprotocol/sdk/server/index.js", "@modelcontextprotocol/sdk/types.js"]));
  });

  it("catches a Node import when one is present (the check itself works)", async () => {
    const { forbidden } = await bundle("src/providers/local/find-chromium.ts");
    expect(forbidden.some((path) => path.startsWith("node:fs"))).toBe(true);
    expect(forbidden.some((path) => path.startsWith("playwright-core"))).toBe(true);
  });
});
