/**
 * How much CPU Chromium spends right after an action returns, on the form of
 * bench/actions.ts through the manager on default options: its processes'
 * run time (every thread, from /proc/<pid>/task/<tid>/schedstat, Linux only)
 * while the action runs, and in the 40 ms after it returned. A caller timed
 * in-process stops its clock when the action returns; the client → worker
 * path still has its HTTP exchange to do then, and on a machine with few
 * cores that exchange shares them with this work (repainting after a fill,
 * a press or a click). Actions are spaced 60 ms apart so one's aftermath
 * does not run into the next.
 *
 * Run: `npx tsx bench/chromium-after-action.ts [rounds]` (default 30 rounds of fill, press, click, text).
 */
import { readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { BrowserSessionManager } from "../src/lifecycle/manager.js";
import { PlaywrightBrowserAdapter } from "../src/playwright.js";
import { chromiumBelow } from "../test/helpers/processes.js";
import { formCommand, formPage } from "./form-actions.js";
import { quantile } from "./paired-ratio.js";

const rounds = Number(process.argv[2] ?? 30);
const actions = ["fill", "press", "click", "text"] as const;
const afterMs = 40;

const server = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end(formPage));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const manager = new BrowserSessionManager(new PlaywrightBrowserAdapter(), 4, { ownsAdapter: true });
const { id } = await manager.open();
await manager.execute(id, { op: "navigate", url });
const chromium = chromiumBelow(process.pid).map((info) => info.pid);

/** Run time of every thread of this run's Chromium processes so far (ms). */
function chromiumCpuMs(): number {
  let nanoseconds = 0;
  for (const pid of chromium) {
    let threads: string[];
    try {
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // The process ended.
    }
    for (const thread of threads) {
      try {
        nanoseconds += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // The thread ended while we looked.
      }
    }
  }
  return nanoseconds / 1e6;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const during = new Map<string, number[]>(actions.map((action) => [action, []]));
const after = new Map<string, number[]>(actions.map((action) => [action, []]));
for (let round = -2; round < rounds; round++) {
  for (const action of actions) {
    await pause(60);
    const before = chromiumCpuMs();
    await manager.execute(id, formCommand(action, round, ""));
    const returned = chromiumCpuMs();
    await pause(afterMs);
    const later = chromiumCpuMs();
    if (round < 0) continue;
    during.get(action)!.push(returned - before);
    after.get(action)!.push(later - returned);
  }
}
console.log(`Chromium CPU around an action, ${rounds} rounds, ${chromium.length} processes (median / p90 ms), ${new Date().toISOString()}`);
for (const action of actions) {
  const cells = [during, after].map((times) => `${quantile(times.get(action)!, 0.5).toFixed(2)} / ${quantile(times.get(action)!, 0.9).toFixed(2)}`);
  console.log(`${action.padEnd(6)} while it runs ${cells[0]}   in the ${afterMs} ms after it returned ${cells[1]}`);
}
await manager.close();
await new Promise((resolve) => server.close(resolve));
