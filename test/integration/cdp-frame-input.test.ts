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

type Run = <C extends Parameters<typeof browser.adapter.execute>[1]>(command: C) => ReturnType<typeof browser.adapter.execute<C>>;

/**
 * Opens `fixture` in the cross-site iframe `#login` of a page, waits for
 * `selector` there, then runs `act` while the relay sends the first two mouse
 * events elsewhere: to the parent page's top-left corner, over its heading,
 * not the iframe. Answers the mouse event types the engine sent meanwhile.
 */
async function withFirstTwoMisrouted(fixture: string, selector: string, act: (run: Run) => Promise<void>, check: (run: Run) => Promise<void>): Promise<string[]> {
  const handle: BrowserHandle = await browser.open();
  const run: Run = (command) => browser.adapter.execute(handle, command);
  const frame = browser.server.url(fixture).replace("127.0.0.1", "localhost");
  await run({ op: "navigate", url: browser.server.url(`/hostile-top.html?frame=${encodeURIComponent(frame)}`) });
  await run({ op: "waitFor", target: { by: "selector", selector, frame: ["#login"] } });
  let misrouted = 0;
  const sent: string[] = [];
  relay.rewrite = (command) => {
    if (command.method !== "Input.dispatchMouseEvent" || !command.params) return;
    sent.push(String(command.params.type));
    if (misrouted >= 2) return;
    misrouted += 1;
    Object.assign(command.params, { x: 5, y: 5 });
  };
  try {
    await act(run);
  } finally {
    relay.rewrite = undefined;
  }
  await check(run);
  expect(misrouted).toBe(2);
  await browser.adapter.close(handle);
  return sent;
}

describe("CDP engine: input into a frame not yet in the browser's hit testing", () => {
  it("moves the pointer until the frame gets the move, then clicks there: the frame gets the click", async () => {
    const sent = await withFirstTwoMisrouted(
      "/frame-outer.html",
      "button",
      async (run) => {
        expect(await run({ op: "click", target: { by: "role", role: "button", name: "Outer button", frame: ["#login"] } })).toMatchObject({ ok: true, title: "Hostile", navigated: false });
      },
      // The frame's button ran: its log line is there (read in the frame, which the top page cannot read).
      async (run) => void (await run({ op: "waitFor", target: { by: "text", value: "outer", exact: true, frame: ["#login"] }, timeoutMs: 2_000 })),
    );
    // Two moves went astray and a third reached the frame before the press was sent.
    expect(sent.slice(0, 3)).toEqual(["mouseMoved", "mouseMoved", "mouseMoved"]);
    expect(sent.filter((type) => type === "mousePressed")).toHaveLength(1);
  });

  it("does the same for a hover: the frame's element gets the pointer", async () => {
    await withFirstTwoMisrouted(
      "/frame-hover.html",
      "#spot",
      async (run) => {
        expect(await run({ op: "hover", target: { by: "selector", selector: "#spot", frame: ["#login"] } })).toMatchObject({ ok: true, title: "Hostile" });
      },
      // Lost, the move would leave the spot unentered until the next input.
      async (run) => void (await run({ op: "waitFor", target: { by: "text", value: "hovered", exact: true, frame: ["#login"] }, timeoutMs: 2_000 })),
    );
  });

  it("does the same for a check, whose click the engine verifies", async () => {
    await withFirstTwoMisrouted(
      "/form.html",
      "#remember",
      // Lost, the click would leave the box unchecked, and the check would fail as not done.
      async (run) => {
        expect(await run({ op: "check", target: { by: "selector", selector: "#remember", frame: ["#login"] } })).toMatchObject({ ok: true, title: "Hostile" });
      },
      async () => undefined,
    );
  });
});
