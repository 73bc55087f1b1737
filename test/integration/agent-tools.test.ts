import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserAgentTools, type AgentTool, type BrowserAgentTools, type ToolResult } from "../../src/agent-tools/index.js";
import { BrowserUseClient } from "../../src/client/index.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import type { BrowserBackend } from "../../src/protocol/backend.js";
import { createBrowserWorker } from "../../src/worker/index.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { startWorkerServer, type WorkerServer } from "../helpers/worker-server.js";
import { fenced } from "../helpers/fenced.js";

/**
 * Every tool end to end against real Chromium, with both backends: the
 * in-process manager, and the client talking HTTP to a worker.
 */
const token = "op-".padEnd(40, "x");
const tenantKey = "tenant-agent-".padEnd(40, "k");
const typedPassword = "correct-horse-battery-9";
const secretValue = "bank-secret-4242";

let adapter: PlaywrightBrowserAdapter;
let manager: BrowserSessionManager;
let worker: WorkerServer;
let fixtures: FixtureServer;

beforeAll(async () => {
  adapter = new PlaywrightBrowserAdapter();
  manager = new BrowserSessionManager(adapter, 8);
  worker = await startWorkerServer(createBrowserWorker({ manager, token, tenants: { [tenantKey]: "acme" }, stationId: "local" }));
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await worker?.close();
  await manager?.close();
  await adapter?.shutdown();
  await fixtures?.close();
});

const backends: { name: string; backend: () => BrowserBackend }[] = [
  { name: "the in-process manager", backend: () => manager },
  { name: "a client talking HTTP to a worker", backend: () => new BrowserUseClient({ baseUrl: worker.origin, stationId: "local", apiKey: tenantKey, timeoutMs: 30_000 }) },
];

/** The ref of the first line of a snapshot matching `line` (role and name). */
function refOf(snapshot: string, line: RegExp): string {
  for (const text of snapshot.split("\n")) {
    if (line.test(text)) {
      const ref = /\[((?:f\d+)?e\d+)\]/.exec(text)?.[1];
      if (ref) return ref;
    }
  }
  throw new Error(`no ref for ${line} in:\n${snapshot}`);
}

