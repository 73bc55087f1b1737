/**
 * Action-overhead benchmark: the same actions on the same local form, in one
 * run, interleaved round by round, through four paths on default options:
 *
 * - raw playwright-core (`locator.fill/click/press`, `page.innerText`),
 * - the engine in-process (`PlaywrightBrowserAdapter.execute`),
 * - the manager in-process (`BrowserSessionManager.execute`: admission, journal),
 * - the client over real HTTP to a worker on loopback (`BrowserUseClient.execute`,
 *   from the `node` condition of `/agent`, as a Node app imports it).
 *
 * Each round runs fill, click, press and an observation (visible text) on
 * every path; the order of the paths rotates every round so no path always
 * goes first. Prints per-op medians, p90 and the ratio of medians to raw, and
 * beside it the paired ratio: the median over rounds of each time against raw's
 * time of the same action in the same round, which a machine whose speed
 * drifts during the run moves less (see bench/paired-ratio.ts); for all ops
 * together, of each round's total against raw's.
 * Every path uses the defaults a user gets: nothing is switched off here.
 *
 * Run: `npx tsx bench/actions.ts [rounds]` (default 50 rounds = 200 actions a path).
 * Environment: `CHROMIUM_PATH`. Pages are served on 127.0.0.1; no corpus needed.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Page } from "playwright-core";
// What a Node app gets from `station-browser-use/agent` (its `node` condition): the client posting over node:http.
import { BrowserUseClient } from "../src/agent-node.js";
import { PlaywrightBrowserAdapter, closedNetworkArgs, findChromium } from "../src/playwright.js";
import { BrowserSessionManager } from "../src/lifecycle/manager.js";
import type { BrowserCommandInput } from "../src/protocol/commands.js";
import { createBrowserWorker } from "../src/worker/index.js";
import { formCommand, formPage as page, rawFormAction } from "./form-actions.js";
import { pairedRatio, quantile } from "./paired-ratio.js";

const rounds = Number(process.argv[2] ?? 50);
const ops = ["fill", "click", "press", "observe"] as const;
type Op = (typeof ops)[number];


/** One path: how it runs each op. */
interface Path {
  name: string;
  run(op: Op, round: number): Promise<void>;
  close(): Promise<void>;
}

/** The benchmark's "observe" is the visible-text read, the observation an action tool result carries. */
const actionOf = (op: Op) => (op === "observe" ? "text" : op);
const commandOf = (op: Op, round: number): BrowserCommandInput => formCommand(actionOf(op), round, "");

async function rawPath(url: string): Promise<Path> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? findChromium(), args: [...closedNetworkArgs] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const target: Page = await context.newPage();
  await target.goto(url);
  return {
    name: "raw playwright-core",
    async run(op, round) {
      await rawFormAction(target, actionOf(op), round, url);
    },
    close: () => browser.close(),
  };
}

async function main(): Promise<void> {
  const server = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end(page));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  const engineAdapter = new PlaywrightBrowserAdapter();
  const engineHandle = await engineAdapter.open();
  await engineAdapter.execute(engineHandle, { op: "navigate", url });

  const managerAdapter = new PlaywrightBrowserAdapter();
  const manager = new BrowserSessionManager(managerAdapter, 4);
  const managed = await manager.open();
  await manager.execute(managed.id, { op: "navigate", url });

  const workerAdapter = new PlaywrightBrowserAdapter();
  const workerManager = new BrowserSessionManager(workerAdapter, 4);
  const token = "bench-operator-token-".padEnd(40, "x");
  const tenantKey = "bench-tenant-key-".padEnd(40, "k");
  const worker = createBrowserWorker({ manager: workerManager, token, tenants: { [tenantKey]: "bench" }, stationId: "local" });
  const workerServer = createServer(worker.handleNode);
  await new Promise<void>((resolve) => workerServer.listen(0, "127.0.0.1", resolve));
  const client = new BrowserUseClient({ baseUrl: `http://127.0.0.1:${(workerServer.address() as AddressInfo).port}`, stationId: "local", apiKey: tenantKey });
  const remote = await client.open();
  await client.execute(remote.id, { op: "navigate", url });

  const paths: Path[] = [
    await rawPath(url),
    { name: "engine (adapter.execute)", run: async (op, round) => void (await engineAdapter.execute(engineHandle, commandOf(op, round))), close: () => engineAdapter.shutdown() },
    { name: "manager (in-process)", run: async (op, round) => void (await manager.execute(managed.id, commandOf(op, round))), close: async () => { await manager.close(); await managerAdapter.shutdown(); } },
    { name: "client → worker (HTTP)", run: async (op, round) => void (await client.execute(remote.id, commandOf(op, round))), close: async () => { await client.close(remote.id); await workerManager.close(); await workerAdapter.shutdown(); } },
  ];
  const times = new Map<string, Map<Op, number[]>>(paths.map((path) => [path.name, new Map(ops.map((op) => [op, [] as number[]]))]));

  // Warm-up: one round per path, not counted.
  for (const path of paths) for (const op of ops) await path.run(op, -1);
  for (let round = 0; round < rounds; round++) {
    const order = paths.map((_, index) => paths[(index + round) % paths.length]!);
    for (const op of ops) {
      for (const path of order) {
        const started = performance.now();
        await path.run(op, round);
        times.get(path.name)!.get(op)!.push(performance.now() - started);
      }
    }
  }

  const raw = times.get(paths[0]!.name)!;
  /** Each round's time for all ops together (so the paired figure of all ops weighs each op by its time, as the sums a caller waits do). */
  const roundTotals = (byOp: Map<Op, number[]>) => Array.from({ length: rounds }, (_, round) => ops.reduce((sum, op) => sum + byOp.get(op)![round]!, 0));
  console.log(`Action overhead, ${rounds} rounds (${rounds * ops.length} actions a path), ${new Date().toISOString()}`);
  console.log(["path", ...ops.map((op) => `${op} median/p90 ms (×raw, paired)`), "all ops median ×raw", "all ops paired ×raw (round totals)"].join(" | "));
  for (const path of paths) {
    const mine = times.get(path.name)!;
    const cells = ops.map((op) => {
      const median = quantile(mine.get(op)!, 0.5);
      const ratio = median / quantile(raw.get(op)!, 0.5);
      return `${median.toFixed(2)}/${quantile(mine.get(op)!, 0.9).toFixed(2)} (${ratio.toFixed(2)}×, ${pairedRatio(mine.get(op)!, raw.get(op)!).toFixed(2)}×)`;
    });
    const all = ops.flatMap((op) => mine.get(op)!);
    const allRaw = ops.flatMap((op) => raw.get(op)!);
    console.log([path.name, ...cells, `${(quantile(all, 0.5) / quantile(allRaw, 0.5)).toFixed(2)}×`, `${pairedRatio(roundTotals(mine), roundTotals(raw)).toFixed(2)}×`].join(" | "));
  }
  for (const path of paths) await path.close();
  await new Promise((resolve) => workerServer.close(resolve));
  await new Promise((resolve) => server.close(resolve));
}

await main();
