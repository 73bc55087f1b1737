/**
 * The whole stack for the fault suite, on loopback: agent tools → client →
 * fault proxy → worker (real HTTP) → manager → engine → local Chromium, with
 * a page server that counts every request, so an action that ran twice
 * shows. The engine is the Playwright adapter, or the CDP adapter over a
 * Chromium of its own per session (`createLocalCdpProvider`). The worker can
 * be restarted behind the same proxy.
 */
import { createBrowserAgentTools, type BrowserAgentTools } from "../../src/agent-tools/index.js";
import type { AgentTool } from "../../src/agent-tools/types.js";
import { BrowserUseClient } from "../../src/client/index.js";
import { CdpBrowserAdapter } from "../../src/cdp/adapter/index.js";
import { PlaywrightBrowserAdapter, type PlaywrightBrowserAdapterOptions } from "../../src/engine/adapter.js";
import { nodeWebSocket } from "../../src/engine/node-websocket.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { createMemoryStateStore } from "../../src/lifecycle/memory-stores.js";
import type { StateStore } from "../../src/lifecycle/stores.js";
import type { SessionManagerOptions } from "../../src/lifecycle/options.js";
import type { BrowserAdapter } from "../../src/protocol/adapter.js";
import type { CommandOp } from "../../src/protocol/commands.js";
import { createLocalCdpProvider } from "../../src/providers/local/cdp-chromium.js";
import type { BrowserProvider, ProviderSession } from "../../src/providers/types.js";
import { createBrowserWorker } from "../../src/worker/index.js";
import { startFaultProxy, type FaultProxy } from "../helpers/fault-proxy.js";
import { startHoldingServer, type HeldPage, type HoldingServer } from "../helpers/holding-server.js";
import { chromiumBelow } from "../helpers/processes.js";
import { startWorkerServer, type WorkerServer } from "../helpers/worker-server.js";
import { capturingFetch, collect, collectAnswers, collectError, collectStore } from "./artefacts.js";

export const token = "op-faults-".padEnd(40, "x");
export const tenantKey = "tenant-faults-".padEnd(40, "k");

/** Pages: a form whose button POSTs to /hit (counted by the server), and a plain page. */
export const pages: Record<string, string> = {
  "/form": `<title>Form</title><form method="post" action="/hit"><button id="go">Send</button></form>`,
  "/hit": `<title>Hit</title><p>sent</p>`,
  "/plain": `<title>Plain</title><p>plain page</p>`,
};

/** The engines a stack can drive its browsers with. */
export const engines = ["Playwright", "CDP"] as const;
export type Engine = (typeof engines)[number];

/** Where a CDP engine session connects: its Chromium's `cdpUrl`, or (a scenario's choice) a relay in front of it. */
export type CdpRoute = (cdpUrl: string) => Promise<string>;

export interface Backend {
  engine: Engine;
  adapter: StackAdapter;
  manager: BrowserSessionManager;
  worker: WorkerServer;
  /** Errors the worker answered as `internal` (an exception nothing in the package raised on purpose). */
  internalErrors: { method: string | undefined; error: unknown }[];
  /** The manager's state store, when the stack made it (read for the secrets scan when the backend stops). */
  store?: StateStore;
}

/** The local CDP provider, each session's `cdpUrl` passed through `route()` (the stack's current route). */
function routedCdpProvider(route: () => CdpRoute | undefined): BrowserProvider & { shutdown(): Promise<void> } {
  const local = createLocalCdpProvider();
  const routed = async (session: ProviderSession): Promise<ProviderSession> => {
    const via = route();
    return via && session.cdpUrl ? { ...session, cdpUrl: await via(session.cdpUrl) } : session;
  };
  return { ...local, create: async (request) => routed(await local.create(request)) };
}

/** The CDP engine on local Chromium, whose shutdown also ends every Chromium its provider started. */
class LocalCdpAdapter extends CdpBrowserAdapter {
  readonly #provider: ReturnType<typeof routedCdpProvider>;
  constructor(provider: ReturnType<typeof routedCdpProvider>, options: PlaywrightBrowserAdapterOptions) {
    const { watchdogGraceMs, downloadMaxBytes } = options;
    super({ provider, webSocket: nodeWebSocket, ...(watchdogGraceMs === undefined ? {} : { watchdogGraceMs }), ...(downloadMaxBytes === undefined ? {} : { downloadMaxBytes }) });
    this.#provider = provider;
  }
  override async shutdown(): Promise<void> {
    await super.shutdown();
    await this.#provider.shutdown();
  }
}

type StackAdapter = BrowserAdapter & { shutdown(): Promise<void> };

function startAdapter(engine: Engine, options: PlaywrightBrowserAdapterOptions, route: () => CdpRoute | undefined): StackAdapter {
  return engine === "Playwright" ? new PlaywrightBrowserAdapter(options) : new LocalCdpAdapter(routedCdpProvider(route), options);
}

