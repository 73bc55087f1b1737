import { describe, expect, it } from "vitest";
import { createBrowserAgentTools, type AgentTool, type BrowserAgentToolsOptions } from "../../src/agent-tools/index.js";
import { ActionFailedError, NotFoundError, OutcomeUnknownError } from "../../src/errors.js";
import type { ManagedSessionInfo } from "../../src/lifecycle/manager.js";
import { diffText } from "../../src/protocol/text-change.js";
import { createStubBackend } from "../helpers/agent-tools-stub-backend.js";
import { fenced } from "../helpers/fenced.js";

function toolsetOver(stub: ReturnType<typeof createStubBackend>, options: Partial<BrowserAgentToolsOptions> = {}) {
  const toolset = createBrowserAgentTools({ client: stub.backend, maxSessions: 2, profileIds: ["research"], ...options });
  const byName = Object.fromEntries(toolset.tools.map((tool) => [tool.name.replace("station_browser_", ""), tool])) as Record<string, AgentTool>;
  const call = (name: string, input: unknown = {}, signal?: AbortSignal) => byName[name]!.execute(input, signal ? { signal } : {});
  return { toolset, call };
}

const idOf = (stub: ReturnType<typeof createStubBackend>, index = 0) => [...stub.sessions.keys()][index]!;

