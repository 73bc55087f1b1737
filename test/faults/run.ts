/**
 * `npm run test:faults`: the whole stack under injected faults and hostile
 * input. Prints one table of figures (Markdown, the README quotes it) and
 * exits non-zero when a check failed. `--only <group>[,<group>…]` runs those groups.
 */
import { chromiumBelow } from "../helpers/processes.js";
import { unhandled } from "./process-watch.js";
import { captureLogs } from "./artefacts.js";
import { fuzzScenarios } from "./fuzz.js";
import { injectionPages, injectionScenarios } from "./injection.js";
import { engines, startFaultStack, type Engine, type FaultStack } from "./stack.js";
import { passed, renderTable, type Row } from "./table.js";
import { browserDownloadMaxBytes, browserPages, browserScenarios } from "./browser.js";
import { providerScenarios } from "./provider.js";
import { loadScenarios } from "./load.js";
import { storageScenarios } from "./storage.js";
import { secretsScenarios } from "./secrets.js";
import { tenancyScenarios } from "./tenancy.js";
import { transportScenarios } from "./transport.js";
import { fakeLookup, policyPages, policyScenarios, privateNetworkScenarios } from "./url-policy.js";

/** Runs `body` on a fresh stack, closed after. */
const onStack =
  (body: (stack: FaultStack, rows: Row[]) => Promise<void>, ...options: Parameters<typeof startFaultStack>) =>
  async (rows: Row[]) => {
    const stack = await startFaultStack(...options);
    try {
      await body(stack, rows);
    } finally {
      await stack.close();
    }
  };

/** `--engine Playwright|CDP`: the engines the transport and browser groups run on (default both, one stack each in turn). */
const engineFlag = process.argv.includes("--engine") ? process.argv[process.argv.indexOf("--engine") + 1] : undefined;
if (engineFlag !== undefined && !engines.some((engine) => engine.toLowerCase() === engineFlag.toLowerCase())) {
  process.stderr.write(`--engine: expected one of ${engines.join(", ")}\n`);
  process.exit(2);
}
const selectedEngines: readonly Engine[] = engines.filter((engine) => engineFlag === undefined || engine.toLowerCase() === engineFlag.toLowerCase());

/** Runs `body` on a fresh stack of each selected engine in turn. */
const onEngines =
  (body: (stack: FaultStack, rows: Row[]) => Promise<void>, ...[maxSessions, adapterOptions, extraPages]: Partial<Parameters<typeof startFaultStack>>) =>
  async (rows: Row[]) => {
    for (const engine of selectedEngines) await onStack(body, maxSessions, adapterOptions, extraPages, undefined, engine)(rows);
  };

const groups: Record<string, (rows: Row[]) => Promise<void>> = {
  transport: onEngines(transportScenarios),
  policy: onStack(policyScenarios, 8, {}, policyPages),
  browser: onEngines(browserScenarios, 8, { downloadMaxBytes: browserDownloadMaxBytes, watchdogGraceMs: 1000 }, browserPages),
  provider: providerScenarios,
  storage: storageScenarios,
  load: loadScenarios,
  tenancy: (rows) => tenancyScenarios(rows, Number(process.env.FAULTS_TENANCY_RUNS ?? 1000)),
  injection: onStack(injectionScenarios, 8, {}, injectionPages),
  private: onStack(privateNetworkScenarios, 8, { blockPrivateNetworks: { lookup: fakeLookup } }),
  async fuzz(rows) {
    const stack = await startFaultStack();
    try {
      await fuzzScenarios(stack, rows, { worker: Number(process.env.FAULTS_WORKER_RUNS ?? 7500), tools: Number(process.env.FAULTS_TOOL_RUNS ?? 3000) });
    } finally {
      await stack.close();
    }
  },
  // Last: it scans what every earlier group produced, as well as its own workload.
  secrets: secretsScenarios,
};

// `--only a,b`: those groups, in the suite's order.
const only = process.argv.includes("--only") ? (process.argv[process.argv.indexOf("--only") + 1] ?? "").split(",") : undefined;
if (only !== undefined && !only.every((name) => name in groups)) {
  process.stderr.write(`--only: expected a comma-separated list of ${Object.keys(groups).join(", ")}\n`);
  process.exit(2);
}
captureLogs();
const rows: Row[] = [];
const started = Date.now();
for (const [name, group] of Object.entries(groups)) {
  if (only !== undefined && !only.includes(name)) continue;
  await group(rows);
}
const skipped = rows.filter((row) => row.notRun !== undefined);
const failed = rows.filter((row) => !passed(row) && row.notRun === undefined);
const leftover = chromiumBelow(process.pid).filter((info) => info.state !== "Z").length;
const faults = rows.reduce((sum, row) => sum + row.times, 0);
const checks = rows.reduce((sum, row) => sum + row.checks.length, 0);
process.stdout.write(
  `\nFault suite, ${new Date().toISOString().slice(0, 10)}: ${rows.length} scenarios (${rows.length - failed.length - skipped.length} passed, ${skipped.length} not run), ${faults} faults and hostile inputs, ${checks} checks, ` +
    `${leftover} Chromium processes left, ${unhandled.length} unhandled exceptions, ${Math.round((Date.now() - started) / 1000)} s\n\n`,
);
process.stdout.write(`${renderTable(rows)}\n`);
process.exit(failed.length === 0 && leftover === 0 && unhandled.length === 0 ? 0 : 1);
