/**
 * Size of the `/agent` entry (issue 11 "Fast and lean"): src/agent.ts bundled
 * with esbuild for a neutral platform, minified, ESM, with every dependency
 * included (today only valibot). Prints minified bytes, gzipped
 * bytes (node:zlib, level 9) and the inputs that weigh most in the output.
 *
 * Run: `npx tsx bench/bundle-size.ts` (`npm run bench:bundle`).
 * test/unit/agent-bundle-size.test.ts checks the same figures against the budget.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

/** Budget of the `/agent` entry, in bytes. */
export const agentBundleBudget = { minified: 60 * 1024, gzipped: 20 * 1024 };

export interface BundleSize {
  minified: number;
  gzipped: number;
  /** Output bytes per input file, largest first (paths relative to the repository). */
  inputs: Array<{ path: string; bytes: number }>;
  /** Output bytes per package (`node_modules/<name>`) or `src`, largest first. */
  packages: Array<{ name: string; bytes: number }>;
}

const root = fileURLToPath(new URL("..", import.meta.url));

export async function measureAgentBundle(entry = "src/agent.ts"): Promise<BundleSize> {
  const result = await build({
    entryPoints: [`${root}${entry}`],
    absWorkingDir: root,
    bundle: true,
    minify: true,
    platform: "neutral",
    mainFields: ["module", "main"],
    format: "esm",
    write: false,
    metafile: true,
    outfile: "agent.js",
    logLevel: "silent",
  });
  const output = result.outputFiles.find((file) => file.path.endsWith(".js"))!;
  const meta = Object.values(result.metafile.outputs).find((out) => out.entryPoint !== undefined)!;
  const inputs = Object.entries(meta.inputs)
    .map(([path, { bytesInOutput }]) => ({ path: path.replace(/^.*?(?=node_modules\/)/, ""), bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
  const byPackage = new Map<string, number>();
  for (const { path, bytes } of inputs) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? "src";
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytes);
  }
  const packages = [...byPackage].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
  return {
    minified: output.contents.byteLength,
    gzipped: gzipSync(output.contents, { level: 9 }).byteLength,
    inputs,
    packages,
  };
}

export function formatBundleSize(size: BundleSize, top = 15): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const lines = [
    `/agent bundle: ${kb(size.minified)} minified (${size.minified} B, budget ${kb(agentBundleBudget.minified)}), ` +
      `${kb(size.gzipped)} gzipped (${size.gzipped} B, budget ${kb(agentBundleBudget.gzipped)})`,
    "by package:",
    ...size.packages.map(({ name, bytes }) => `  ${kb(bytes).padStart(9)}  ${name}`),
    `top ${top} inputs:`,
    ...size.inputs.slice(0, top).map(({ path, bytes }) => `  ${kb(bytes).padStart(9)}  ${path}`),
  ];
  return lines.join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatBundleSize(await measureAgentBundle(), 30));
}
