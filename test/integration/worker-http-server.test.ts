import { once } from "node:events";
import { connect, type AddressInfo, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserUseClient } from "../../src/client/index.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { workerRoute } from "../../src/protocol/wire.js";
import { createBrowserWorker, createWorkerHttpServer, resolveWorkerHttpServerOptions } from "../../src/worker/index.js";
import { startWorkerServer, type WorkerServer } from "../helpers/worker-server.js";

const token = "http-limits-token-0123456789abcdef-ZZ";
const path = workerRoute("h1", "operator");

let adapter: PlaywrightBrowserAdapter;
let manager: BrowserSessionManager;
const servers: WorkerServer[] = [];

beforeAll(() => {
  adapter = new PlaywrightBrowserAdapter();
  manager = new BrowserSessionManager(adapter, 1);
});
afterAll(async () => {
  await Promise.all(servers.map((each) => each.close()));
  await manager?.close();
  await adapter?.shutdown();
});

async function serve(options: Parameters<typeof createWorkerHttpServer>[1]) {
  const worker = createBrowserWorker({ manager, token, stationId: "h1" });
  const httpServer = createWorkerHttpServer(worker, options);
  const server = await startWorkerServer(worker, httpServer);
  servers.push(server);
  return { httpServer, server, port: (httpServer.address() as AddressInfo).port };
}

/** A client that sends its request headers one byte at a time and never finishes them. */
function slowLoris(port: number): { socket: Socket; received: Promise<string> } {
  const socket = connect(port, "127.0.0.1");
  const bytes = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${"a".repeat(100_000)}`;
  let sent = 0;
  let received = "";
  const drip = setInterval(() => {
    if (!socket.destroyed && sent < bytes.length) socket.write(bytes[sent++]!);
  }, 20);
  socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
  socket.on("error", () => undefined);
  return {
    socket,
    received: new Promise((resolve) =>
      socket.on("close", () => {
        clearInterval(drip);
        resolve(received);
      }),
    ),
  };
}

describe("the worker's HTTP server (real sockets)", () => {
  it("cuts off clients that send their headers byte by byte, with 408, and still serves a normal client", async () => {
    const { server, port } = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const slow = [slowLoris(port), slowLoris(port)];
    for (const answer of await Promise.all(slow.map((client) => client.received))) expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    const listed = await server.post(path, token, { method: "list" });
    expect({ status: listed.status, data: listed.json?.data }).toEqual({ status: 200, data: [] });
  });

  it("drops connections past the maximum at once; a normal client gets through once one is freed", async () => {
    const { httpServer, server, port } = await serve({ maxConnections: 2 });
    let connections = 0;
    const bothConnected = new Promise<void>((resolve) => httpServer.on("connection", () => ++connections === 2 && resolve()));
    const idle = [connect(port, "127.0.0.1"), connect(port, "127.0.0.1")];
    await bothConnected;
    const dropped = once(httpServer, "drop");
    const third = connect(port, "127.0.0.1");
    third.on("error", () => undefined);
    let thirdReceived = "";
    third.on("data", (chunk: Buffer) => (thirdReceived += chunk.toString()));
    await Promise.all([dropped, once(third, "close")]);
    expect(thirdReceived).toBe("");

    const freed = once(idle[0]!, "close");
    idle[0]!.destroy();
    await freed;
    // The server counts the connection gone once it sees the close; a refused attempt is retried by a new connection.
    await expect
      .poll(async () => (await server.post(path, token, { method: "list" }).catch(() => undefined))?.status, { timeout: 10_000 })
      .toBe(200);
    idle[1]!.destroy();
  });

  it("keeps the client's connection alive: 22 calls of one client travel over at most two connections", async () => {
    const { httpServer, server } = await serve({});
    let connections = 0;
    let requests = 0;
    httpServer.on("connection", () => connections++);
    httpServer.on("request", () => requests++);
    const client = new BrowserUseClient({ baseUrl: server.origin, stationId: "h1", apiKey: token, operator: true });
    const { id } = await client.open();
    for (let call = 0; call < 20; call++) expect((await client.execute(id, { op: "text" })).truncated).toBe(false);
    await client.close(id);
    // undici may open a second connection while the first is still being handed back to its pool; never one per call.
    expect({ requests, fewConnections: connections >= 1 && connections <= 2 }).toEqual({ requests: 22, fewConnections: true });
  });

  it("keeps an idle connection for a minute by default and says so, so a call after a model turn does not connect again", async () => {
    const { httpServer, server } = await serve({});
    const answer = await server.post(path, token, { method: "list" });
    // Node's fetch (undici) keeps an idle connection for the server's timeout less 2 s; at Node's own 5 s that was 3 s.
    expect({ status: answer.status, keepAlive: answer.headers.get("keep-alive"), connection: answer.headers.get("connection"), serverMs: httpServer.keepAliveTimeout }).toEqual({
      status: 200,
      keepAlive: "timeout=60",
      connection: "keep-alive",
      serverMs: 60_000,
    });
  });

  it("validates its options, naming the field", () => {
    expect(() => resolveWorkerHttpServerOptions({ maxConnections: 0 })).toThrow(/^options\.maxConnections: /);
    expect(() => resolveWorkerHttpServerOptions({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 })).toThrow(
      "options.headersTimeoutMs: must not exceed requestTimeoutMs (1000 ms)",
    );
    expect(() => resolveWorkerHttpServerOptions({ headersTimeout: 5 } as never)).toThrow(/headersTimeout/);
    expect(resolveWorkerHttpServerOptions()).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 60_000, maxConnections: 256 });
  });
});
