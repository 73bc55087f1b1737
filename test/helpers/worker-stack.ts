/**
 * The whole remote stack on loopback for a test file: real Chromium behind a
 * manager, a worker on real HTTP, a fault-injecting proxy in front of it, and
 * the fixture pages. Call `stop()` (idempotent) after the file's tests.
 */
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { createBrowserWorker } from "../../src/worker/index.js";
import { startFaultProxy, type FaultProxy } from "./fault-proxy.js";
import { startFixtureServer, type FixtureServer } from "./fixture-server.js";
import { startWorkerServer, type WorkerServer } from "./worker-server.js";

export interface WorkerStack {
  adapter: PlaywrightBrowserAdapter;
  manager: BrowserSessionManager;
  worker: WorkerServer;
  proxy: FaultProxy;
  fixtures: FixtureServer;
  /** Stops the proxy, worker, manager and browser (not the fixture server, which `close()` also stops). */
  stopBrowsers(): Promise<void>;
  /** Stops everything. */
  close(): Promise<void>;
}

/** Starts the stack: the operator token and one tenant key (tenant `acme`). */
export async function startWorkerStack(options: { token: string; tenantKey: string; maxSessions: number }): Promise<WorkerStack> {
  const adapter = new PlaywrightBrowserAdapter();
  const manager = new BrowserSessionManager(adapter, options.maxSessions);
  const worker = await startWorkerServer(
    createBrowserWorker({ manager, token: options.token, tenants: { [options.tenantKey]: "acme" }, stationId: "local" }),
  );
  const proxy = await startFaultProxy(worker.origin);
  const fixtures = await startFixtureServer();
  let stopped: Promise<void> | undefined;
  const stopBrowsers = () =>
    (stopped ??= (async () => {
      await proxy.close();
      await worker.close();
      await manager.close();
      await adapter.shutdown();
    })());
  return {
    adapter,
    manager,
    worker,
    proxy,
    fixtures,
    stopBrowsers,
    async close() {
      await stopBrowsers();
      await fixtures.close();
    },
  };
}
