/**
 * The figures of the fault suite: one row per scenario, with what was
 * injected, how many times (counted where the fault fired, never typed in),
 * what was checked afterwards and whether every check held.
 */
export interface Check {
  name: string;
  ok: boolean;
  /** What was seen when the check failed. */
  detail?: string;
}

export interface Row {
  scenario: string;
  injected: string;
  times: number;
  checks: Check[];
  /** An exception that ended the scenario early. */
  crash?: string;
}

/** A scenario being run: count the faults, record the checks. */
export class Scenario {
  readonly row: Row;
  constructor(scenario: string, injected: string) {
    this.row = { scenario, injected, times: 0, checks: [] };
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
  return row.crash === undefined && row.times > 0 && row.checks.length > 0 && row.checks.every((check) => check.ok);
}

function result(row: Row): string {
  const held = row.checks.filter((check) => check.ok).length;
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
  const lines = ["| scenario | injected | times | checked | result |", "|---|---|---:|---|---|"];
  for (const row of rows) {
    lines.push(`| ${[row.scenario, row.injected, String(row.times), checkedNames(row.checks), result(row)].map(cell).join(" | ")} |`);
  }
  return lines.join("\n");
}

/** How long one scenario may run before it is recorded as hung (the suite goes on). */
export const scenarioLimitMs = 150_000;

/** Runs `body` as one scenario; an exception, or running past `limitMs` ({@link scenarioLimitMs}), is recorded as a crash, not thrown. */
export async function runScenario(rows: Row[], scenario: string, injected: string, body: (s: Scenario) => Promise<void>, limitMs = scenarioLimitMs): Promise<void> {
  const s = new Scenario(scenario, injected);
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
  process.stderr.write(`${passed(s.row) ? "ok  " : "FAIL"} ${scenario}\n`);
}
