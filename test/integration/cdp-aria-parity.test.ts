import { describe, expect, it } from "vitest";
import type { BrowserAdapter, BrowserHandle } from "../../src/protocol/adapter.js";
import type { BrowserCommandInput } from "../../src/protocol/commands.js";
import { useBrowser } from "../helpers/browser.js";
import { useCdpBrowser } from "../helpers/cdp-engine.js";
import { withRefNumbersHidden } from "../helpers/snapshot-refs.js";

/**
 * The CDP engine's ARIA snapshot (its own script, src/cdp/adapter/aria-*.ts)
 * against Playwright's `ariaSnapshotJSON({ mode: "ai" })` under the Playwright
 * engine: the same fixture pages, in the same state, give byte-identical
 * snapshots in every option, once ref numbers are hidden (each engine numbers
 * its own session). targets.html has nested same-origin iframes (their
 * content and frame-qualified refs); hostile-top.html is shown with a
 * cross-site (out-of-process) iframe.
 */
const playwright = useBrowser();
const cdp = useCdpBrowser();

const pages = ["/aria-forms.html", "/form.html", "/index.html", "/second.html", "/visible-text.html", "/shadow-password.html", "/live-target.html", "/targets.html"];
const options: Array<Omit<Extract<BrowserCommandInput, { op: "accessibility" }>, "op">> = [
  {},
  { interactiveOnly: true },
  { depth: 2 },
  { maxBytes: 1024 },
  { boxes: true },
  { mode: "full" },
  { mode: "full", depth: 3 },
];

/** The fixture server of the engine `adapter` belongs to. */
const serverOf = (adapter: BrowserAdapter) => (adapter === cdp.adapter ? cdp.server : playwright.server);

/** Runs the same commands on a session of each engine. */
async function both(run: (adapter: BrowserAdapter, handle: BrowserHandle) => Promise<string>, handles: [BrowserHandle, BrowserHandle]): Promise<[string, string]> {
  return [await run(playwright.adapter, handles[0]), await run(cdp.adapter, handles[1])];
}