describe("scoping", () => {
  it("gives each toolset its own aliases: another toolset's alias is refused and never reaches its session", async () => {
    const stub = createStubBackend();
    const a = toolsetOver(stub);
    const b = toolsetOver(stub);
    expect((await a.call("open")).text).toContain("session s1 is open");
    const refused = await b.call("observe", { session: "s1" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe("error: input.session: no session s1 in this toolset; open one with station_browser_open");
    expect(stub.calls.filter((call) => call.method === "execute")).toEqual([]);
    await b.call("open");
    await b.call("click", { session: "s1", target: "e1" });
    const clicks = stub.calls.filter((call) => call.command?.op === "click");
    expect(clicks).toHaveLength(1);
    expect(clicks[0]!.sessionId).toBe(idOf(stub, 1));
  });

  it("opens only granted profiles, each at most once at a time, within maxSessions", async () => {
    const stub = createStubBackend();
    const { call } = toolsetOver(stub);
    const ungranted = await call("open", { profile: "work" });
    expect(ungranted.text).toBe("error: input.profile: not a granted profile; granted: research");
    expect((await call("open", { profile: "research" })).text).toContain("session s1 is open with profile research");
    expect((await call("open", { profile: "research" })).text).toBe(
      "error: input.profile: profile research is already open in session s1; use it, or close it first",
    );
    await call("open");
    const full = await call("open");
    expect(full.isError).toBe(true);
    expect(full.text).toMatch(/all 2 sessions of this toolset are open; close one with station_browser_close first/);
    expect((await call("close", { session: "s1" })).text).toBe("outcome: ok — session s1 is closed");
    expect((await call("open", { profile: "research" })).text).toContain("session s3 is open with profile research");
    expect(stub.calls.filter((entry) => entry.method === "open")).toHaveLength(3);
  });

  it("never shows backend session ids: messages name the alias", async () => {
    const stub = createStubBackend();
    const { call } = toolsetOver(stub);
    await call("open");
    const id = idOf(stub);
    stub.sessions.delete(id);
    const result = await call("click", { target: "e1" });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Browser session s1 does not exist");
    expect(result.text).not.toContain(id);
  });

  it("closes the only open session when session is left out, and asks for it when several are open", async () => {
    const stub = createStubBackend();
    const { call } = toolsetOver(stub);
    await call("open");
    await call("open");
    expect((await call("close")).text).toBe("error: input.session: required while several sessions are open (s1, s2)");
    expect((await call("close", { session: "s1" })).text).toBe("outcome: ok — session s1 is closed");
    expect((await call("close")).text).toBe("outcome: ok — session s2 is closed");
    expect(stub.sessions.size).toBe(0);
    expect((await call("close")).text).toBe("error: input.session: no session is open; open one with station_browser_open first");
  });

  it("asks for the session when several are open", async () => {
    const { call } = toolsetOver(createStubBackend());
    await call("open");
    await call("open");
    expect((await call("observe")).text).toBe("error: input.session: required while several sessions are open (s1, s2)");
  });
});

describe("a session gone at the backend", () => {
  it("frees its slot once the backend's list proves it gone; a not-found element keeps the session", async () => {
    const stub = createStubBackend();
    const { call } = toolsetOver(stub, { maxSessions: 1 });
    await call("open");
    // A target that matches nothing is a not-found too, but the session is still listed.
    const missing = createStubBackend({ execute: () => Promise.reject(new NotFoundError("No element matches #nope")) });
    const kept = toolsetOver(missing, { maxSessions: 1 });
    await kept.call("open");
    expect((await kept.call("click", { target: "e1" })).isError).toBe(true);
    expect((await kept.call("open")).text).toMatch(/all 1 sessions of this toolset are open/);
    // The worker restarted: the session no longer exists.
    stub.sessions.clear();
    const gone = await call("observe");
    expect(gone.isError).toBe(true);
    expect(gone.text).toContain("session s1 no longer exists");
    expect((await call("open")).text).toContain("session s2 is open");
  });
});

describe("uncertain openings", () => {
  it("records a lost open, refuses further opens, and reconcile() closes the session it finds", async () => {
    let lose = true;
    let lost: ManagedSessionInfo | undefined;
    const stub = createStubBackend({
      open: (options) => {
        if (!lose) return undefined;
        lose = false;
        lost = stub.addSession(options);
        return Promise.reject(new OutcomeUnknownError("the answer to open was lost"));
      },
    });
    const { toolset, call } = toolsetOver(stub);
    const first = await call("open");
    expect(first.isError).toBe(true);
    expect(first.text).toMatch(/^outcome: unknown — opening a session: its completion could not be confirmed\./);
    expect(toolset.uncertainOpenings()).toBe(1);
    const refused = await call("open");
    expect(refused.text).toMatch(/^error: input: an earlier open has an unknown outcome/);
    expect(stub.calls.filter((entry) => entry.method === "open")).toHaveLength(1);
    const report = await toolset.reconcile();
    expect(lost).toBeDefined();
    expect(report).toEqual({ resolved: 1, closed: [{ sessionId: lost!.id }], unresolved: [] });
    expect(stub.sessions.size).toBe(0);
    expect(toolset.uncertainOpenings()).toBe(0);
    expect((await call("open")).text).toContain("is open");
    const reopened = idOf(stub);
    expect(await toolset.close()).toEqual({ closed: [{ sessionId: reopened, alias: "s1" }], unresolved: [] });
  });

  it("settles an opening that never happened, and keeps one whose reconcile fails", async () => {
    const stub = createStubBackend({ open: () => Promise.reject(new OutcomeUnknownError("lost")) });
    const { toolset, call } = toolsetOver(stub);
    await call("open");
    const reconcile = stub.backend.reconcile.bind(stub.backend);
    stub.backend.reconcile = () => Promise.reject(new Error("worker unreachable"));
    expect((await toolset.reconcile()).unresolved).toEqual([{ openTag: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/), reason: "reconcile failed: worker unreachable" }]);
    expect(toolset.uncertainOpenings()).toBe(1);
    stub.backend.reconcile = reconcile;
    expect(await toolset.reconcile()).toEqual({ resolved: 1, closed: [], unresolved: [] });
  });

  it("treats an open cancelled while running as uncertain, and closes the session if it arrives later", async () => {
    let finish!: (info: ManagedSessionInfo) => void;
    const stub = createStubBackend({ open: (options) => new Promise((resolve) => (finish = () => resolve(stub.addSession(options)))) });
    const { toolset, call } = toolsetOver(stub);
    const controller = new AbortController();
    const pending = call("open", {}, controller.signal);
    controller.abort();
    const result = await pending;
    expect(result.text).toMatch(/^outcome: unknown — opening a session: the call was cancelled while it ran\./);
    expect(toolset.uncertainOpenings()).toBe(1);
    finish(undefined as never);
    await expect.poll(() => toolset.uncertainOpenings()).toBe(0);
    expect(stub.sessions.size).toBe(0);
  });
});

describe("close()", () => {
  it("a human who takes control between the look and the close: the backend refuses, and the model is told a human controls it", async () => {
    const stub = createStubBackend();
    const { toolset, call } = toolsetOver(stub);
    await call("open");
    const id = idOf(stub);
    const look = stub.backend.control.bind(stub.backend);
    // The lease arrives right after the tool looked at the control state.
    stub.backend.control = async (sessionId) => {
      const state = await look(sessionId);
      stub.setControl(sessionId, "human");
      return state;
    };
    expect((await call("close")).text).toBe("outcome: failed — a human is controlling session s1; it stays open until they are done.");
    expect(stub.sessions.has(id)).toBe(true);
    const report = await toolset.close();
    expect(report.unresolved).toEqual([{ sessionId: id, alias: "s1", reason: "a human holds the control lease; close again after it ends" }]);
  });

  it("counts a session already gone as closed, leaves one under a human lease open, and can be retried", async () => {
    const stub = createStubBackend();
    const { toolset, call } = toolsetOver(stub);
    await call("open");
    await call("open");
    const [gone, held] = [idOf(stub, 0), idOf(stub, 1)];
    stub.sessions.delete(gone);
    stub.setControl(held, "human");
    const closeTool = await call("close", { session: "s2" });
    expect(closeTool.text).toBe("outcome: failed — a human is controlling session s2; it stays open until they are done.");
    const first = await toolset.close();
    expect(first.closed).toEqual([{ sessionId: gone, alias: "s1" }]);
    expect(first.unresolved).toEqual([{ sessionId: held, alias: "s2", reason: "a human holds the control lease; close again after it ends" }]);
    expect(stub.sessions.has(held)).toBe(true);
    expect((await call("observe", { session: "s2" })).text).toBe("error: this browser toolset is closed");
    stub.setControl(held, "automation");
    expect(await toolset.close()).toEqual({ closed: [{ sessionId: held, alias: "s2" }], unresolved: [] });
    expect(stub.sessions.size).toBe(0);
  });
});

describe("calls", () => {
  it("passes the caller's signal to the backend and reports a cancelled action as unknown", async () => {
    let seen: AbortSignal | undefined;
    const stub = createStubBackend({
      execute: (_id, command, options) => {
        if (command.op !== "click") return undefined;
        seen = options.signal;
        return new Promise((_resolve, reject) => options.signal?.addEventListener("abort", () => reject(new Error("aborted by signal"))));
      },
    });
    const { call } = toolsetOver(stub, { changeSummaryBytes: 0 });
    await call("open");
    const controller = new AbortController();
    const pending = call("click", { target: "e1" }, controller.signal);
    await expect.poll(() => seen).toBeDefined();
    controller.abort();
    const result = await pending;
    expect(seen!.aborted).toBe(true);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^outcome: unknown — click: the call was cancelled while it ran\.\nIt may or may not have taken effect\. Call station_browser_observe/);
  });

  it("reports an OutcomeUnknownError as unknown and never retries", async () => {
    const stub = createStubBackend({ execute: (_id, command) => (command.op === "click" ? Promise.reject(new OutcomeUnknownError("lost")) : undefined) });
    const { call } = toolsetOver(stub);
    await call("open");
    const result = await call("click", { target: "e1" });
    expect(result.text).toMatch(/^outcome: unknown — click: its completion could not be confirmed\./);
    expect(stub.calls.filter((entry) => entry.command?.op === "click")).toHaveLength(1);
  });

  it("holds a session at a challenge a result carries: refuses mutating calls without sending them until a challenge read says it is gone", async () => {
    let shown = "challenge";
    const stub = createStubBackend({
      execute: (_id, command) =>
        command.op === "click"
          ? Promise.resolve({ ok: true, url: "https://example.test/", title: "Just a moment", navigated: true, newPages: [], challenge: { state: "challenge", vendor: "cloudflare", evidence: [] } })
          : command.op === "challenge"
            ? Promise.resolve({ state: shown, evidence: [] })
            : undefined,
    });
    const { call } = toolsetOver(stub);
    await call("open");
    const clicked = await call("click", { target: "e1" });
    expect(clicked.text).toContain("takeover: challenge (cloudflare) on s1; a human must take it over.");
    expect(clicked.takeover).toMatchObject({ session: "s1", challenge: { state: "challenge" } });
    expect(clicked.takeover).not.toHaveProperty("liveViewUrl");
    const ops = () => stub.calls.flatMap((each) => (each.command ? [each.command.op] : []));
    const before = ops().length;
    const refused = await call("hover", { target: "e1" });
    expect(refused).toMatchObject({ isError: true, text: expect.stringMatching(/^outcome: refused — s1 still shows challenge; nothing was sent\./) });
    expect(ops().slice(before)).toEqual(["challenge"]);
    shown = "none";
    const hovered = await call("hover", { target: "e1" });
    expect(hovered.isError).toBeUndefined();
    expect(hovered.text).not.toContain("challenge");
    expect(ops().slice(before)).toEqual(["challenge", "challenge", "hover"]);
  });

  it("refuses takeover options that are not functions, naming the option", () => {
    const stub = createStubBackend();
    expect(() => createBrowserAgentTools({ client: stub.backend, maxSessions: 1, liveView: "https://live" as never })).toThrow(/options\.liveView: expected a function/);
    expect(() => createBrowserAgentTools({ client: stub.backend, maxSessions: 1, onTakeover: {} as never })).toThrow(/options\.onTakeover: expected a function/);
  });

  it("runs one toolset's calls on a session one after another", async () => {
    // Each backend call is held until the test lets it go.
    const held: (() => void)[] = [];
    let onHeld = () => {};
    const stub = createStubBackend({
      execute: async () => {
        await new Promise<void>((resolve) => {
          held.push(resolve);
          onHeld();
        });
        return undefined;
      },
    });
    const { call } = toolsetOver(stub);
    await call("open");
    const calls = Promise.all([call("click", { target: "e1" }), call("hover", { target: "e2" }), call("observe")]);
    const nextHeld = () => (held.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => (onHeld = resolve)));
    let released = 0;
    while (await Promise.race([nextHeld().then(() => true), calls.then(() => false)])) {
      // The backend is in memory: a call not kept back by the session's chain would reach it within this turn
      // of the event loop, so it would be held beside this one once the turn is over.
      await new Promise((resolve) => setImmediate(resolve));
      expect(held).toHaveLength(1);
      held.shift()!();
      released++;
    }
    expect(released).toBeGreaterThanOrEqual(3);
    const results = await calls;
    expect(results.map((result) => result.isError ?? false)).toEqual([false, false, false]);
  });
});

