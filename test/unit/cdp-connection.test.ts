import { describe, expect, it } from "vitest";
import { connectCdp, mayHaveRun, type CdpWebSocket } from "../../src/cdp/index.js";
import { isPayloadTooLargeError, isOutcomeUnknownError, isSessionClosedError } from "../../src/errors.js";

/**
 * The CDP client's connection logic against a scripted socket that keeps the
 * standard WebSocket's rules (close codes: 1000 or 3000–4999, else it throws),
 * for what a real Chromium never does: malformed messages, late answers, and
 * the socket a standard runtime hands out.
 */
class ScriptedSocket implements CdpWebSocket {
  readyState = 0;
  binaryType = "blob";
  readonly sent: Array<{ id: number; method: string; sessionId?: string }> = [];
  readonly closeCodes: Array<number | undefined> = [];
  readonly #listeners = new Map<string, Array<(event: never) => void>>();

  addEventListener(type: string, listener: (event: never) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  #emit(type: string, event: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) (listener as (event: unknown) => void)(event);
  }
  send(data: string): void {
    if (this.readyState !== 1) throw new Error("InvalidStateError");
    this.sent.push(JSON.parse(data) as { id: number; method: string });
  }
  close(code?: number): void {
    if (code !== undefined && code !== 1000 && (code < 3000 || code > 4999)) throw new Error(`InvalidAccessError: close code ${code}`);
    this.closeCodes.push(code);
    if (this.readyState >= 2) return;
    this.readyState = 2;
    queueMicrotask(() => this.peerClosed(code ?? 1005));
  }
  open(): void {
    this.readyState = 1;
    this.#emit("open", {});
  }
  receive(message: unknown): void {
    this.#emit("message", { data: typeof message === "string" ? message : JSON.stringify(message) });
  }
  peerClosed(code: number): void {
    this.readyState = 3;
    this.#emit("close", { code, reason: "" });
  }
}

async function scripted(options: { maxMessageBytes?: number; callTimeoutMs?: number } = {}) {
  const socket = new ScriptedSocket();
  const connecting = connectCdp("ws://127.0.0.1:9/devtools/browser/x", { ...options, webSocket: () => socket });
  socket.open();
  return { socket, connection: await connecting };
}

const failure = (promise: Promise<unknown>) => promise.then(() => expect.unreachable("expected a failure"), (error: unknown) => error);

describe("CDP connection (scripted socket)", () => {
  it("numbers calls, routes answers by id and sends a session's calls with its id", async () => {
    const { socket, connection } = await scripted();
    const version = connection.browser.send("Browser.getVersion");
    const targets = connection.browser.send("Target.getTargets");
    expect(socket.binaryType).toBe("arraybuffer");
    expect(socket.sent.map(({ id, method }) => [id, method])).toEqual([[1, "Browser.getVersion"], [2, "Target.getTargets"]]);
    socket.receive({ id: 2, result: { targetInfos: [] } });
    socket.receive({ id: 1, result: { product: "Chrome/1" } });
    expect(await targets).toEqual({ targetInfos: [] });
    expect((await version).product).toBe("Chrome/1");
    socket.receive({ method: "Target.attachedToTarget", params: { sessionId: "S1", targetInfo: { targetId: "T1", type: "page" }, waitingForDebugger: false } });
    const evaluation = connection.session("S1")!.send("Runtime.evaluate", { expression: "1" });
    expect(socket.sent[2]).toMatchObject({ id: 3, method: "Runtime.evaluate", sessionId: "S1" });
    socket.receive({ id: 3, sessionId: "S1", result: { result: { type: "number", value: 1 } } });
    expect((await evaluation).result.value).toBe(1);
  });

  it("closes with a code the standard WebSocket accepts when a message is too large, failing the pending calls", async () => {
    const { socket, connection } = await scripted({ maxMessageBytes: 1024 });
    const pending = failure(connection.browser.send("Target.getTargets"));
    socket.receive("x".repeat(2000));
    const error = await pending;
    expect(isPayloadTooLargeError(error)).toBe(true);
    expect(String(error)).toContain("an incoming CDP message of 2000 bytes exceeds the limit of 1024 bytes");
    expect(socket.closeCodes).toEqual([1000]);
    expect((await connection.closed).tooLarge).toBe(true);
  });

  it("counts UTF-8 bytes, not characters, against the limit", async () => {
    const { socket, connection } = await scripted({ maxMessageBytes: 1024 });
    const pending = failure(connection.browser.send("Target.getTargets"));
    // 400 characters, 1200 bytes.
    socket.receive(JSON.stringify({ method: "Inspector.note", params: { text: "€".repeat(400) } }));
    expect(isPayloadTooLargeError(await pending)).toBe(true);
  });

  it("fails the pending calls and closes when the browser sends something that is not a JSON object", async () => {
    const { socket, connection } = await scripted();
    const pending = failure(connection.browser.send("Target.getTargets"));
    socket.receive("not json");
    const error = await pending;
    expect(isOutcomeUnknownError(error)).toBe(true);
    expect(String(error)).toMatch(/CDP Target\.getTargets got no answer: the browser sent a CDP message that is not a JSON object/);
    expect(socket.closeCodes).toEqual([1000]);
  });

  it("drops an answer that comes after its call's deadline, and keeps going", async () => {
    const { socket, connection } = await scripted();
    const late = failure(connection.browser.send("Target.getTargets", {}, { timeoutMs: 1 }));
    expect(mayHaveRun(await late)).toBe(true);
    socket.receive({ id: 1, result: { targetInfos: [] } });
    const next = connection.browser.send("Browser.getVersion");
    socket.receive({ id: 2, result: { product: "Chrome/2" } });
    expect((await next).product).toBe("Chrome/2");
  });

  it("cancels the opening through its signal and closes the socket it made", async () => {
    const socket = new ScriptedSocket();
    const controller = new AbortController();
    const connecting = failure(connectCdp("ws://127.0.0.1:9/devtools/browser/x?apiKey=sk-hidden-123456", { webSocket: () => socket, signal: controller.signal }));
    controller.abort();
    const error = await connecting;
    expect(String(error)).toContain("the CDP connection to ws://127.0.0.1:9/devtools/browser/x was cancelled before it opened");
    expect(String(error)).not.toContain("sk-hidden");
    expect(socket.closeCodes).toEqual([undefined]);
  });

  it("refuses a call at once after the peer closed, and fails a wait for an event", async () => {
    const { socket, connection } = await scripted();
    const waiting = failure(connection.browser.waitForEvent("Target.targetCreated"));
    socket.peerClosed(1006);
    const waitError = await waiting;
    expect(isSessionClosedError(waitError)).toBe(true);
    expect(String(waitError)).toContain("CDP Target.targetCreated will not arrive: the CDP connection closed (code 1006)");
    const refused = await failure(connection.browser.send("Browser.getVersion"));
    expect(String(refused)).toContain("CDP Browser.getVersion was not sent: the CDP connection closed (code 1006)");
    expect(socket.sent).toHaveLength(0);
  });
});
