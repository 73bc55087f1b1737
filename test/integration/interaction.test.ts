import { beforeEach, describe, expect, it } from "vitest";
import { ValidationError } from "../../src/errors.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { useBrowser } from "../helpers/browser.js";
import { listenedTo } from "../helpers/signal-watch.js";

const browser = useBrowser();
let handle: BrowserHandle;

const read = async (expression: string) => (await browser.adapter.execute(handle, { op: "evaluate", expression })).value;
const text = (selector: string) => read(`document.querySelector(${JSON.stringify(selector)}).textContent`);

describe("interaction (real Chromium)", () => {
  beforeEach(async () => {
    handle ??= await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
  });

  it("fills, types, presses and submits a form", async () => {
    await browser.adapter.execute(handle, { op: "fill", target: { by: "label", value: "User name" }, value: "ada" });
    await browser.adapter.execute(handle, { op: "type", selector: "#user", text: "!x", delayMs: 5 });
    expect(await read("document.querySelector('#user').value")).toBe("ada!x");
    expect(await text("#keys")).toBe("!,x,");
    await browser.adapter.execute(handle, { op: "press", selector: "#user", key: "Backspace" });
    expect(await read("document.querySelector('#user').value")).toBe("ada!");
    await browser.adapter.execute(handle, { op: "press", key: "Enter" });
    expect(await text("#submitted")).toBe("submitted:ada!");
    // Typing without a target goes to the focused element.
    await browser.adapter.execute(handle, { op: "focus", selector: "#notes" });
    expect(await text("#focus-log")).toBe("notes focused");
    await browser.adapter.execute(handle, { op: "type", text: "free text" });
    expect(await read("document.querySelector('#notes').value")).toBe("free text");
  });

  it("names an unknown key as a validation error", async () => {
    const error = await browser.adapter.execute(handle, { op: "press", key: "Nonsense" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("command.key");
  });

  it("selects options by value or label, single and multiple", async () => {
    const single = await browser.adapter.execute(handle, { op: "select", target: { by: "label", value: "Colour" }, value: "Blue" });
    expect(single.selected).toEqual(["b"]);
    await browser.adapter.execute(handle, { op: "select", selector: "#colour", value: "g" });
    expect(await read("document.querySelector('#colour').value")).toBe("g");
    const multiple = await browser.adapter.execute(handle, { op: "select", selector: "#toppings", value: ["Cheese", "Olives"] });
    expect(multiple.selected).toEqual(["Cheese", "Olives"]);
  });

  it("checks and unchecks boxes and radios", async () => {
    await browser.adapter.execute(handle, { op: "check", target: { by: "label", value: "Remember me" } });
    expect(await read("document.querySelector('#remember').checked")).toBe(true);
    await browser.adapter.execute(handle, { op: "uncheck", selector: "#remember" });
    expect(await read("document.querySelector('#remember').checked")).toBe(false);
    await browser.adapter.execute(handle, { op: "check", target: { by: "role", role: "radio", name: "Pro" } });
    expect(await read("document.querySelector('#plan-pro').checked")).toBe(true);
  });

  it("hovers, scrolls the page and an element", async () => {
    await browser.adapter.execute(handle, { op: "hover", selector: "#hover-target" });
    expect(await read("getComputedStyle(document.querySelector('#hover-tip')).display")).toBe("block");
    await browser.adapter.execute(handle, { op: "scroll", deltaY: 400 });
    await expect.poll(() => read("Math.round(scrollY)")).toBeGreaterThan(0);
    await browser.adapter.execute(handle, { op: "scroll", selector: "#scroller", deltaY: 250 });
    expect(await read("document.querySelector('#scroller').scrollTop")).toBe(250);
    await browser.adapter.execute(handle, { op: "scroll", selector: "#pad" });
    await expect(browser.adapter.execute(handle, { op: "scroll" })).rejects.toBeInstanceOf(ValidationError);
  });

  it("waits for targets, text and load states", async () => {
    // The text arrives once the waitFor is under way (the adapter runs the two commands side by side).
    const controller = new AbortController();
    const underWay = listenedTo(controller.signal);
    const waited = browser.adapter.execute(handle, { op: "waitFor", text: "Arrived late", timeoutMs: 5000 }, controller.signal);
    await underWay;
    expect(await read("document.querySelector('#late')")).toBeNull();
    await browser.adapter.execute(handle, {
      op: "evaluate",
      expression: "(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'Arrived late'; document.body.append(p); return true; })()",
    });
    await waited;
    await browser.adapter.execute(handle, { op: "waitFor", selector: "#late" });
    await browser.adapter.execute(handle, { op: "waitFor", loadState: "load" });
    await browser.adapter.execute(handle, { op: "waitFor", selector: "#never-there", state: "detached", timeoutMs: 5000 });
    await expect(browser.adapter.execute(handle, { op: "waitFor", text: "Never shows", timeoutMs: 150 })).rejects.toThrow(/waitFor/);
  });

  it("clicks and moves the mouse at viewport coordinates", async () => {
    const box = (await read("(() => { const r = document.querySelector('#pad').getBoundingClientRect(); return { x: r.x, y: r.y }; })()")) as {
      x: number;
      y: number;
    };
    await browser.adapter.execute(handle, { op: "mouseMove", x: box.x + 10, y: box.y + 10, steps: 3 });
    await browser.adapter.execute(handle, { op: "mouseClick", x: box.x + 20, y: box.y + 30 });
    expect(await text("#pad-log")).toBe("down@20,30;up@20,30;click@20,30;");
    const outside = await browser.adapter.execute(handle, { op: "mouseClick", x: 5000, y: 10 }).catch((caught: unknown) => caught);
    expect(outside).toBeInstanceOf(ValidationError);
    expect((outside as Error).message).toMatch(/outside the 1280×800 viewport/);
  });

  it("drags target to target, and between coordinates in bounded steps", async () => {
    await browser.adapter.execute(handle, { op: "drag", from: { by: "text", value: "Drag me" }, to: { by: "selector", selector: "#drop-zone" } });
    expect(await text("#drop-log")).toBe("dropped:payload");
    const box = (await read("(() => { const r = document.querySelector('#pad').getBoundingClientRect(); return { x: r.x, y: r.y }; })()")) as {
      x: number;
      y: number;
    };
    await browser.adapter.execute(handle, { op: "evaluate", expression: "document.querySelector('#pad-log').textContent = '', true" });
    await browser.adapter.execute(handle, {
      op: "dragCoordinates",
      from: { x: box.x + 5, y: box.y + 5 },
      to: { x: box.x + 100, y: box.y + 50 },
      steps: 5,
    });
    expect(await text("#pad-log")).toBe("down@5,5;up@100,50;click@100,50;");
  });
});