describe("page probes", () => {
  it("make one backend call per action (the change comes in its result) and never run page code, not even after typing", async () => {
    const stub = createStubBackend();
    const { call } = toolsetOver(stub);
    await call("open");
    const opsOf = (from: number) => stub.calls.slice(from).flatMap((entry) => (entry.command ? [entry.command.op] : []));
    let mark = stub.calls.length;
    const clicked = await call("click", { target: "e1" });
    expect(opsOf(mark)).toEqual(["click"]);
    expect(stub.calls.at(-1)!.command).toMatchObject({ op: "click", textChange: true });
    expect(clicked.text).toMatch(/^outcome: ok — click; text unchanged\n/);

    mark = stub.calls.length;
    await call("type", { target: "e1", text: "hello there" });
    expect(opsOf(mark)).toEqual(["type"]);
    expect(stub.calls.some((entry) => entry.command?.op === "evaluate")).toBe(false);

    mark = stub.calls.length;
    stub.page.text = "Only this";
    const observed = await call("observe", { mode: "text" });
    expect(opsOf(mark)).toEqual(["text"]);
    expect(observed.text).toContain("Only this");
  });

  it("shows the change in visible text the action reports", async () => {
    const stub = createStubBackend({
      execute: (_id, command) => {
        if (command.op === "click") stub.page.text = "Welcome\nSigned in as Ada";
        return undefined;
      },
    });
    const { call } = toolsetOver(stub);
    await call("open");
    const clicked = await call("click", { target: "e1" });
    expect(clicked.text).toMatch(/^outcome: ok — click; text: 1 line added, 1 removed\n/);
    expect(clicked.text).toContain("+ Signed in as Ada");
    expect(clicked.text).toContain("- Sign in");
  });

  it("says the change is not available when the backend does not report one", async () => {
    const stub = createStubBackend({
      execute: (_id, command) => (command.op === "click" ? Promise.resolve({ ok: true, url: stub.page.url, title: stub.page.title, navigated: false, newPages: [] }) : undefined),
    });
    const { call } = toolsetOver(stub);
    await call("open");
    expect((await call("click", { target: "e1" })).text).toMatch(/^outcome: ok — click; text change not available\n/);
    // Not knowing the change is never worded as "nothing changed".
    expect((await call("click", { target: "e1" })).text).toBe("outcome: ok — click; text change not available");
  });

  it("after a navigation an action caused, previews new lines only when neither URL nor title says where the page went", async () => {
    const next: { url: string; title: string; text: string }[] = [
      { url: "https://example.test/", title: "Example", text: "Welcome\nWrong password" },
      { url: "https://example.test/inbox", title: "Inbox", text: "Inbox\n3 new messages" },
    ];
    const stub = createStubBackend({
      execute: (_id, command) => {
        if (command.op !== "click") return undefined;
        const before = stub.page.text;
        Object.assign(stub.page, next.shift());
        return Promise.resolve({ ok: true, url: stub.page.url, title: stub.page.title, navigated: true, newPages: [], textChange: diffText(before, stub.page.text) });
      },
    });
    const { call } = toolsetOver(stub);
    await call("open");
    await call("hover", { target: "e1" });
    const rerendered = await call("click", { target: "e1" });
    expect(rerendered.text.split("\n")[0]).toBe("outcome: ok — click; navigated");
    expect(fenced(rerendered.text)).toBe("+ Wrong password");
    const moved = await call("click", { target: "e1" });
    expect(fenced(moved.text)).toBe('url: https://example.test/inbox\ntitle: "Inbox"');
  });

  it("tells the URL and title once: later results repeat neither while they stay the same, and say when nothing changed", async () => {
    const stub = createStubBackend({
      execute: (_id, command) => {
        if (command.op === "press") return Promise.reject(new ActionFailedError("press: element is not attached"));
        if (command.op === "click" && stub.page.text.includes("Sign in")) Object.assign(stub.page, { url: "https://example.test/inbox", title: "Inbox", text: "Welcome\nInbox" });
        return undefined;
      },
    });
    const { call } = toolsetOver(stub);
    await call("open");
    const first = await call("hover", { target: "e1" });
    expect(fenced(first.text)).toBe('url: https://example.test/\ntitle: "Example"');
    expect((await call("hover", { target: "e1" })).text).toBe("outcome: ok — hover; nothing changed");
    const moved = await call("click", { target: "e1" });
    expect(moved.text).toMatch(/^outcome: ok — click; text: 1 line added, 1 removed\n/);
    expect(fenced(moved.text)).toBe('url: https://example.test/inbox\ntitle: "Inbox"\n+ Inbox\n- Sign in');
    expect((await call("fill", { fields: [{ target: "e1", value: "x" }] })).text).toBe("outcome: ok — fill; nothing changed");
    // A failure may have moved the page: the next result says where it is again.
    expect((await call("type", { key: "Enter" })).isError).toBe(true);
    expect(fenced((await call("hover", { target: "e1" })).text)).toBe('url: https://example.test/inbox\ntitle: "Inbox"');
  });
});

