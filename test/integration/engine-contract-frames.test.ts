import { beforeEach, describe, expect, it } from "vitest";
import type { BrowserAdapter, BrowserHandle } from "../../src/protocol/adapter.js";
import { useBrowser } from "../helpers/browser.js";
import { useCdpBrowser } from "../helpers/cdp-engine.js";
import type { EngineFixture } from "../helpers/engines.js";
import { startFixtureServer } from "../helpers/fixture-server.js";

/**
 * The engine contract for actions that cross an iframe's border (same-origin, and for drags cross-origin too),
 * run against both engines on a real local Chromium: drags into and out of
 * a frame (points in top-level viewport coordinates), and keys and clicks
 * with no target while the focus or the pointer is inside a frame.
 *
 * The CDP engine answers an action once the page has handled its input
 * events; a fallback answers without them after `inputSeenFallbackMs`. Here
 * that fallback is set far past the commands' budgets, so an input the
 * engine did not see handled (a watch that missed the frame) leaves the
 * result with the title from before the input instead of the one the frame
 * set on handling it (the CDP engine's title is read with that answer): no
 * timing is asserted.
 */
const engines: Array<[string, () => EngineFixture]> = [
  ["Playwright engine", () => useBrowser()],
  ["CDP engine", () => useCdpBrowser({ inputSeenFallbackMs: 600_000 })],
];