async function startBackend(engine: Engine, maxSessions: number, adapterOptions: PlaywrightBrowserAdapterOptions, managerOptions: SessionManagerOptions, route: () => CdpRoute | undefined): Promise<Backend> {
  const adapter = startAdapter(engine, adapterOptions, route);
  // The manager's default store, made here so the secrets scan can read its journal, checkpoints and ledger.
  const store = managerOptions.stateStore === undefined && managerOptions.stateRootDir === undefined ? createMemoryStateStore() : undefined;
  const manager = new BrowserSessionManager(adapter, maxSessions, store ? { ...managerOptions, stateStore: store } : managerOptions);
  const internalErrors: Backend["internalErrors"] = [];
  const onError = (error: unknown, context: { method: string | undefined }) => void internalErrors.push({ method: context.method, error });
  const worker = await startWorkerServer(createBrowserWorker({ manager, token, tenants: { [tenantKey]: "faults" }, stationId: "local", onError }));
  return { engine, adapter, manager, worker, internalErrors, ...(store ? { store } : {}) };
}

async function stopBackend(backend: Backend): Promise<void> {
  await backend.worker.close();
  // For the secrets scan: what this worker answered and the failures it reported.
  collectAnswers(backend.worker.bodies);
  for (const { error } of backend.internalErrors) collectError("worker onError", error);
  await backend.manager.close();
  await backend.adapter.shutdown();
  if (backend.store) await collectStore(backend.store);
}

export interface FaultStack {
  engine: Engine;
  backend: Backend;
  /** The ops of the protocol the stack's engine does not implement (a scenario that needs one is not run). */
  missing(ops: readonly CommandOp[]): CommandOp[];
  /** CDP engine: where sessions opened from now on connect (undefined: straight to their Chromium). */
  routeCdp(route: CdpRoute | undefined): void;
  proxy: FaultProxy;
  pages: HoldingServer;
  /** A client through the proxy. */
  client(timeoutMs?: number): BrowserUseClient;
  /** A toolset on a client through the proxy. */
  toolset(maxSessions: number, timeoutMs?: number): { toolset: BrowserAgentTools; tool(name: string): AgentTool };
  /** POSTs to /hit the page server saw. */
  hits(): number;
  /** Stops the worker, its manager and its Chromium, runs `whileStopped`, and starts a fresh one behind the same proxy. */
  restartWorker(whileStopped?: () => Promise<void>): Promise<void>;
  /** Chromium processes below this process. */
  chromium(): number;
  close(): Promise<void>;
}

const collectResult = <Result extends { text: string }>(result: Result): Result => (collect("tool result", result.text), result);

/**
 * `managerOptions` is called for each manager (a restart makes a new one: a
 * fresh state store, say). `adapterOptions` are the Playwright engine's; the
 * CDP engine takes `watchdogGraceMs` of them (at least its own floor, 3 s).
 */
export async function startFaultStack(
  maxSessions = 8,
  adapterOptions: PlaywrightBrowserAdapterOptions = {},
  extraPages: Record<string, HeldPage> = {},
  managerOptions: () => SessionManagerOptions = () => ({}),
  engine: Engine = "Playwright",
): Promise<FaultStack> {
  let route: CdpRoute | undefined;
  const currentRoute = () => route;
  let backend = await startBackend(engine, maxSessions, adapterOptions, managerOptions(), currentRoute);
  const proxy = await startFaultProxy(backend.worker.origin);
  const served = await startHoldingServer({ ...pages, ...extraPages });
  const client = (timeoutMs = 30_000) => new BrowserUseClient({ baseUrl: proxy.origin, stationId: "local", apiKey: tenantKey, timeoutMs, fetch: capturingFetch });
  return {
    engine,
    get backend() {
      return backend;
    },
    missing(ops) {
      const implemented = new Set(backend.adapter.capabilities().ops);
      return ops.filter((op) => !implemented.has(op));
    },
    routeCdp(next) {
      route = next;
    },
    proxy,
    pages: served,
    client,
    toolset(max, timeoutMs) {
      const toolset = createBrowserAgentTools({ client: client(timeoutMs), maxSessions: max });
      return {
        toolset,
        tool: (name) => {
          const found = toolset.tools.find((candidate) => candidate.name === `station_browser_${name}`);
          if (!found) throw new Error(`no tool ${name}`);
          // Results go to the secrets scan.
          return { ...found, execute: async (input, callOptions) => collectResult(await found.execute(input, callOptions)) };
        },
      };
    },
    hits: () => served.requests.filter((request) => request === "POST /hit").length,
    async restartWorker(whileStopped) {
      await stopBackend(backend);
      await whileStopped?.();
      backend = await startBackend(engine, maxSessions, adapterOptions, managerOptions(), currentRoute);
      proxy.retarget(backend.worker.origin);
    },
    chromium: () => chromiumBelow(process.pid).filter((info) => info.state !== "Z").length,
    async close() {
      proxy.releaseHeld();
      await proxy.close();
      await stopBackend(backend);
      await served.close();
    },
  };
}
