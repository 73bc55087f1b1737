import { afterEach, describe, expect, it } from "vitest";
import { chromium } from "playwright-core";
import { bundledWebSocket, serialRoundTrips, startRelay, type Frame, type Relay, type Socket, type SocketServer } from "../helpers/cdp-relay.js";
import { startCdpChromium, type CdpChromium } from "../helpers/cdp-chromium.js";

/**
 * bench:cdp's relay (bench/cdp.ts): it forwards CDP frames both ways, logs
 * each as the client sees it, keeps their order under an added delay, and the
 * serial round trips are the depth of the command chain.
 */

interface FakeBrowser {
  url: string;
  close(): Promise<void>;
}

/**
 * A stand-in browser endpoint. It answers every command with `{ id, result }`;
 * `Test.withEvent` is preceded by an event; `Test.held` commands are answered
 * together, in order, once `holdFor` of them arrived (so a test controls which
 * replies can exist when the client sends its next command).
 */
async function startFakeBrowser(holdFor = 2): Promise<FakeBrowser> {
  const server: SocketServer = new bundledWebSocket.wsServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.on("listening", resolve));
  server.on("connection", (socket: Socket) => {
    const held: number[] = [];
    socket.on("message", (data) => {
      const { id, method } = JSON.parse(String(data)) as { id: number; method: string };
      if (method === "Test.held") {
        held.push(id);
        if (held.length === holdFor) for (const heldId of held.splice(0)) socket.send(JSON.stringify({ id: heldId, result: {} }));
        return;
      }
      if (method === "Test.withEvent") socket.send(JSON.stringify({ method: "Test.happened", params: {} }));
      socket.send(JSON.stringify({ id, result: {} }));
    });
  });
  return {
    url: `ws://127.0.0.1:${server.address().port}/devtools/browser/fake`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A CDP client over the relay that records what it receives, in order. */
async function connectClient(url: string) {
  const socket = new bundledWebSocket.ws(url);
  const received: Array<{ id?: number; method?: string }> = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  socket.on("message", (data) => {
    received.push(JSON.parse(String(data)) as { id?: number; method?: string });
    for (const waiter of waiters.filter((entry) => received.length >= entry.count)) waiter.resolve();
  });
  await new Promise<void>((resolve) => socket.on("open", resolve));
  return {
    received,
    send: (id: number, method: string) => socket.send(JSON.stringify({ id, method, params: {} })),
    /** Resolves once `count` messages arrived in all. */
    until: (count: number) => new Promise<void>((resolve) => (received.length >= count ? resolve() : waiters.push({ count, resolve }))),
    close: () => socket.close(),
  };
}

const shape = (frames: readonly Frame[]) => frames.map((frame) => `${frame.kind} ${frame.id ?? frame.method}`);

describe("bench:cdp relay", () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function relayTo(browser: FakeBrowser): Promise<Relay> {
    const relay = await startRelay(browser.url);
    cleanup.push(() => browser.close(), () => relay.close());
    return relay;
  }

  it("logs commands, replies and events as the client sees them, and counts the command chain's depth", async () => {
    const relay = await relayTo(await startFakeBrowser());
    expect(relay.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/fake$/);
    const client = await connectClient(relay.url);
    cleanup.push(() => client.close());

    // Two commands sent together (neither reply exists before both are sent), then one after their replies.
    client.send(1, "Test.held");
    client.send(2, "Test.held");
    await client.until(2);
    client.send(3, "Test.withEvent");
    await client.until(4);

    expect(client.received.map((message) => message.id ?? message.method)).toEqual([1, 2, "Test.happened", 3]);
    expect(shape(relay.frames)).toEqual(["command 1", "command 2", "reply 1", "reply 2", "command 3", "event Test.happened", "reply 3"]);
    expect(relay.frames[0]!.method).toBe("Test.held");
    expect(serialRoundTrips(relay.frames)).toBe(2);
    expect(relay.outstanding()).toBe(0);
  });

  it("keeps the order of frames each way under an added delay", async () => {
    const relay = await relayTo(await startFakeBrowser(3));
    relay.delayMs = 5;
    const client = await connectClient(relay.url);
    cleanup.push(() => client.close());

    client.send(1, "Test.held");
    client.send(2, "Test.held");
    client.send(3, "Test.held");
    await client.until(3);
    client.send(4, "Test.withEvent");
    await client.until(5);

    expect(client.received.map((message) => message.id ?? message.method)).toEqual([1, 2, 3, "Test.happened", 4]);
    expect(shape(relay.frames)).toEqual(["command 1", "command 2", "command 3", "reply 1", "reply 2", "reply 3", "command 4", "event Test.happened", "reply 4"]);
    expect(serialRoundTrips(relay.frames)).toBe(2);
  });

  it("counts a chain of commands each sent after the previous reply as that many round trips", () => {
    const frames: Frame[] = [];
    for (let id = 1; id <= 4; id++) frames.push({ at: id, kind: "command", id }, { at: id + 0.5, kind: "reply", id });
    expect(serialRoundTrips(frames)).toBe(4);
    // A reply of a command from before the window does not deepen the chain.
    expect(serialRoundTrips([{ at: 0, kind: "reply", id: 99 }, { at: 1, kind: "command", id: 1 }])).toBe(1);
  });

  describe("with real Chromium", () => {
    let browser: CdpChromium | undefined;
    afterEach(async () => {
      await browser?.close();
      browser = undefined;
    });

    it("carries Playwright's connectOverCDP and names the code an evaluation runs", async () => {
      browser = await startCdpChromium();
      const relay = await startRelay(browser.wsUrl);
      cleanup.push(() => relay.close());
      const connected = await chromium.connectOverCDP(relay.url);
      cleanup.push(() => connected.close());
      const page = connected.contexts()[0]!.pages()[0] ?? (await connected.contexts()[0]!.newPage());

      const before = relay.frames.length;
      expect(await page.evaluate(() => 6 * 7)).toBe(42);
      const frames = relay.frames.slice(before);
      const evaluation = frames.find((frame) => frame.kind === "command" && frame.method === "Runtime.callFunctionOn");
      expect(evaluation?.detail).toBe("() => 6 * 7");
      // Every command of the evaluation got its reply through the relay.
      const commands = frames.filter((frame) => frame.kind === "command").map((frame) => frame.id);
      const replies = new Set(frames.filter((frame) => frame.kind === "reply").map((frame) => frame.id));
      expect(commands.length).toBeGreaterThan(0);
      expect(commands.filter((id) => !replies.has(id))).toEqual([]);
    });
  });
});