describe("secrets", () => {
  it("fills a host secret by name: the backend gets the value, the model never sees it", async () => {
    const stub = createStubBackend();
    const { call } = toolsetOver(stub, { secrets: { pw: "s3cret-value!" } });
    await call("open");
    stub.page.text = "Your password s3cret-value! was saved";
    const fill = await call("fill", { fields: [{ target: "e1", secret: "pw" }] });
    expect(stub.calls.find((entry) => entry.command?.op === "fill")!.command).toMatchObject({ value: "s3cret-value!" });
    expect(fill.text).not.toContain("s3cret-value!");
    expect((await call("observe", { mode: "text" })).text).toContain("Your password [secret:pw] was saved");
    expect((await call("fill", { fields: [{ target: "e1", secret: "nope" }] })).text).toBe(
      "error: input.fields[0].secret: unknown secret; the host provides: pw",
    );
  });

  it("does not redact a value typed into a field the engine says is no password", async () => {
    const stub = createStubBackend();
    const { call } = toolsetOver(stub);
    await call("open");
    await call("fill", { fields: [{ target: "e1", value: "plain-words-1" }] });
    stub.page.text = "echo plain-words-1";
    expect((await call("observe", { mode: "text" })).text).toContain("echo plain-words-1");
  });

  it.each([
    ["says it is in a password field", { sensitive: true }],
    ["does not say (an older worker)", {}],
  ])("redacts a value typed into a field when the result %s", async (_case, extra) => {
    const stub = createStubBackend({
      execute: (_id, command) =>
        command.op === "fill" || command.op === "type" ? Promise.resolve({ ok: true, url: stub.page.url, title: stub.page.title, navigated: false, newPages: [], ...extra }) : undefined,
    });
    const { call } = toolsetOver(stub);
    await call("open");
    await call("fill", { fields: [{ target: "e1", value: "typed-pass-1" }] });
    await call("type", { text: "typed-pass-2" });
    stub.page.text = "echo typed-pass-1 typed-pass-2";
    expect((await call("observe", { mode: "text" })).text).toContain("echo [redacted] [redacted]");
  });

  it("redacts a value whose fill failed after it may have typed, not one refused before any key", async () => {
    const stub = createStubBackend({
      execute: (_id, command) => {
        if (command.op !== "fill") return undefined;
        const value = (command as { value: string }).value;
        return Promise.reject(value === "refused-value" ? new NotFoundError("No element matches ref e1") : new ActionFailedError("fill: element was detached"));
      },
    });
    const { call } = toolsetOver(stub);
    await call("open");
    await call("fill", { fields: [{ target: "e1", value: "refused-value" }] });
    await call("fill", { fields: [{ target: "e1", value: "half-typed-pass" }] });
    stub.page.text = "echo refused-value half-typed-pass";
    expect((await call("observe", { mode: "text" })).text).toContain("echo refused-value [redacted]");
  });

  it("always redacts a host secret, even when the engine says it is in no password field", async () => {
    const stub = createStubBackend();
    const { call } = toolsetOver(stub, { secrets: { pw: "host-secret-value" } });
    await call("open");
    const typed = await call("type", { secret: "pw" });
    stub.page.text = `echo host-secret-value ${btoa("host-secret-value")} ${encodeURIComponent("host-secret-value")} host-secr`;
    const observed = await call("observe", { mode: "text" });
    expect(JSON.stringify([typed, observed])).not.toContain("host-sec");
    expect(observed.text).toContain("echo [secret:pw] [secret:pw] [secret:pw] [secret:pw]");
  });
});