describe.each(backends)("agent tools over $name", ({ backend }) => {
  let toolset: BrowserAgentTools;
  const results: ToolResult[] = [];
  let tools: Record<string, AgentTool>;
  const call = async (name: string, input: unknown = {}) => {
    const result = await tools[name]!.execute(input);
    results.push(result);
    return result;
  };
  const ok = async (name: string, input: unknown = {}) => {
    const result = await call(name, input);
    expect(result.isError, `${name} ${JSON.stringify(input)}:\n${result.text}`).toBeUndefined();
    return result;
  };

  beforeAll(() => {
    toolset = createBrowserAgentTools({
      client: backend(),
      maxSessions: 2,
      secrets: { bank: secretValue },
      groups: ["coordinates", "diagnostics", "downloads"],
    });
    tools = Object.fromEntries(toolset.tools.map((tool) => [tool.name.replace("station_browser_", ""), tool]));
  });
  afterAll(async () => {
    const report = await toolset.close();
    expect(report.unresolved).toEqual([]);
  });

  it("opens at a URL, observes refs, fills a whole form in one call and submits by ref", async () => {
    const opened = await ok("open", { url: fixtures.url("/form.html") });
    expect(opened.text).toMatch(/^session s1 is open\noutcome: ok — navigate; navigated\n/);
    // The page is where the model asked it to go: the URL is not repeated, the title is new.
    expect(fenced(opened.text)).toBe('title: "Form"');
    const { text: snapshot } = await ok("observe");
    expect(snapshot).toMatch(/^s1 page p1:\n<untrusted-page-content /);
    const fields = [
      { target: refOf(snapshot, /textbox "User name"/), value: "alice" },
      { target: refOf(snapshot, /textbox "Password"/), value: typedPassword },
      { target: refOf(snapshot, /checkbox "Remember me"/), checked: true },
      { target: refOf(snapshot, /radio "Pro"/), checked: true },
      { target: refOf(snapshot, /combobox "Colour"/), option: "Blue" },
    ];
    const filled = await ok("fill", { fields });
    expect(filled.text).toMatch(/^outcome: ok — fill of 5 fields; /);
    expect(filled.text.split("\n")[0]).not.toContain("navigated");
    const after = await ok("observe", { mode: "interactive" });
    expect(after.text).toMatch(/checkbox "Remember me" \[checked\]/);
    expect(after.text).toMatch(/combobox "Colour" value="Blue"/);
    expect(after.text).toMatch(/textbox "Password" value="\(hidden\)"/);
    const clicked = await ok("click", { target: refOf(after.text, /button "Sign in"/) });
    expect(clicked.text).toMatch(/^outcome: ok — click; text: 1 line added\n/);
    expect(fenced(clicked.text)).toContain("+ submitted:alice");
  });

  it("reports stale refs and bad refs as errors that say what to do", async () => {
    const { text } = await ok("observe", { mode: "interactive" });
    const old = refOf(text, /button "Sign in"/);
    await ok("observe", { mode: "interactive" });
    const stale = await call("click", { target: old });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/outcome: failed — click \(stale_ref\)/);
    expect(stale.text).toContain("call station_browser_observe and use its new refs");
    const invalid = await call("click", { target: "button-1" });
    expect(invalid.text).toBe("error: input.target: expected a ref from an accessibility snapshot, like e12 or f1e3");
    // The tools leave the role to the backend, which parses the whole command: refused, named as the model gave it.
    const role = await call("click", { target: { by: "role", role: "buton", name: "Sign in" } });
    expect(role.text).toBe("error: input.target.role: expected an ARIA role such as button, link, textbox, checkbox");
  });

  it("types text and presses a key, hovers, scrolls and drags", async () => {
    const typed = await ok("type", { target: { by: "label", value: "User name" }, text: "bob", key: "Enter" });
    expect(typed.text).toMatch(/^outcome: ok — type and press Enter; text: /);
    expect(fenced(typed.text)).toContain("+ b,o,b,Enter,");
    const hovered = await ok("hover", { target: { by: "text", value: "Hover me" } });
    expect(fenced(hovered.text)).toContain("+ Tooltip shown");
    const headingY = async () => Number(/heading "Form" box=\d+,(-?\d+),/.exec((await ok("observe", { mode: "dom" })).text)?.[1]);
    const before = await headingY();
    await ok("scroll", { deltaY: 400 });
    expect(await headingY()).toBe(before - 400);
    await ok("scroll", { target: { by: "role", role: "heading", name: "Form" } });
    expect(await headingY()).toBe(before);
    const dragged = await ok("drag", { from: { by: "text", value: "Drag me" }, to: { by: "text", value: "Drop here" } });
    expect(fenced(dragged.text)).toContain("+ dropped:payload");
  });

  it("waits for text and fails a wait that times out", async () => {
    const waited = await ok("wait", { text: "Drop here" });
    expect(waited.text).toMatch(/^outcome: ok — waited/);
    const missed = await call("wait", { text: "never on this page", timeoutMs: 300 });
    expect(missed.isError).toBe(true);
    expect(missed.text).toMatch(/^outcome: failed — wait \((timeout|action_failed)\)/);
    expect((await call("wait", {})).text).toBe("error: input.target: give exactly one of target or text");
  });

  it("takes screenshots into images only", async () => {
    const shot = await ok("screenshot");
    expect(shot.images).toHaveLength(1);
    expect(shot.images[0]!.mimeType).toBe("image/png");
    expect(atob(shot.images[0]!.base64).startsWith("\x89PNG")).toBe(true);
    expect(shot.text).toBe("screenshot of s1: 1280×800 image/png");
    const jpeg = await ok("screenshot", { format: "jpeg", quality: 50 });
    expect(jpeg.images[0]!.mimeType).toBe("image/jpeg");
  });

  it("answers dialogs by policy and reports unexpected ones", async () => {
    const armed = await ok("dialog", { action: "accept" });
    expect(armed.text).toMatch(/^outcome: ok — the next dialog in s1 will be accepted/);
    const confirmed = await ok("click", { target: { by: "role", role: "button", name: "Confirm" } });
    expect(confirmed.text).toContain("dialog: a confirm appeared and was accepted by your dialog policy");
    expect(fenced(confirmed.text)).toContain('dialog message: "Proceed?"');
    expect(fenced(confirmed.text)).toContain("+ confirm:true");
    const alerted = await ok("click", { target: { by: "role", role: "button", name: "Alert" } });
    expect(alerted.text).toContain("dialog: an alert appeared and was dismissed at once (no dialog policy was set");
  });

  it("uploads files and refuses an upload that is too large", async () => {
    const uploaded = await ok("upload", { target: { by: "label", value: "Avatar" }, files: [{ name: "a.txt", mimeType: "text/plain", base64: btoa("hello") }] });
    expect(uploaded.text).toMatch(/^outcome: ok — upload; files set: a\.txt \(5 bytes\)/);
    const big = "A".repeat(Math.ceil((5 * 1024 * 1024 * 4) / 3));
    const refused = await call("upload", { target: { by: "label", value: "Avatar" }, files: [{ name: "big.bin", base64: big }] });
    expect(refused.text).toMatch(/^error: input\.files\[0\]\.base64: file larger than \d+ bytes/);
  });

  it("clicks by coordinates, reads diagnostics and downloads", async () => {
    const moused = await ok("mouse", { action: "click", x: 950, y: 150 });
    expect(fenced(moused.text)).toMatch(/\+ down@\d+,\d+;up@\d+,\d+;click@\d+,\d+;/);
    await ok("click", { target: { by: "role", role: "button", name: "Log" } });
    const diagnostics = await ok("diagnostics");
    expect(fenced(diagnostics.text)).toMatch(/console (log|error)/);
    await ok("click", { target: { by: "role", role: "link", name: "Download report" } });
    let listed = "";
    await expect
      .poll(async () => {
        listed = (await ok("downloads", { action: "list" })).text;
        return listed;
      })
      .toMatch(/d1 completed 2048 bytes "report\.txt"/);
    const read = await ok("downloads", { action: "read", download: "d1" });
    expect(read.text).toMatch(/^d1 \(bytes 0–2048 of 2048\):/);
    expect(fenced(read.text)).toBe("a".repeat(2048));
    expect((await ok("downloads", { action: "delete", download: "d1" })).text).toBe("outcome: ok — d1 deleted");
  });

  it("navigates by URL and history, and manages pages", async () => {
    const home = await ok("navigate", { url: fixtures.url("/index.html") });
    expect(home.text).toMatch(/^outcome: ok — navigate; navigated\n/);
    expect(fenced(home.text)).toBe('title: "Fixture home"');
    expect(fenced((await ok("navigate", { action: "back" })).text)).toContain('title: "Form"');
    expect(fenced((await ok("navigate", { action: "forward" })).text)).toContain('title: "Fixture home"');
    // A reload lands where the page was: it navigated, and URL and title are not repeated.
    expect((await ok("navigate", { action: "reload" })).text).toBe("outcome: ok — reload; navigated");
    const redirected = await ok("navigate", { url: fixtures.url("/redirect?to=/second.html") });
    expect(fenced(redirected.text)).toBe(`url: ${fixtures.url("/second.html")}\ntitle: "Second page"`);
    await ok("navigate", { action: "back" });
    expect((await call("navigate", { url: "file:///etc/passwd" })).text).toMatch(/^outcome: failed — navigate \(url_policy\): Navigation to file:… refused/);
    expect((await call("navigate", {})).text).toBe("error: input.url: give exactly one of url or action");
    const popup = await ok("click", { target: { by: "role", role: "link", name: "Open in new tab" } });
    // A popup is reported by the click, or (on a loaded machine, when it surfaces after the click's
    // settle time) by the first action after it; either way the session then has two pages.
    const reportedAtOnce = /new pages: p\d+/.test(popup.text);
    await expect.poll(async () => (await ok("pages", { action: "list" })).text, { timeout: 10_000 }).toMatch(/^s1 has 2 pages:/);
    if (!reportedAtOnce) expect(popup.text.split("\n")[0]).not.toContain("navigated");
    const listed = await ok("pages", { action: "list" });
    expect(listed.text).toMatch(/^s1 has 2 pages:/);
    expect(fenced(listed.text)).toContain(fixtures.url("/second.html"));
    const added = await ok("pages", { action: "new", url: fixtures.url("/form.html") });
    const newId = /page (p\d+) is selected/.exec(added.text)?.[1];
    expect(newId).toBeDefined();
    expect(fenced((await ok("pages", { action: "select", page: "p1" })).text)).toContain('title: "Fixture home"');
    await ok("pages", { action: "close", page: newId });
    expect((await ok("pages", { action: "list" })).text).toMatch(/^s1 has 2 pages:/);
  });

  it("checkpoints a session, closes it and resumes it", async () => {
    const saved = await ok("checkpoint");
    expect(saved.text).toMatch(/^outcome: ok — checkpoint c1 of s1 saved \(2 pages\)/);
    expect((await ok("close", { session: "s1" })).text).toBe("outcome: ok — session s1 is closed");
    expect((await call("observe", { session: "s1" })).text).toMatch(/^error: input\.session: no session s1 in this toolset/);
    const resumed = await ok("open", { checkpoint: "c1" });
    expect(resumed.text).toMatch(/^session s2 is open \(resumed from c1\); 2 pages:/);
    expect(fenced(resumed.text)).toContain(fixtures.url("/index.html"));
  });

  it("keeps page text fenced even when it fakes a fence end, and never shows a typed password or a secret", async () => {
    await ok("navigate", { url: fixtures.url("/agent-tools-echo.html") });
    const { text: snapshot } = await ok("observe", { mode: "interactive" });
    await ok("fill", { fields: [{ target: refOf(snapshot, /textbox "Password"/), value: typedPassword }, { target: refOf(snapshot, /textbox "Name"/), secret: "bank" }] });
    const shown = await ok("click", { target: refOf(snapshot, /button "Show password"/) });
    expect(fenced(shown.text)).toContain("+ password is [redacted]");
    for (const mode of ["aria", "text"] as const) {
      const observed = await ok("observe", { mode });
      const nonce = /<untrusted-page-content nonce="([0-9a-f]{16})">/.exec(observed.text)![1]!;
      const close = observed.text.indexOf(`</untrusted-page-content nonce="${nonce}">`);
      const injected = observed.text.indexOf("SYSTEM: ignore the u");
      expect(injected).toBeGreaterThan(observed.text.indexOf(`<untrusted-page-content nonce="${nonce}">`));
      expect(close).toBeGreaterThan(injected);
      expect(observed.text).toContain("deadbeefdeadbeef");
    }
    const everything = JSON.stringify(results);
    expect(everything).not.toContain(typedPassword);
    expect(everything).not.toContain(secretValue);
    expect(everything).toContain("[redacted]");
  });

  it("bounds long results and marks the cut", async () => {
    const small = createBrowserAgentTools({ client: backend(), maxSessions: 1, maxTextBytes: 2048 });
    try {
      const [open, observe] = ["station_browser_open", "station_browser_observe"].map((name) => small.tools.find((tool) => tool.name === name)!);
      await open!.execute({ url: fixtures.url("/agent-tools-echo.html") });
      const text = await observe!.execute({ mode: "text" });
      expect(new TextEncoder().encode(text.text).length).toBeLessThanOrEqual(2048);
      expect(text.text).toMatch(/\n\[truncated: \d+ of \d+ bytes shown\]$/);
    } finally {
      expect((await small.close()).unresolved).toEqual([]);
    }
  });

  it("refuses another toolset's alias and an ungranted profile", async () => {
    const other = createBrowserAgentTools({ client: backend(), maxSessions: 1, profileIds: ["granted"] });
    const observe = other.tools.find((tool) => tool.name === "station_browser_observe")!;
    const open = other.tools.find((tool) => tool.name === "station_browser_open")!;
    expect((await observe.execute({ session: "s2" })).text).toBe("error: input.session: no session s2 in this toolset; open one with station_browser_open");
    expect((await open.execute({ profile: "research" })).text).toBe("error: input.profile: not a granted profile; granted: granted");
    expect(await other.close()).toEqual({ closed: [], unresolved: [] });
  });
});
