/**
 * `npm run test:faults`: the whole stack under injected faults and hostile
 * input. Prints one table of figures (Markdown, the README quotes it) and
 * exits non-zero when a check failed. `--only <group>` runs one group.
 */
import "./process-watch.js";
import { fuzzScenarios } from "./fuzz.js";
import { startFaultStack } from "./stack.js";
import { passed, renderTable, type Row } from "./table.js";
import { transportScenarios } from "./transport.js";

const groups: Record<string, (rows: Row[]) => Promise<void>> = {
  async transport(rows) {
    const stack = await startFaultStack();
    try {
      await transportScenarios(stack, rows);
    } finally {
      await stack.close();
    }
  },
  async fuzz(rows) {
    const stack = await startFaultStack();
    try {
      await fuzzScenarios(stack, rows, { worker: Number(process.env.FAULTS_WORKER_RUNS ?? 7500), tools: Number(process.env.FAULTS_TOOL_RUNS ?? 3000) });
    } finally {
      await stack.close();
    }
  },
};

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
if (only !== undefined && !(only in groups)) {
  process.stderr.write(`--only: expected one of ${Object.keys(groups).join(", ")}\n`);
  process.exit(2);
}
const rows: Row[] = [];
const started = Date.now();
for (const [name, group] of Object.entries(groups)) {
  if (only !== undefined && name !== only) continue;
  await group(rows);
}
const failed = rows.filter((row) => !passed(row));
process.stdout.write(`\nFault suite, ${new Date().toISOString().slice(0, 10)}: ${rows.length} scenarios, ${rows.length - failed.length} passed, ${Math.round((Date.now() - started) / 1000)} s\n\n`);
process.stdout.write(`${renderTable(rows)}\n`);
process.exit(failed.length === 0 ? 0 : 1);
