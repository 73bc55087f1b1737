/**
 * What the HTTP exchange alone costs: the same commands through the manager
 * in-process and through `BrowserUseClient` → worker on loopback, both on one
 * manager over the in-memory adapter of the tests (no browser), so the
 * difference is the client, the wire and the worker. Interleaved call by
 * call, as in bench/actions.ts; default options everywhere.
 *
 * Prints the medians, their difference, the CPU time of the process per call
 * pair (both threads of the exchange run in this process) and how many TCP
 * connections the worker accepted. A fresh process runs cold, like the 200
 * calls a path of bench/actions.ts; pass more calls to see it warm.
 * With `--cpu-prof` (`node --import tsx --cpu-prof bench/wire-probe.ts`) it
 * shows where the time goes.
 *
 * Run: `npm run bench:wire [calls]` (default 250).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
// What a Node app gets from `station-browser-use/agent` (its `node` condition): the client posting over node:http.
import { BrowserUseClient } from "../src/agent-node.js";
import { BrowserSessionManager } from "../src/lifecycle/manager.js";
import type { BrowserHandle } from "../src/protocol/adapter.js";
import { isObservationCommand } from "../src/protocol/command-ops.js";
import type { BrowserCommand, BrowserCommandInput } from "../src/protocol/commands.js";
import type { CommandResult } from "../src/protocol/results.js";
import { createBrowserWorker } from "../src/worker/index.js";
import { FakeAdapter } from "../test/helpers/fake-adapter.js";
import { formCommand } from "./form-actions.js";

/** The test adapter, with the fields every action result carries now (the client checks each result against the protocol). */
class ProbeAdapter extends FakeAdapter {
  override async execute<Command extends BrowserCommand | BrowserCommandInput>(handle: BrowserHandle, command: Command, signal?: AbortSignal): Promise<CommandResult<Command["op"]>> {
    const result = await super.execute(handle, command, signal);
    return (isObservationCommand(command) ? result : { navigated: false, newPages: [], ...result }) as CommandResult<Command["op"]>;
  }
}

const calls = Number(process.argv[2] ?? 250);
const manager = new BrowserSessionManager(new ProbeAdapter(), 4);
const token = "probe-operator-token-".padEnd(40, "x");
const tenantKey = "probe-tenant-key-".padEnd(40, "k");
const worker = createBrowserWorker({ manager, token, tenants: { [tenantKey]: "probe" }, stationId: "local" });
const server = createServer(worker.handleNode);
let connections = 0;
server.on("connection", () => connections++);
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const client = new BrowserUseClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stationId: "local", apiKey: tenantKey });
const remote = await client.open();
const local = await manager.open();

const actions = ["fill", "click", "press", "text"] as const;
const commandOf = (call: number): BrowserCommandInput => formCommand(actions[call % actions.length]!, call, "");
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const times = { manager: [] as number[], client: [] as number[] };
const cpuStart = process.cpuUsage();
for (let call = 0; call < calls; call++) {
  let started = performance.now();
  await manager.execute(local.id, commandOf(call));
  times.manager.push(performance.now() - started);
  started = performance.now();
  await client.execute(remote.id, commandOf(call));
  times.client.push(performance.now() - started);
}
const cpu = process.cpuUsage(cpuStart);
const [inProcess, overHttp] = [median(times.manager), median(times.client)];
console.log(
  `${calls} calls: manager ${inProcess.toFixed(3)} ms, client → worker ${overHttp.toFixed(3)} ms (median), exchange ≈ ${(overHttp - inProcess).toFixed(3)} ms; ` +
    `CPU ${((cpu.user + cpu.system) / 1000 / calls).toFixed(3)} ms a call pair; worker connections: ${connections}`,
);
await client.close(remote.id);
await manager.close();
server.closeAllConnections();
await new Promise((resolve) => server.close(resolve));
