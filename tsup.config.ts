import { defineConfig } from "tsup";

/** One entry per subpath of the package's exports map, plus `cli` (the `station-browser-use` bin) and the refusals of the Node-side entries. */
export default defineConfig({
  entry: {
    index: "src/index.ts",
    playwright: "src/playwright.ts",
    agent: "src/agent.ts",
    // What `./agent` resolves to under the node condition: the same, posting over node:http.
    "agent-node": "src/agent-node.ts",
    worker: "src/worker/index.ts",
    browserbase: "src/browserbase.ts",
    steel: "src/steel.ts",
    cdp: "src/cdp.ts",
    openai: "src/openai.ts",
    anthropic: "src/anthropic.ts",
    "ai-sdk": "src/ai-sdk.ts",
    mcp: "src/mcp.ts",
    cli: "src/worker/cli.ts",
    // What `./playwright` and `./worker` resolve to under the workerd, edge-light and browser conditions.
    "refuse-playwright": "src/refusals/playwright.ts",
    "refuse-worker": "src/refusals/worker.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  splitting: true,
  treeshake: true,
  external: ["playwright-core", "ai"],
});
