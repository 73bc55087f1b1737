/**
 * Child process for the journal crash test: opens a manager on a state root,
 * runs one action to completion, then starts one that never finishes and
 * prints STARTED once its start is journaled. The parent SIGKILLs it there.
 */
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { BrowserSessionManager } from "../../src/stores/session-manager.js";

const [stateRootDir, origin] = process.argv.slice(2);
if (!stateRootDir || !origin) throw new Error("usage: journal-child <stateRootDir> <origin>");

const adapter = new PlaywrightBrowserAdapter();
const manager = new BrowserSessionManager(adapter, 1, { stateRootDir });
const { id } = await manager.open();
await manager.perform(id, "navigate", `${origin}/index.html`);
manager.events.on("action-start", (event) => {
  if (event.op === "evaluate") process.stdout.write(`STARTED ${event.seq}\n`);
});
await manager.execute(id, { op: "evaluate", expression: "fetch('/status?code=200&mark=crash').then(() => new Promise(() => {}))", timeoutMs: 120_000 });
