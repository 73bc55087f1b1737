import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { CdpProtocolError, cdpCallOf, connectCdp, mayHaveRun, type CdpConnection, type CdpWebSocket, type CdpWebSocketFactory } from "../../src/cdp/index.js";
import {
  isActionFailedError,
  isOutcomeUnknownError,
  isPayloadTooLargeError,
  isSessionClosedError,
  isTimeoutError,
  isValidationError,
} from "../../src/errors.js";
import { startCdpChromium, type CdpChromium } from "../helpers/cdp-chromium.js";
import { connectOverWs, evaluate, neverSettles, openPage } from "../helpers/cdp-client.js";
import { serialRoundTrips, startRelay } from "../helpers/cdp-relay.js";

/**
 * How the CDP client (src/cdp/) fails, against a real Chromium: protocol
 * errors, deadlines, cancels, oversized messages, a killed browser, bad
 * input; and, through the counting relay, the round trips of a known
 * sequence of calls.
 */
let chromium: CdpChromium;
const connections: CdpConnection[] = [];

beforeAll(async () => {
  chromium = await startCdpChromium();
});
afterAll(async () => {
  await chromium?.close();
});
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});

const connect = async (options: Parameters<typeof connectOverWs>[1] = {}, url = chromium.wsUrl) => {
  const connection = await connectOverWs(url, options);
  connections.push(connection);
  return connection;
};

const failure = (promise: Promise<unknown>) => promise.then(
  () => {
    throw new Error("expected the call to fail");
  },
  (error: unknown) => error,
);

