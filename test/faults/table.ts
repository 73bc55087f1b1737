/**
 * The figures of the fault suite: one row per scenario, with what was
 * injected, how many times (counted where the fault fired, never typed in),
 * what was checked afterwards and whether every check held.
 */
import type { CommandOp } from "../../src/protocol/commands.js";

export interface Check {
  name: string;
  ok: boolean;
  /** What was seen when the check failed. */
  detail?: string;
}

export interface Row {
  scenario: string;
  /** The engine that drove the browser: `Playwright` unless said. */
  engine?: string;
  injected: string;
  times: number;
  checks: Check[];
  /** An exception that ended the scenario early. */
  crash?: string;
  /** Why the scenario was not run on this engine: listed, never counted as passed (nor as failed). */
  notRun?: string;
}

/** A scenario being run: count the faults, record the checks. */
export class Scenario {
  readonly row: Row;
  constructor(scenario: string, injected: string, engine?: string) {
    this.row = { scenario, ...(engine === undefined ? {} : { engine }), injected, times: 0, checks: [] };
  }
  /** Records that a fault fired (`count` times). */
  injected(count = 1): void {
    this.row.times += count;
  }
  /** Records a check; `detail` is shown when it fails. */
  check(name: string, ok: boolean, detail?: unknown): boolean {
    this.row.checks.push(ok ? { name, ok } : { name, ok, detail: typeof detail === "string" ? detail : JSON.stringify(detail) });
    return ok;
  }
  /** Records that `actual` equals `expected` (compared as JSON). */
  equal(name: string, actual: unknown, expected: unknown): boolean {
    const same = JSON.stringify(actual) === JSON.stringify(expected);
    return this.check(name, same, `expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

/** Whether every check of the row held, at least one ran, and a fault fired. */
export function passed(row: Row): boolean {
  return row.notRun === undefined && row.crash === undefined && row.times > 0 && row.checks.length > 0 && row.checks.every((check) => check.ok);
}

function result(row: Row): string {
  const held = row.checks.filter((check) => check.ok).length;
  if (row.notRun !== undefined) return `not run: ${row.notRun}`;
  if (row.crash !== undefined) return `FAIL (crashed: ${row.crash})`;
  if (row.times === 0) return "FAIL (no fault fired)";
  if (row.checks.length === 0) return "FAIL (nothing checked)";
  const failed = row.checks.filter((check) => !check.ok);
  if (failed.length === 0) return `pass ${held}/${row.checks.length}`;
  return `FAIL ${held}/${row.checks.length}: ${failed.map((check) => `${check.name} (${check.detail ?? ""})`).join("; ")}`;
}

/** The names of the checks, each once, with how often it ran (`round 2: x` counts as `x`). */
function checkedNames(checks: Check[]): string {
  const counts = new Map<string, number>();
  for (const check of checks) {
    const name = check.name.replace(/^round \d+: /, "");
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, count]) => (count > 1 ? `${name} ×${count}` : name)).join("; ");
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The table, as Markdown (the README quotes it). */
export function renderTable(rows: Row[]): string {
  const lines = ["| scenario | engine | injected | times | checked | result |", "|---|---|---|---:|---|---|"];
  for (const row of rows) {
    lines.push(`| ${[row.scenario, row.engine ?? "Playwright", row.injected, String(row.times), checkedNames(row.checks), result(row)].map(cell).join(" | ")} |`);
  }
  return lines.join("\n");
}

/** How long one scenario may run before it is recorded as hung (the suite goes on). */
export const scenarioLimitMs = 150_000;

/** Runs `body` as one scenario (on `engine`, when said); an exception, or running past `limitMs` ({@link scenarioLimitMs}), is recorded as a crash, not thrown. */
export async function runScenario(rows: Row[], scenario: string, injected: string, body: (s: Scenario) => Promise<void>, limitMs = scenarioLimitMs, engine?: string): Promise<void> {
  const s = new Scenario(scenario, injected, engine);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${limitMs / 1000} s`)), limitMs);
  });
  try {
    await Promise.race([body(s), hung]);
  } catch (error) {
    s.row.crash = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } finally {
    clearTimeout(timer);
  }
  rows.push(s.row);
  process.stderr.write(`${passed(s.row) ? "ok  " : "FAIL"} ${scenario}${engine === undefined ? "" : ` (${engine})`}\n`);
}

/** Lists a scenario as not run on `engine`, saying why. */
export function notRun(rows: Row[], scenario: string, injected: string, reason: string, engine: string): void {
  rows.push({ scenario, engine, injected, times: 0, checks: [], notRun: reason });
  process.stderr.write(`skip ${scenario} (${engine}): ${reason}\n`);
}

/** What {@link scenarioOn} needs of a stack: its engine, and which of some ops it does not implement. */
export interface EngineStack {
  engine: string;
  missing(ops: readonly CommandOp[]): CommandOp[];
}

/**
 * Runs scenarios on `stack`'s engine. Each names the ops it sends (`needs`);
 * one the engine does not implement yet, or an engine named in `unsupported`
 * (with why), lists the scenario as not run instead.
 */
export function scenarioOn(stack: EngineStack, rows: Row[]) {
  return async (
    scenario: string,
    injected: string,
    needs: { ops: readonly CommandOp[]; unsupported?: Record<string, string> },
    body: (s: Scenario) => Promise<void>,
  ): Promise<void> => {
    const missing = stack.missing(needs.ops);
    const unsupported = needs.unsupported?.[stack.engine];
    if (unsupported !== undefined) return notRun(rows, scenario, injected, unsupported, stack.engine);
    if (missing.length > 0) return notRun(rows, scenario, injected, `needs ${missing.join(", ")}, not implemented by the ${stack.engine} engine yet`, stack.engine);
    return runScenario(rows, scenario, injected, body, scenarioLimitMs, stack.engine);
  };
}
