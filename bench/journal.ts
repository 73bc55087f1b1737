/**
 * Journal cost per action at 10, 1000 and 5000 existing entries, old vs new:
 *
 * - old: the whole journal replaced twice per action (start, then finish),
 *   each write awaited (`writeFileAtomically`: temp file, fsync, rename,
 *   directory fsync), as before issue 11;
 * - new: `Journal.start` (one appended line, fsynced) awaited, then
 *   `Journal.finish` (appended, not awaited), on the file state store, with
 *   compaction in the background.
 *
 * Prints the median and p90 time the caller waits per action. Not part of
 * the test suite. Run: `npx tsx bench/journal.ts [actions]` (default 200 a point).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Journal } from "../src/lifecycle/journal.js";
import type { JournalEntry } from "../src/lifecycle/stores.js";
import { writeFileAtomically } from "../src/stores/atomic-file.js";
import { createFileStateStore } from "../src/stores/file-state-store.js";

const actions = Number(process.argv[2] ?? 200);
const sizes = [10, 1000, 5000];

function seedEntries(count: number): JournalEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    seq: index + 1,
    sessionId: "s_bench",
    op: "click",
    startedAt: new Date(0).toISOString(),
    finishedAt: new Date(1).toISOString(),
    durationMs: 1,
    outcome: "ok",
    detail: `click ref=e${index}`,
  }));
}

function summary(times: number[]): string {
  const sorted = [...times].sort((left, right) => left - right);
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
  return `median ${at(0.5).toFixed(3)} ms, p90 ${at(0.9).toFixed(3)} ms`;
}

async function old(directory: string, existing: number): Promise<number[]> {
  const path = join(directory, "journal.json");
  const entries = seedEntries(existing);
  const times: number[] = [];
  for (let index = 0; index < actions; index++) {
    const started = performance.now();
    const entry: JournalEntry = { seq: existing + index + 1, sessionId: "s_bench", op: "click", startedAt: new Date().toISOString(), outcome: "pending" };
    entries.push(entry);
    if (entries.length > existing) entries.shift();
    await writeFileAtomically(path, JSON.stringify(entries));
    Object.assign(entry, { finishedAt: new Date().toISOString(), durationMs: 0, outcome: "ok" });
    await writeFileAtomically(path, JSON.stringify(entries));
    times.push(performance.now() - started);
  }
  return times;
}

async function appended(directory: string, existing: number): Promise<number[]> {
  const seed = createFileStateStore(directory);
  await seed.open({});
  await seed.writeJournal(seedEntries(existing));
  await seed.close();
  const store = createFileStateStore(directory);
  const journal = new Journal(store, existing, () => Date.now());
  journal.load((await store.open({})).journal);
  await journal.flush(); // the compaction on load
  const times: number[] = [];
  for (let index = 0; index < actions; index++) {
    const started = performance.now();
    const seq = await journal.start({ sessionId: "s_bench", op: "click", detail: "click ref=e1" });
    journal.finish(seq, "ok");
    times.push(performance.now() - started);
  }
  await journal.flush();
  await store.close();
  return times;
}

for (const existing of sizes) {
  for (const [name, run] of [
    ["old (replace twice)", old],
    ["new (append)", appended],
  ] as const) {
    const directory = await mkdtemp(join(tmpdir(), "station-bench-journal-"));
    try {
      console.log(`${String(existing).padStart(5)} entries  ${name.padEnd(20)} ${summary(await run(directory, existing))}`);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }
}
