/**
 * The actions the action benchmarks (bench/actions.ts, bench/cdp.ts) time on
 * their local form, each as raw playwright-core does it and as the engine's
 * command, so both benchmarks compare the same thing.
 */
import type { Page } from "playwright-core";
import type { BrowserCommandInput } from "../src/protocol/commands.js";

/** The local form both benchmarks (and bench/wire-phases.ts) act on. */
export const formPage = `<!doctype html><title>Bench form</title>
<form onsubmit="event.preventDefault(); document.querySelector('#out').textContent = 'sent ' + (++window.sent)">
  <label>Name <input id="name"></label>
  <button type="button" id="inc" onclick="document.querySelector('#count').textContent = String(++window.clicks)">Add</button>
  <p id="count">0</p><p id="out"></p>
</form><script>window.clicks = 0; window.sent = 0;</script>`;

export type FormAction = "navigate" | "observe" | "text" | "fill" | "click" | "press";

/** What raw Playwright does for `action` (`observe` is its AI snapshot, `text` the body's inner text). */
export async function rawFormAction(page: Page, action: FormAction, round: number, url: string): Promise<void> {
  if (action === "navigate") await page.goto(url);
  else if (action === "observe") await page.ariaSnapshot({ mode: "ai" });
  else if (action === "text") await page.innerText("body");
  else if (action === "fill") await page.locator("#name").fill(`value ${round}`);
  else if (action === "click") await page.locator("#inc").click();
  else await page.locator("#name").press("Enter");
}

/** The engine's command for `action`, on default options. */
export function formCommand(action: FormAction, round: number, url: string): BrowserCommandInput {
  switch (action) {
    case "navigate":
      return { op: "navigate", url };
    case "observe":
      return { op: "accessibility" };
    case "text":
      return { op: "text" };
    case "fill":
      return { op: "fill", selector: "#name", value: `value ${round}` };
    case "click":
      return { op: "click", selector: "#inc" };
    case "press":
      return { op: "press", target: { by: "selector", selector: "#name" }, key: "Enter" };
  }
}