describe("opens in flight and cancelled opens", () => {
  it("close() waits for an open still running, so its report is complete", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stub = createStubBackend({
      open: (options) =>
        gate.then(() => {
          stub.addSession(options);
          return Promise.reject(new OutcomeUnknownError("the answer to open was lost"));
        }),
    });
    const { toolset, call } = toolsetOver(stub);
    const opening = call("open");
    const closing = toolset.close();
    release();
    const [opened, report] = await Promise.all([opening, closing]);
    expect(opened.text).toMatch(/^outcome: unknown/);
    // The open's session was found and closed by close() itself: nothing is left or forgotten.
    expect(report.unresolved).toEqual([]);
    expect(report.closed).toHaveLength(1);
    expect(stub.sessions.size).toBe(0);
    expect(toolset.uncertainOpenings()).toBe(0);
  });

  it("an open whose signal is already aborted starts nothing", async () => {
    const stub = createStubBackend();
    const { toolset, call } = toolsetOver(stub);
    const result = await call("open", {}, AbortSignal.abort());
    expect(result).toMatchObject({ isError: true, text: "outcome: failed — opening a session: cancelled before it started." });
    expect(stub.calls.filter((entry) => entry.method === "open")).toEqual([]);
    expect(toolset.uncertainOpenings()).toBe(0);
  });

  it("execute never throws, even for an options object or input whose getters throw", async () => {
    const stub = createStubBackend();
    const { toolset } = toolsetOver(stub);
    const open = toolset.tools.find((tool) => tool.name === "station_browser_open")!;
    const hostile = Object.create(null, { signal: { get: () => { throw Object.create(null); } } }) as never;
    await expect(open.execute({}, hostile)).resolves.toMatchObject({ isError: true });
    const input = new Proxy({}, { ownKeys: () => { throw new Error("trap"); }, get: () => { throw Object.create(null); } });
    await expect(open.execute(input)).resolves.toMatchObject({ isError: true });
  });
});
