import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { connectCdp, type CdpConnection, type CdpSession } from "../../src/cdp/index.js";
import { isSessionClosedError, isValidationError } from "../../src/errors.js";
import { mayHaveRun } from "../../src/cdp/index.js";
import { startCdpChromium, type CdpChromium } from "../helpers/cdp-chromium.js";
import { connectOverWs, evaluate, navigate, openPage } from "../helpers/cdp-client.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

/**
 * The neutral CDP client (src/cdp/) against a real headless Chromium: a
 * browser-level connection, targets, flattened sessions (an out-of-process
 * iframe, a popup), navigation, evaluation and events.
 */
let chromium: CdpChromium;
let server: FixtureServer;
const connections: CdpConnection[] = [];

beforeAll(async () => {
  [chromium, server] = await Promise.all([startCdpChromium(), startFixtureServer()]);
});
afterAll(async () => {
  await chromium?.close();
  await server?.close();
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});

const connect = async () => {
  const connection = await connectOverWs(chromium.wsUrl);
  connections.push(connection);
  return connection;
};

/** The same page on the other loopback site: localhost instead of 127.0.0.1 (a different site, so its frames run out of process). */
const otherSite = (url: string) => url.replace("//127.0.0.1:", "//localhost:");

describe("CDP client against Chromium", () => {
  it("connects at browser level, creates a target, attaches flattened, navigates on 127.0.0.1 and evaluates", async () => {
    const connection = await connect();
    const version = await connection.browser.send("Browser.getVersion");
    expect(version.product).toMatch(/Chrome/);
    const { page, targetId } = await openPage(connection);
    expect(page.id).toEqual(expect.any(String));
    expect(page.targetInfo?.targetId).toBe(targetId);
    expect(page.parent).toBe(connection.browser);
    expect(connection.session(page.id!)).toBe(page);
    await navigate(page, server.url("/index.html"));
    expect(await evaluate(page, "document.title")).toBe("Fixture home");
    expect(await evaluate(page, "location.origin")).toBe(server.origin);
  });

  it("detaches a session on request: the target keeps running, the session refuses calls", async () => {
    const connection = await connect();
    const { page, targetId } = await openPage(connection);
    const detached = connection.browser.waitForEvent("Target.detachedFromTarget", { predicate: ({ sessionId }) => sessionId === page.id });
    await page.detach();
    await detached;
    expect(page.ended?.reason).toMatch(/detached/);
    expect(isSessionClosedError(await page.send("Page.enable").catch((error: unknown) => error))).toBe(true);
    const { targetInfos } = await connection.browser.send("Target.getTargets");
    expect(targetInfos.some((info) => info.targetId === targetId)).toBe(true);
    const again = await connection.attach(targetId);
    expect(await evaluate(again, "1 + 2")).toBe(3);
  });

  it("hands events to subscribers per session until they unsubscribe", async () => {
    const connection = await connect();
    const { page } = await openPage(connection);
    const { page: other } = await openPage(connection);
    const first: string[] = [];
    const kept: string[] = [];
    const onOther: string[] = [];
    const off = page.on("Page.frameNavigated", ({ frame }) => first.push(frame.url));
    page.on("Page.frameNavigated", ({ frame }) => kept.push(frame.url));
    other.on("Page.frameNavigated", ({ frame }) => onOther.push(frame.url));
    await navigate(page, server.url("/index.html"));
    expect(first).toEqual([server.url("/index.html")]);
    off();
    await navigate(page, server.url("/second.html"));
    expect(first).toEqual([server.url("/index.html")]);
    expect(kept).toEqual([server.url("/index.html"), server.url("/second.html")]);
    expect(onOther).toEqual([]);
  });

  it("reports a listener that throws to onListenerError and keeps handing the event to the others", async () => {
    const thrown: Array<[unknown, string]> = [];
    const connection = await connectOverWs(chromium.wsUrl, { onListenerError: (error, event) => thrown.push([error, event]) });
    connections.push(connection);
    const { page } = await openPage(connection);
    const failing = new Error("listener bug");
    page.on("Page.frameNavigated", () => {
      throw failing;
    });
    const after = page.waitForEvent("Page.frameNavigated");
    await navigate(page, server.url("/index.html"));
    expect((await after).frame.url).toBe(server.url("/index.html"));
    expect(thrown).toEqual([[failing, "Page.frameNavigated"]]);
  });

  it("attaches a flattened child session for an out-of-process iframe (site isolation) and ends it when the frame goes", async () => {
    const connection = await connect();
    const { page } = await openPage(connection);
    await navigate(page, server.url("/index.html"));
    await page.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
    const attached = page.waitForEvent("Target.attachedToTarget", { predicate: ({ targetInfo }) => targetInfo.type === "iframe" });
    // The child is made before the event is handed out, so a listener can subscribe on it at once.
    let childLoaded: Promise<unknown> | undefined;
    page.on("Target.attachedToTarget", ({ sessionId }) => {
      const child = connection.session(sessionId)!;
      childLoaded = child.waitForEvent("Page.loadEventFired");
    });
    const frameUrl = otherSite(server.url("/frame-inner.html"));
    await evaluate(page, `(() => { const frame = document.createElement("iframe"); frame.src = ${JSON.stringify(frameUrl)}; document.body.append(frame); })()`);
    const event = await attached;
    const child = connection.session(event.sessionId)!;
    expect(child.parent).toBe(page);
    expect(page.children).toContain(child);
    expect(child.waitingForDebugger).toBe(true);
    await child.send("Page.enable");
    await child.send("Runtime.runIfWaitingForDebugger");
    await childLoaded;
    expect(await evaluate(child, "document.title")).toBe("Inner frame");
    expect(await evaluate(child, "location.href")).toBe(frameUrl);
    // Out of process: the page cannot reach into it.
    expect(await evaluate(page, "document.querySelector('iframe').contentDocument === null")).toBe(true);

    const detached = page.waitForEvent("Target.detachedFromTarget", { predicate: ({ sessionId }) => sessionId === child.id });
    await evaluate(page, "document.querySelector('iframe').remove()");
    await detached;
    expect(child.ended?.reason).toMatch(/detached/);
    expect(connection.session(child.id!)).toBeUndefined();
    expect(page.children).not.toContain(child);
    const refused = await child.send("Runtime.evaluate", { expression: "1" }).catch((error: unknown) => error);
    expect(isSessionClosedError(refused)).toBe(true);
    expect(mayHaveRun(refused)).toBe(false);
    expect(String(refused)).toContain("Runtime.evaluate");
  });

  it("attaches a popup under browser-level auto-attach, with its opener", async () => {
    const connection = await connect();
    const { page, targetId } = await openPage(connection);
    await navigate(page, server.url("/index.html"));
    await connection.browser.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
    const attached = connection.browser.waitForEvent("Target.attachedToTarget", { predicate: ({ targetInfo }) => targetInfo.openerId === targetId });
    // window.open does not return while the popup waits for the debugger: the call is answered after the resume.
    const opened = page.send("Runtime.evaluate", { expression: `window.open(${JSON.stringify(server.url("/second.html"))}) !== null`, userGesture: true, returnByValue: true });
    const event = await attached;
    const popup: CdpSession = connection.session(event.sessionId)!;
    expect(popup.parent).toBe(connection.browser);
    expect(event.targetInfo.type).toBe("page");
    await popup.send("Page.enable");
    const loaded = popup.waitForEvent("Page.loadEventFired");
    await popup.send("Runtime.runIfWaitingForDebugger");
    expect((await opened).result.value).toBe(true);
    await loaded;
    expect(await evaluate(popup, "location.pathname")).toBe("/second.html");
    await connection.browser.send("Target.closeTarget", { targetId: event.targetInfo.targetId });
  });

  it("uses the runtime's global WebSocket when no factory is passed", async () => {
    vi.stubGlobal("WebSocket", WebSocket);
    const connection = await connectCdp(chromium.wsUrl);
    connections.push(connection);
    const { targetInfos } = await connection.browser.send("Target.getTargets");
    expect(targetInfos.some(({ type }) => type === "page")).toBe(true);
  });

  it("refuses clearly where the runtime has no global WebSocket and none is passed (Node 20)", async () => {
    vi.stubGlobal("WebSocket", undefined);
    const error = await connectCdp(chromium.wsUrl).catch((caught: unknown) => caught);
    expect(isValidationError(error) && error.field).toBe("options.webSocket");
    expect(String(error)).toMatch(/no global WebSocket/);
  });
});
