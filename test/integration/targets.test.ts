import { beforeAll, describe, expect, it } from "vitest";
import { AmbiguousTargetError, NotFoundError } from "../../src/errors.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { useBrowser } from "../helpers/browser.js";

const browser = useBrowser();
let handle: BrowserHandle;

const log = async (selector = "#log") =>
  (await browser.adapter.execute(handle, { op: "evaluate", expression: `document.querySelector(${JSON.stringify(selector)}).textContent` }))
    .value;


describe("targets (real Chromium; refs and iframe chains on both engines: engine-contract.test.ts)", () => {
  beforeAll(async () => {
    handle = await browser.open();
  });

  const load = () => browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/targets.html") });

  it("finds elements by selector, role, text, label, placeholder and test id", async () => {
    await load();
    await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Save draft" } });
    expect(await log()).toBe("save-3");
    await browser.adapter.execute(handle, { op: "click", target: { by: "testId", value: "submit-order" } });
    expect(await log()).toBe("order");
    await browser.adapter.execute(handle, { op: "fill", target: { by: "label", value: "Email address" }, value: "a@b.c" });
    await browser.adapter.execute(handle, { op: "fill", target: { by: "placeholder", value: "you@example.com" }, value: "x@y.z" });
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: "document.querySelector('#email').value" })).value).toBe("x@y.z");
    await browser.adapter.execute(handle, { op: "fill", target: { by: "label", value: "Code", exact: true }, value: "42" });
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: "document.querySelector('#code').value" })).value).toBe("42");
    await browser.adapter.execute(handle, { op: "click", target: { by: "text", value: "Order", exact: true } });
    expect(await log()).toBe("order");
  });

  it("fails on ambiguity, saying how many matched, and honours nth", async () => {
    await load();
    const error = await browser.adapter
      .execute(handle, { op: "click", target: { by: "role", role: "button", name: "Save", exact: true } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AmbiguousTargetError);
    expect((error as AmbiguousTargetError).count).toBe(2);
    expect((error as Error).message).toMatch(/matched 2 elements/);
    expect(await log()).toBe("");

    await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Save", exact: true, nth: 1 } });
    expect(await log()).toBe("save-2");
    await expect(
      browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Save", exact: true, nth: 5 } }),
    ).rejects.toThrow(/matched 2 elements; nth 5 is out of range/);
  });

  it("reports a missing element clearly", async () => {
    await load();
    const error = await browser.adapter
      .execute(handle, { op: "click", target: { by: "role", role: "button", name: "Nope" }, timeoutMs: 200 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(/No element matches role button named "Nope"/);
  });

  it("pierces open shadow DOM", async () => {
    await load();
    await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Shadow action" } });
    expect(await log()).toBe("shadow");
    await browser.adapter.execute(handle, { op: "click", selector: "#shadow-button" });
    expect(await log()).toBe("shadow");
    await browser.adapter.execute(handle, { op: "fill", target: { by: "label", value: "Shadow field" }, value: "deep" });
  });
});
