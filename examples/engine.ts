/**
 * The engine alone: the README's first snippet, as one script. Local
 * Chromium opens a page this script serves itself on 127.0.0.1 (`page`),
 * reads the agent-form accessibility snapshot and clicks its first ref.
 *
 *   npm run example:engine
 */
import { PlaywrightBrowserAdapter } from "../src/playwright.js";
import { serveExamplePage } from "./support/example-page.js";

const page = await serveExamplePage();
const adapter = new PlaywrightBrowserAdapter(); // local Chromium
try {
  const handle = await adapter.open();            // or { profileId: "alice" } with createLocalProvider({ profileRootDir })
  await adapter.execute(handle, { op: "navigate", url: page.url });
  const { snapshot } = await adapter.execute(handle, { op: "accessibility" }); // compact ARIA with refs: link "More information" [e1]
  const ref = /\[(e\d+)\]/.exec(snapshot)![1]!;
  const clicked = await adapter.execute(handle, { op: "click", target: { by: "ref", ref } });
  console.log(`${snapshot}\nclick ${ref} → ${clicked.ok ? "ok" : "failed"}, title "${clicked.title}"`);
} finally {
  await adapter.shutdown(); // ends its Chromium: the script can exit
  await page.close();
}
