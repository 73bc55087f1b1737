/**
 * The engine check (Deno, Bun): station-browser-use/playwright with local
 * Chromium; open, navigate, observe, close.
 */
import { expect } from "./agent-check.mjs";
import { runMain } from "./main.mjs";

await runMain(async (config) => {
  const started = performance.now();
  const { PlaywrightBrowserAdapter, createLocalProvider } = await import("station-browser-use/playwright");
  const adapter = new PlaywrightBrowserAdapter({ provider: createLocalProvider({ executablePath: config.chromium, tempRootDir: config.tempRootDir }) });
  try {
    const handle = await adapter.open();
    const firstResultMs = Math.round(performance.now() - started);
    const navigated = await adapter.execute(handle, { op: "navigate", url: config.pageUrl });
    expect(navigated.ok && navigated.title === "Fixture home", `navigate: ${JSON.stringify(navigated)}`);
    const { snapshot } = await adapter.execute(handle, { op: "accessibility" });
    expect(/link "Second page" \[e\d+\]/.test(snapshot), `no ref for the link in:\n${snapshot}`);
    await adapter.close(handle);
    return { firstToolResultMs: firstResultMs, checked: ["engine open", "navigate", "observe", "close"] };
  } finally {
    await adapter.shutdown();
  }
});
