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
