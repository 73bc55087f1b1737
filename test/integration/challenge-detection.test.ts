import { beforeAll, describe, expect, it } from "vitest";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { useBrowser } from "../helpers/browser.js";

const browser = useBrowser();
let handle: BrowserHandle;

/**
 * Challenge detection in action results (real Chromium, pages on 127.0.0.1):
 * read with the title once per document, or with the text after an action,
 * and reported only when it is not `none` or `passive`.
 */
describe("challenge detection after actions", () => {
  beforeAll(async () => {
    handle = await browser.open();
  });

  it("says nothing on ordinary pages", async () => {
    const result = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
    expect(result).not.toHaveProperty("challenge");
    const filled = await browser.adapter.execute(handle, { op: "fill", selector: "#user", value: "ada" });
    expect(filled).not.toHaveProperty("challenge");
  });

  it("reports a challenge a click led to", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/challenge-turns.html") });
    const result = await browser.adapter.execute(handle, { op: "click", selector: "#to-challenge" });
    expect(result.navigated).toBe(true);
    expect(result.challenge).toMatchObject({ state: "challenge", vendor: "cloudflare", evidence: ["status 403", "header cf-mitigated: challenge"] });
    // Still the challenge on the next action: it is reported while the page shows it.
    const again = await browser.adapter.execute(handle, { op: "press", key: "Tab" });
    expect(again.challenge).toMatchObject({ state: "challenge" });
  });

  it("reports a page a click turned into a challenge in place, from the text read after the action", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/challenge-turns.html") });
    const result = await browser.adapter.execute(handle, { op: "click", selector: "#become-challenge", textChange: true });
    expect(result.navigated).toBe(false);
    expect(result.challenge).toMatchObject({ state: "challenge", vendor: "cloudflare" });
    expect(result.challenge?.evidence).toContain("marker cf-challenge-form");
  });

  it("reports a 429 throttle page after a navigation", async () => {
    const result = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/throttled") });
    expect(result.challenge).toMatchObject({ state: "rate_limited", evidence: ["status 429"] });
  });

  it("reports a challenge as solved once a navigation led to a page without it, once", async () => {
    const shown = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/challenge?page=challenge-clears.html") });
    expect(shown.challenge).toMatchObject({ state: "challenge", vendor: "cloudflare" });
    expect(shown.challenge).not.toHaveProperty("solved");
    const cleared = await browser.adapter.execute(handle, { op: "click", selector: "#continue" });
    expect(cleared.navigated).toBe(true);
    expect(cleared.challenge).toMatchObject({ state: "none", solved: { state: "challenge", vendor: "cloudflare" } });
    expect(cleared.challenge?.evidence.at(-1)).toBe("the cloudflare challenge page navigated to one without it");
    const later = await browser.adapter.execute(handle, { op: "press", key: "Tab" });
    expect(later).not.toHaveProperty("challenge");
  });

  it("does not call a challenge solved when its markers go away without a navigation", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/challenge?page=challenge-clears.html") });
    await browser.adapter.execute(handle, { op: "evaluate", expression: "document.title = 'Welcome'; document.querySelector('#challenge-form').remove(); 1" });
    const read = await browser.adapter.execute(handle, { op: "challenge" });
    // The status and header of the document still say challenge: the site has not let the browser in.
    expect(read).toMatchObject({ state: "challenge" });
    expect(read).not.toHaveProperty("solved");
  });

  it("surfaces Browserbase's solver markers from the page console", async () => {
    const shown = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/challenge?page=challenge-clears.html") });
    expect(shown.challenge).toMatchObject({ state: "challenge", solver: { provider: "browserbase", state: "solving" } });
    expect(await browser.adapter.execute(handle, { op: "challenge" })).toMatchObject({ solver: { provider: "browserbase", state: "solving" } });
    const done = await browser.adapter.execute(handle, { op: "click", selector: "#solver-done" });
    expect(done.navigated).toBe(true);
    expect(done.challenge).toMatchObject({ state: "none", solved: { state: "challenge" }, solver: { provider: "browserbase", state: "finished" } });
  });
});
