import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * `npm run test:agent`: the optional real-model test. Kept out of `npm test`
 * (its files end in `.agent.ts`, not `.test.ts`): it spends a provider's tokens
 * and depends on a model, so it runs only on demand and only with a key.
 */
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["test/agent/**/*.agent.ts"],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 1,
  },
});