describe("CDP client failures", () => {
  it("turns a protocol error into an error naming the method and CDP's message; the call ran, so it is not unknown", async () => {
    const connection = await connect();
    const error = await failure(connection.browser.send("Target.attachToTarget", { targetId: "no-such-target", flatten: true }));
    expect(error).toBeInstanceOf(CdpProtocolError);
    expect(isActionFailedError(error)).toBe(true);
    expect((error as CdpProtocolError).method).toBe("Target.attachToTarget");
    expect((error as CdpProtocolError).cdpMessage).toMatch(/No target with given id/);
    expect(String(error)).toMatch(/CDP Target\.attachToTarget failed: No target with given id/);
    expect(mayHaveRun(error)).toBe(false);
    expect(cdpCallOf(error)).toEqual({ method: "Target.attachToTarget", sessionId: undefined, sent: true, answered: true });
  });

  it("fails a call past its deadline with a TimeoutError naming it, and the connection goes on", async () => {
    const connection = await connect();
    const { page } = await openPage(connection);
    const error = await failure(page.send("Runtime.evaluate", { expression: neverSettles, awaitPromise: true }, { timeoutMs: 200 }));
    expect(isTimeoutError(error)).toBe(true);
    expect(String(error)).toContain(`CDP Runtime.evaluate (session ${page.id}) got no answer within 200 ms`);
    expect(mayHaveRun(error)).toBe(true);
    expect(await evaluate(page, "6 * 7")).toBe(42);
  });

  it("cancels a call through its AbortSignal: before sending it is not sent, after it may have run", async () => {
    const connection = await connect();
    const { page } = await openPage(connection);
    const controller = new AbortController();
    const pending = failure(page.send("Runtime.evaluate", { expression: neverSettles, awaitPromise: true }, { signal: controller.signal }));
    controller.abort(new Error("the caller gave up"));
    const error = await pending;
    expect(isActionFailedError(error)).toBe(true);
    expect(String(error)).toMatch(/Runtime\.evaluate .* was cancelled after it was sent/);
    expect((error as Error).cause).toEqual(new Error("the caller gave up"));
    expect(mayHaveRun(error)).toBe(true);

    const early = await failure(page.send("Runtime.evaluate", { expression: "1" }, { signal: controller.signal }));
    expect(String(early)).toMatch(/cancelled before it was sent/);
    expect(mayHaveRun(early)).toBe(false);
    expect(await evaluate(page, "1 + 1")).toBe(2);
  });

  // The standard WebSocket cannot refuse a frame before it arrives: the client measures each message.
  // `ws` with its maxPayload refuses a frame from its header, before buffering it (close code 1009).
  const unboundedWs: CdpWebSocketFactory = (url) => new WebSocket(url, { perMessageDeflate: false }) as unknown as CdpWebSocket;
  for (const [label, webSocket, reason] of [
    ["measured by the client (a standard WebSocket)", unboundedWs, /an incoming CDP message of \d+ bytes exceeds the limit/],
    ["refused by ws before it is buffered (maxPayload)", undefined, /an incoming CDP message exceeded the limit/],
  ] as const) {
    it(`fails every pending call clearly on an oversized message, ${label}, and refuses later calls at once`, async () => {
      const limit = 64 * 1024;
      const connection = await connect({ maxMessageBytes: limit, ...(webSocket ? { webSocket } : {}) });
      const { page } = await openPage(connection);
      const waiting = failure(page.send("Runtime.evaluate", { expression: neverSettles, awaitPromise: true }));
      const large = failure(page.send("Runtime.evaluate", { expression: `"x".repeat(${2 * limit})`, returnByValue: true }));
      for (const [error, method] of [[await large, "Runtime.evaluate"], [await waiting, "Runtime.evaluate"]] as const) {
        expect(isPayloadTooLargeError(error)).toBe(true);
        expect(String(error)).toContain(`CDP ${method} (session ${page.id}) got no answer`);
        expect(String(error)).toContain(`the limit of ${limit} bytes`);
        expect(mayHaveRun(error)).toBe(true);
      }
      const end = await connection.closed;
      expect(end.tooLarge).toBe(true);
      expect(end.reason).toMatch(reason);
      const later = await failure(connection.browser.send("Target.getTargets"));
      expect(isSessionClosedError(later)).toBe(true);
      expect(String(later)).toMatch(/CDP Target\.getTargets was not sent: an incoming CDP message .*exceed/);
      expect(mayHaveRun(later)).toBe(false);
    });
  }

  it("fails pending calls as outcome unknown when the browser is killed mid-call, and refuses later calls at once", async () => {
    const doomed = await startCdpChromium();
    try {
      const connection = await connect({}, doomed.wsUrl);
      const { page } = await openPage(connection);
      const pending = failure(page.send("Runtime.evaluate", { expression: neverSettles, awaitPromise: true }));
      // An answer after the evaluation was sent: the browser has it before the kill.
      await connection.browser.send("Browser.getVersion");
      doomed.process.kill("SIGKILL");
      const error = await pending;
      expect(isOutcomeUnknownError(error)).toBe(true);
      expect(error).toMatchObject({ method: "Runtime.evaluate", sessionId: page.id });
      expect(String(error)).toMatch(/CDP Runtime\.evaluate \(session .*\) got no answer: the CDP connection closed \(code \d+\)\. It was sent, so whether it ran is unknown/);
      expect(isSessionClosedError((error as Error).cause)).toBe(true);
      expect(mayHaveRun(error)).toBe(true);
      expect((await connection.closed).reason).toMatch(/closed/);
      const later = await failure(page.send("Runtime.evaluate", { expression: "1" }));
      expect(isSessionClosedError(later)).toBe(true);
      expect(String(later)).toContain("CDP Runtime.evaluate");
      expect(String(later)).toContain("was not sent");
      expect(mayHaveRun(later)).toBe(false);
      expect(page.ended).toBeDefined();
    } finally {
      await doomed.close();
    }
  });

  it("fails the pending calls of a page whose renderer crashed, which Chromium never answers; the page loads again", async () => {
    const connection = await connect();
    const { page } = await openPage(connection);
    const crashed = page.waitForEvent("Inspector.targetCrashed");
    const pending = failure(page.send("Runtime.evaluate", { expression: neverSettles, awaitPromise: true }));
    const crash = failure(page.send("Page.crash"));
    await crashed;
    for (const [error, method] of [[await pending, "Runtime.evaluate"], [await crash, "Page.crash"]] as const) {
      expect(isOutcomeUnknownError(error)).toBe(true);
      expect(String(error)).toContain(`CDP ${method} (session ${page.id}) got no answer: the target of CDP session ${page.id} crashed`);
      expect(mayHaveRun(error)).toBe(true);
    }
    expect(page.ended).toBeUndefined();
    const loaded = page.waitForEvent("Page.loadEventFired");
    await page.send("Page.reload");
    await loaded;
    expect(await evaluate(page, "2 + 2")).toBe(4);
  });

  it("refuses bad input naming the field, and never shows a URL's query", async () => {
    const secret = "sk-cdp-url-secret-0123456789";
    const badUrl = await failure(connectCdp(`https://connect.example.com/?apiKey=${secret}`, { webSocket: () => undefined as never }));
    expect(isValidationError(badUrl) && badUrl.field).toBe("url");
    expect(String(badUrl)).not.toContain(secret);
    const badLimit = await failure(connectCdp(chromium.wsUrl, { maxMessageBytes: 5 }));
    expect(isValidationError(badLimit) && badLimit.field).toBe("options.maxMessageBytes");
    const unknown = await failure(connectCdp(chromium.wsUrl, { timeout: 5 } as never));
    expect(isValidationError(unknown) && unknown.field).toBe("options.timeout");
    const connection = await connect();
    const badDeadline = await failure(connection.browser.send("Target.getTargets", {}, { timeoutMs: -1 }));
    expect(isValidationError(badDeadline) && badDeadline.field).toBe("options.timeoutMs");
    // Nothing listens on a closed port's path: the error names where, without its query.
    const refused = await failure(connectOverWs(`ws://127.0.0.1:${chromium.port}/devtools/browser/nope?token=${secret}`));
    expect(isSessionClosedError(refused)).toBe(true);
    expect(String(refused)).toContain(`ws://127.0.0.1:${chromium.port}/devtools/browser/nope`);
    expect(String(refused)).not.toContain(secret);
  });

  it("takes one serial round trip per dependent call, counted on a relay with added latency", async () => {
    const relay = await startRelay(chromium.wsUrl);
    try {
      relay.delayMs = 10;
      const connection = await connect({}, relay.url);
      const start = relay.frames.length;
      await connection.browser.send("Browser.getVersion");
      const { targetId } = await connection.browser.send("Target.createTarget", { url: "about:blank" });
      const page = await connection.attach(targetId);
      await Promise.all([evaluate(page, "1"), evaluate(page, "2"), evaluate(page, "3")]);
      const frames = relay.frames.slice(start);
      const commands = frames.filter(({ kind }) => kind === "command");
      expect(commands.map(({ method }) => method)).toEqual([
        "Browser.getVersion",
        "Target.createTarget",
        "Target.attachToTarget",
        "Runtime.evaluate",
        "Runtime.evaluate",
        "Runtime.evaluate",
      ]);
      expect(frames.filter(({ kind }) => kind === "reply")).toHaveLength(6);
      expect(serialRoundTrips(frames)).toBe(4);
    } finally {
      await relay.close();
    }
  });
});