describe("agent and full forms: the CDP engine's snapshot is Playwright's (real Chromium, both engines)", () => {
  it.each(pages)("%s gives the same snapshot under both engines, in every option", async (path) => {
    const handles: [BrowserHandle, BrowserHandle] = [await playwright.open(), await cdp.open()];
    await both(async (adapter, handle) => (await adapter.execute(handle, { op: "navigate", url: serverOf(adapter).url(path) })).title, handles);
    for (const option of options) {
      const [expected, actual] = await both(async (adapter, handle) => withRefNumbersHidden((await adapter.execute(handle, { op: "accessibility", ...option })).snapshot), handles);
      expect(actual, `${path} ${JSON.stringify(option)}`).toBe(expected);
      expect(actual.length).toBeGreaterThan(0);
    }
    await playwright.adapter.close(handles[0]);
    await cdp.adapter.close(handles[1]);
  });

  it("gives the same snapshot of a page with a cross-site (out-of-process) iframe, a password filled in it, in every option", async () => {
    const handles: [BrowserHandle, BrowserHandle] = [await playwright.open(), await cdp.open()];
    await both(async (adapter, handle) => {
      const frame = serverOf(adapter).url("/frame-password.html").replace("127.0.0.1", "localhost");
      await adapter.execute(handle, { op: "navigate", url: serverOf(adapter).url(`/hostile-top.html?frame=${encodeURIComponent(frame)}`) });
      await adapter.execute(handle, { op: "fill", target: { by: "selector", selector: "#fpw", frame: ["#login"] }, value: "frame-secret" });
      return "";
    }, handles);
    for (const option of options) {
      const [expected, actual] = await both(async (adapter, handle) => withRefNumbersHidden((await adapter.execute(handle, { op: "accessibility", ...option })).snapshot), handles);
      expect(actual, JSON.stringify(option)).toBe(expected);
      if (!option.depth && !option.maxBytes) expect(actual).toMatch(/textbox "Frame password".*\(hidden\)/);
    }
    await playwright.adapter.close(handles[0]);
    await cdp.adapter.close(handles[1]);
  });

  it("shows the state a page is in: filled fields (password values hidden), checked boxes, a chosen option, an element removed", async () => {
    const handles: [BrowserHandle, BrowserHandle] = [await playwright.open(), await cdp.open()];
    const commands: BrowserCommandInput[] = [
      { op: "fill", target: { by: "label", value: "Email" }, value: "ada@example.com" },
      { op: "fill", target: { by: "label", value: "Password", exact: true }, value: "correct horse battery" },
      { op: "click", target: { by: "role", role: "checkbox", name: "I accept the terms" } },
      { op: "click", target: { by: "role", role: "radio", name: "Pro" } },
      { op: "evaluate", expression: "document.querySelector('#country').value = 'Peru'; document.querySelector('h2').remove(); true" },
    ];
    const snapshots = await both(async (adapter, handle) => {
      await adapter.execute(handle, { op: "navigate", url: serverOf(adapter).url("/aria-forms.html") });
      for (const command of commands) await adapter.execute(handle, command);
      return withRefNumbersHidden((await adapter.execute(handle, { op: "accessibility" })).snapshot);
    }, handles);
    // The field filled last has the focus: the full form marks it [active] under both engines.
    await both((adapter, handle) => adapter.execute(handle, { op: "fill", target: { by: "label", value: "Bio" }, value: "focused" }).then(() => ""), handles);
    const full = await both(async (adapter, handle) => withRefNumbersHidden((await adapter.execute(handle, { op: "accessibility", mode: "full" })).snapshot), handles);
    expect(full[1]).toBe(full[0]);
    expect(full[1]).toMatch(/textbox "Bio" \[active\]/);
    expect(snapshots[1]).toBe(snapshots[0]);
    expect(snapshots[1]).toMatch(/textbox "Email" value="ada@example.com"/);
    expect(snapshots[1]).toMatch(/textbox "Password" value="\(hidden\)"/);
    expect(snapshots[1]).toMatch(/combobox "Country" value="Peru"/);
    expect(snapshots[1]).not.toMatch(/correct horse|Lists|hunter2/);
    expect(snapshots[1]).not.toMatch(/checkbox "I accept the terms" \[checked\]/);
    expect(snapshots[1]).toMatch(/radio "Pro" \[checked\]/);
    await playwright.adapter.close(handles[0]);
    await cdp.adapter.close(handles[1]);
  });
});

describe("CDP engine: the snapshot runs in the isolated world", () => {
  it("page scripts neither see its refs nor change what it reads by overriding built-ins", async () => {
    const handle = await cdp.open();
    await cdp.adapter.execute(handle, { op: "navigate", url: cdp.server.url("/aria-forms.html") });
    const before = withRefNumbersHidden((await cdp.adapter.execute(handle, { op: "accessibility" })).snapshot);
    const seen = await cdp.adapter.execute(handle, { op: "evaluate", expression: "Object.keys(globalThis).filter((key) => key.startsWith('__station')).length" });
    expect(seen.value).toBe(0);
    await cdp.adapter.execute(handle, {
      op: "evaluate",
      expression:
        "Element.prototype.getAttribute = () => 'forged'; Object.defineProperty(HTMLInputElement.prototype, 'value', { get: () => 'forged-value' }); window.getComputedStyle = () => ({ display: 'none' }); Array.prototype.map = () => []; true",
    });
    const after = withRefNumbersHidden((await cdp.adapter.execute(handle, { op: "accessibility" })).snapshot);
    expect(after).toBe(before);
    expect(after).not.toContain("forged");
    expect(after).not.toContain("hunter2-secret");
    await cdp.adapter.close(handle);
  });
});
