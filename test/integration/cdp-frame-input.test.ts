import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { startRelay, type Relay } from "../helpers/cdp-relay.js";
import { useCdpBrowser } from "../helpers/cdp-engine.js";

/**
 * A click into an out-of-process (cross-site) iframe that has just loaded:
 * until the browser has the frame in its hit testing, input at the frame's
 * point goes to the parent document. The engine then sent the press at once
 * and reported the click done while the frame never got it (the engine
 * contract's cross-origin console test lost it about once in twenty). Here a
 * relay between the engine and Chromium plays that window out exactly: it
 * sends the first two mouse events of the click to a point of the parent
 * page, as the browser's routing would, and lets the rest through.
 */
const browser = useCdpBrowser();
let relay: Relay;

beforeAll(async () => {
  relay = await startRelay(browser.chromium.wsUrl);
  browser.provider.cdpUrl = relay.url;
});
afterAll(async () => {
  relay.rewrite = undefined;
  await relay?.close();
});

describe("CDP engine: a click into a frame not yet in the browser's hit testing", () => {
  it("moves the pointer until the frame gets the move, then clicks there: the frame gets the click", async () => {
    const handle: BrowserHandle = await browser.open();
    const run = <C extends Parameters<typeof browser.adapter.execute>[1]>(command: C) => browser.adapter.execute(handle, command);
    const frame = browser.server.url("/frame-outer.html").replace("127.0.0.1", "localhost");
    await run({ op: "navigate", url: browser.server.url(`/hostile-top.html?frame=${encodeURIComponent(frame)}`) });
    await run({ op: "waitFor", target: { by: "role", role: "button", name: "Outer button", frame: ["#login"] } });
    let misrouted = 0;
    const sent: string[] = [];
    relay.rewrite = (command) => {
      if (command.method !== "Input.dispatchMouseEvent" || !command.params) return;
      sent.push(String(command.params.type));
      // Into the parent page's top-left corner, over its heading: not the iframe.
      if (misrouted < 2) {
        misrouted += 1;
        Object.assign(command.params, { x: 5, y: 5 });
      }
    };
    try {
      const clicked = await run({ op: "click", target: { by: "role", role: "button", name: "Outer button", frame: ["#login"] } });
      expect(clicked).toMatchObject({ ok: true, title: "Hostile", navigated: false });
    } finally {
      relay.rewrite = undefined;
    }
    // The frame's button ran: its log line is there (read in the frame, which the top page cannot read).
    await run({ op: "waitFor", target: { by: "text", value: "outer", exact: true, frame: ["#login"] }, timeoutMs: 2_000 });
    expect(misrouted).toBe(2);
    // Two moves went astray and a third reached the frame before the press was sent.
    expect(sent.slice(0, 3)).toEqual(["mouseMoved", "mouseMoved", "mouseMoved"]);
    expect(sent.filter((type) => type === "mousePressed")).toHaveLength(1);
    await browser.adapter.close(handle);
  });

  it("does the same for a hover: the frame's element gets the pointer", async () => {
    const handle: BrowserHandle = await browser.open();
    const run = <C extends Parameters<typeof browser.adapter.execute>[1]>(command: C) => browser.adapter.execute(handle, command);
    const frame = browser.server.url("/frame-hover.html").replace("127.0.0.1", "localhost");
    await run({ op: "navigate", url: browser.server.url(`/hostile-top.html?frame=${encodeURIComponent(frame)}`) });
    await run({ op: "waitFor", target: { by: "selector", selector: "#spot", frame: ["#login"] } });
    let misrouted = 0;
    relay.rewrite = (command) => {
      if (command.method !== "Input.dispatchMouseEvent" || !command.params || misrouted >= 2) return;
      misrouted += 1;
      Object.assign(command.params, { x: 5, y: 5 });
    };
    try {
      expect(await run({ op: "hover", target: { by: "selector", selector: "#spot", frame: ["#login"] } })).toMatchObject({ ok: true, title: "Hostile" });
    } finally {
      relay.rewrite = undefined;
    }
    // Lost, the move would leave the spot unentered until the next input.
    await run({ op: "waitFor", target: { by: "text", value: "hovered", exact: true, frame: ["#login"] }, timeoutMs: 2_000 });
    expect(misrouted).toBe(2);
    await browser.adapter.close(handle);
  });

  it("does the same for a check, whose click the engine verifies", async () => {
    const handle: BrowserHandle = await browser.open();
    const run = <C extends Parameters<typeof browser.adapter.execute>[1]>(command: C) => browser.adapter.execute(handle, command);
    const frame = browser.server.url("/form.html").replace("127.0.0.1", "localhost");
    await run({ op: "navigate", url: browser.server.url(`/hostile-top.html?frame=${encodeURIComponent(frame)}`) });
    await run({ op: "waitFor", target: { by: "selector", selector: "#remember", frame: ["#login"] } });
    let misrouted = 0;
    relay.rewrite = (command) => {
      if (command.method !== "Input.dispatchMouseEvent" || !command.params || misrouted >= 2) return;
      misrouted += 1;
      Object.assign(command.params, { x: 5, y: 5 });
    };
    try {
      // Lost, the click would leave the box unchecked, and the check would fail as not done.
      expect(await run({ op: "check", target: { by: "selector", selector: "#remember", frame: ["#login"] } })).toMatchObject({ ok: true, title: "Hostile" });
    } finally {
      relay.rewrite = undefined;
    }
    expect(misrouted).toBe(2);
    await browser.adapter.close(handle);
  });
});