describe.each(engines)("%s: actions across iframes (real Chromium)", (_name, use) => {
  const browser = use();
  let handle: BrowserHandle;
  const run = <Command extends Parameters<BrowserAdapter["execute"]>[1]>(command: Command) => browser.adapter.execute(handle, command);
  const read = async (expression: string) => (await run({ op: "evaluate", expression })).value;
  const pane = "document.querySelector('#pane').contentDocument";
  /** The centre of an element of the pane, in top-level viewport coordinates (the pane's content box is inside a 7 px border and 11 px padding). */
  const centreInPane = async (selector: string) =>
    (await read(
      `(() => { const frame = document.querySelector('#pane').getBoundingClientRect(); const box = ${pane}.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return { x: Math.round(frame.left + 18 + box.left + box.width / 2), y: Math.round(frame.top + 18 + box.top + box.height / 2) }; })()`,
    )) as { x: number; y: number };
  const centre = async (selector: string) =>
    (await read(`(() => { const box = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return { x: Math.round(box.left + box.width / 2), y: Math.round(box.top + box.height / 2) }; })()`)) as { x: number; y: number };

  beforeEach(async () => {
    handle ??= await browser.open();
    await run({ op: "navigate", url: browser.server.url("/frame-drag.html") });
    await run({ op: "waitFor", target: { by: "selector", selector: "#frame-zone", frame: ["#pane"] } });
  });

  it("drags target to target into a frame, out of it, and within it", async () => {
    const into = await run({ op: "drag", from: { by: "text", value: "Drag from the top" }, to: { by: "selector", selector: "#frame-zone", frame: ["#pane"] } });
    // The result is the page's, not the frame's.
    expect(into).toMatchObject({ ok: true, title: "Frames", navigated: false });
    expect(await read(`${pane}.querySelector('#frame-log').textContent`)).toBe("dropped:from-top");
    await run({ op: "drag", from: { by: "text", value: "Drag from the pane", frame: ["#pane"] }, to: { by: "selector", selector: "#top-zone" } });
    expect(await read("document.querySelector('#top-log').textContent")).toBe("dropped:from-pane");
    await run({ op: "evaluate", expression: `${pane}.querySelector('#frame-log').textContent = ''` });
    await run({ op: "drag", from: { by: "selector", selector: "#frame-source", frame: ["#pane"] }, to: { by: "text", value: "Drop in the pane", frame: ["#pane"] } });
    expect(await read(`${pane}.querySelector('#frame-log').textContent`)).toBe("dropped:from-pane");
    // A drag the frame cancels is no drag: the button is released over the target instead (a watch of an earlier drag does not answer for it).
    await run({
      op: "evaluate",
      expression: `${pane}.querySelector('#frame-source').addEventListener('dragstart', (event) => event.preventDefault()), ${pane}.addEventListener('mouseup', (event) => { ${pane}.querySelector('#frame-log').textContent = 'released on ' + event.target.id; }), true`,
    });
    await run({ op: "drag", from: { by: "selector", selector: "#frame-source", frame: ["#pane"] }, to: { by: "selector", selector: "#frame-zone", frame: ["#pane"] }, timeoutMs: 2000 });
    expect(await read(`${pane}.querySelector('#frame-log').textContent`)).toBe("released on frame-zone");
  });

  it("drags within a cross-origin frame, out of process and in process; across its border Chromium drops nothing, as for Playwright itself", async () => {
    const other = await startFixtureServer();
    try {
      const panes = [
        ["out of process", browser.server.url("/frame-pane.html").replace("127.0.0.1", "localhost")],
        ["in process", other.url("/frame-pane.html")],
      ] as const;
      for (const [where, pane] of panes) {
        await run({ op: "navigate", url: browser.server.url(`/frame-drag.html?pane=${encodeURIComponent(pane)}`) });
        // The pane's log is read in the pane, which the top document cannot look into.
        const inPane = (value: string) => run({ op: "waitFor", target: { by: "text", value, frame: ["#pane"] }, timeoutMs: 5000 });
        await inPane("Drop in the pane");
        const within = await run({ op: "drag", from: { by: "selector", selector: "#frame-source", frame: ["#pane"] }, to: { by: "text", value: "Drop in the pane", frame: ["#pane"] } });
        expect(within, where).toMatchObject({ ok: true, title: "Frames", navigated: false });
        await inPane("dropped:from-pane");
        // Out of the frame: the drag runs, and Chromium keeps the cross-origin frame's drag out of the top document.
        expect(await run({ op: "drag", from: { by: "text", value: "Drag from the pane", frame: ["#pane"] }, to: { by: "selector", selector: "#top-zone" } }), where).toMatchObject({ ok: true, title: "Frames" });
        expect(await read("document.querySelector('#top-log').textContent"), where).toBe("");
      }
    } finally {
      await other.close();
    }
  });

  it("drags between viewport coordinates into a frame and out of it", async () => {
    await run({ op: "dragCoordinates", from: await centre("#top-source"), to: await centreInPane("#frame-zone"), steps: 4 });
    expect(await read(`${pane}.querySelector('#frame-log').textContent`)).toBe("dropped:from-top");
    await run({ op: "dragCoordinates", from: await centreInPane("#frame-source"), to: await centre("#top-zone"), steps: 4 });
    expect(await read("document.querySelector('#top-log').textContent")).toBe("dropped:from-pane");
  });

  it("presses and types with no target into the focused field of a frame, answered once the frame handled the keys", async () => {
    await run({ op: "focus", target: { by: "label", value: "Pane field", frame: ["#pane"] } });
    const pressed = await run({ op: "press", key: "a", timeoutMs: 1000 });
    const typed = await run({ op: "type", text: "bc", timeoutMs: 1000 });
    expect(await read(`${pane}.querySelector('#pane-field').value`)).toBe("abc");
    const clicked = await run({ op: "mouseClick", ...(await centreInPane("#pane-field")) });
    for (const result of [pressed, typed, clicked]) expect(result).toMatchObject({ ok: true, navigated: false });
    if (_name === "CDP engine") {
      // The pane's keyup and mouseup handlers retitle the page. The CDP engine reads the title with the input's answer (the
      // Playwright engine once per document): it carries the retitle only if the answer waited for the frame to handle the input.
      expect([pressed.title, typed.title, clicked.title]).toEqual(["keyup:a", "keyup:c", "mouseup in the pane"]);
    }
  });
});
