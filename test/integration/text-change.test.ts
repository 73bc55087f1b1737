import { describe, expect, it } from "vitest";
import { useBrowser } from "../helpers/browser.js";

/** The engine's change report: asked for with `textChange: true`, computed before and after the action. */
const browser = useBrowser();

const setUp = `(() => {
  document.body.innerHTML = '<p>Before</p><button id="go">Go</button><input id="name">';
  document.querySelector('#go').onclick = () => { document.querySelector('p').textContent = 'After'; document.body.append(Object.assign(document.createElement('p'), { textContent: 'Saved' })); };
  return null;
})()`;

describe("textChange (real Chromium)", () => {
  it("reports the lines an action added and removed, only when asked, without field values", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    await browser.adapter.execute(handle, { op: "evaluate", expression: setUp });
    const filled = await browser.adapter.execute(handle, { op: "fill", selector: "#name", value: "typed-value-xyz", textChange: true });
    // innerText never holds input values: typing changes nothing here.
    expect(filled.textChange).toEqual({ added: [], removed: [], addedCount: 0, removedCount: 0 });
    const plain = await browser.adapter.execute(handle, { op: "fill", selector: "#name", value: "again" });
    expect(plain.textChange).toBeUndefined();
    const clicked = await browser.adapter.execute(handle, { op: "click", selector: "#go", textChange: true });
    expect(clicked.textChange).toEqual({ added: ["After", "Saved"], removed: ["Before"], addedCount: 2, removedCount: 1 });
    await browser.adapter.close(handle);
  });
});

describe("textChange and a navigation that commits late (real Chromium)", () => {
  it("never reports the new document's text under the old page's outcome", async () => {
    const handle = await browser.open();
    const second = browser.server.url("/second.html");
    let caughtLate = 0;
    // The click schedules a navigation a little later; wherever it commits
    // (before the outcome is read, between the outcome and the text read, or
    // after both), the result must agree with the text it reports.
    for (const delayMs of [0, 0, 1, 2, 3, 5, 8, 12, 20, 30]) {
      await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
      await browser.adapter.execute(handle, {
        op: "evaluate",
        expression: `(() => { document.body.innerHTML = '<button id="go">Go</button>'; document.querySelector('#go').onclick = () => setTimeout(() => { location.href = ${JSON.stringify(second)}; }, ${delayMs}); return null; })()`,
      });
      const clicked = await browser.adapter.execute(handle, { op: "click", selector: "#go", textChange: true });
      if (clicked.textChange?.added.includes("Second")) {
        expect(clicked.navigated).toBe(true);
        expect(clicked.url).toBe(second);
        expect(clicked.title).toBe("Second page");
        caughtLate++;
      } else {
        expect(clicked.url === second).toBe(clicked.navigated);
      }
      // Let the scheduled navigation land before the next round starts another.
      await browser.adapter.execute(handle, { op: "waitFor", text: "Second" });
    }
    // Printed, not asserted: how many clicks read the new document's text.
    console.log(`late-navigation clicks that read the new document: ${caughtLate} of 10`);
    await browser.adapter.close(handle);
  });
});
