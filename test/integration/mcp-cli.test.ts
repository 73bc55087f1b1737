import type { ChildProcess } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { createBrowserWorker } from "../../src/worker/index.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { startWorkerServer } from "../helpers/worker-server.js";
import { chromiumBelow, startCli, stillRunning, type CliRun, type ProcessInfo } from "../helpers/processes.js";

/** `station-browser-use mcp` as an MCP client starts it: a child process speaking JSON-RPC on stdio. */

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await fixtures?.close();
});

type Run = CliRun;
const start = (args: string[], environment: Record<string, string> = {}): Run => startCli(["mcp", ...args], environment, "pipe");

/** A client transport over a child we spawned ourselves, so the test decides how it ends (stdin close or a signal). */
class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #buffer = new ReadBuffer();

  constructor(private readonly child: ChildProcess) {}

  async start(): Promise<void> {
    this.child.stdout!.on("data", (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (let message = this.#buffer.readMessage(); message !== null; message = this.#buffer.readMessage()) this.onmessage?.(message);
    });
    this.child.on("exit", () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.child.stdin!.write(serializeMessage(message));
  }

  async close(): Promise<void> {}
}


async function connect(run: Run): Promise<Client> {
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(new ChildTransport(run.child));
  return client;
}

/** Opens a page and takes a screenshot through the command; returns the Chromium processes it started. */
async function browse(run: Run, client: Client): Promise<ProcessInfo[]> {
  const opened = (await client.callTool({ name: "station_browser_open", arguments: { url: fixtures.url("/index.html") } })) as CallToolResult;
  expect(opened.isError).toBeUndefined();
  const shot = (await client.callTool({ name: "station_browser_screenshot", arguments: { session: "s1" } })) as CallToolResult;
  expect(shot.content.map((item) => item.type)).toEqual(["text", "image"]);
  expect(shot.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
  const chromium = chromiumBelow(run.child.pid!);
  expect(chromium.length).toBeGreaterThan(0);
  return chromium;
}

describe("station-browser-use mcp (stdio CLI)", () => {
  it("serves the tools over stdio (only JSON-RPC on stdout), and exits 0 leaving no Chromium when the client closes stdin", async () => {
    const run = start(["--max-sessions", "1"]);
    try {
      const client = await connect(run);
      expect(client.getServerVersion()?.name).toBe("station-browser-use");
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("station_browser_screenshot");
      expect(tools.find((tool) => tool.name === "station_browser_screenshot")!.annotations?.readOnlyHint).toBe(true);

      const chromium = await browse(run, client);
      const second = (await client.callTool({ name: "station_browser_open", arguments: {} })) as CallToolResult;
      expect(second.isError).toBe(true); // --max-sessions 1

      run.child.stdin!.end();
      expect(await run.exit).toBe(0);
      expect(run.stderr()).toMatch(/serving \d+ browser tools over stdio; browsers: local Chromium \(headless, up to 1 session\)/);
      expect(run.stderr()).toMatch(/stdin closed: closing every session and the browser[\s\S]*stopped/);
      expect(chromium.filter(stillRunning)).toEqual([]);
      const lines = run.stdout().split("\n").filter((line) => line !== "");
      expect(lines.length).toBeGreaterThanOrEqual(5);
      for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    } finally {
      run.child.kill("SIGKILL");
    }
  });

  it("on SIGTERM closes the sessions and the browser and exits 0", async () => {
    const run = start([]);
    try {
      const client = await connect(run);
      const chromium = await browse(run, client);
      run.child.kill("SIGTERM");
      expect(await run.exit).toBe(0);
      expect(run.stderr()).toMatch(/SIGTERM: closing every session and the browser[\s\S]*stopped/);
      expect(chromium.filter(stillRunning)).toEqual([]);
    } finally {
      run.child.kill("SIGKILL");
    }
  });

  it("with STATION_WORKER_URL drives a worker's browsers through the client, and closes its sessions there when stdin closes", async () => {
    const tenantKey = "tenant-mcp-".padEnd(40, "k");
    const adapter = new PlaywrightBrowserAdapter();
    const manager = new BrowserSessionManager(adapter, 2);
    const worker = await startWorkerServer(createBrowserWorker({ manager, token: "op-".padEnd(40, "x"), tenants: { [tenantKey]: "acme" }, stationId: "mcp-test" }));
    const run = start([], { STATION_WORKER_URL: worker.origin, STATION_API_KEY: tenantKey, STATION_ID: "mcp-test" });
    try {
      const client = await connect(run);
      const opened = (await client.callTool({ name: "station_browser_open", arguments: { url: fixtures.url("/index.html") } })) as CallToolResult;
      expect(opened.isError).toBeUndefined();
      const shot = (await client.callTool({ name: "station_browser_screenshot", arguments: { session: "s1" } })) as CallToolResult;
      expect(shot.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
      // The browser runs in the worker (this process), not under the command.
      expect(manager.list()).toHaveLength(1);
      expect(chromiumBelow(run.child.pid!)).toEqual([]);

      run.child.stdin!.end();
      expect(await run.exit).toBe(0);
      expect(run.stderr()).toContain(`browsers: worker ${worker.origin} (station mcp-test)`);
      expect(manager.list()).toEqual([]);
      expect(run.stdout() + run.stderr()).not.toContain(tenantKey);
    } finally {
      run.child.kill("SIGKILL");
      await worker.close();
      await manager.close();
      await adapter.shutdown();
    }
  });

  // Several CLI processes start one after another: on a loaded machine each takes seconds.
  it("prints help on stdout, and refuses secrets as flags and a half-set worker environment without echoing them", async () => {
    const help = start(["--help"]);
    expect(await help.exit).toBe(0);
    expect(help.stdout()).toMatch(/^Usage: station-browser-use mcp \[options\]/);

    const secret = "tenant-secret-value-0123456789";
    const flag = start(["--api-key", secret]);
    expect(await flag.exit).toBe(2);
    expect(flag.stderr()).toMatch(/--api-key is refused: secrets come from the environment only/);

    const halfSet = start([], { STATION_WORKER_URL: "http://127.0.0.1:9", STATION_API_KEY: secret });
    expect(await halfSet.exit).toBe(2);
    expect(halfSet.stderr()).toMatch(/STATION_WORKER_URL is set but STATION_ID is not/);

    for (const run of [flag, halfSet]) {
      expect(run.stdout()).toBe("");
      expect(run.stderr()).not.toContain(secret);
    }
  }, 120_000);
});
