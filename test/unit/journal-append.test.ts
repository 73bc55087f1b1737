/**
 * The appended journal (issue 11): an action appends its start (durable
 * before it runs) and its finish (not awaited), the store is compacted within
 * the bounds, a start without a finish reads `unknown` after a reload, and a
 * failed write stops admission.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isJournalError } from "../../src/errors.js";
import { Journal } from "../../src/lifecycle/journal.js";
import { createMemoryStateStore } from "../../src/lifecycle/memory-stores.js";
import type { JournalEntry, StateStore } from "../../src/lifecycle/stores.js";
import { createFileStateStore } from "../../src/stores/index.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "station-journal-append-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const lineCount = async () => (await readFile(join(directory, "journal.jsonl"), "utf8")).split("\n").filter(Boolean).length;

async function openJournal(retention: number): Promise<{ store: StateStore; journal: Journal }> {
  const store = createFileStateStore(directory);
  const journal = new Journal(store, retention, () => Date.UTC(2026, 0, 1));
  journal.load((await store.open({})).journal);
  return { store, journal };
}

/** A memory store that counts its writes and lets a test hold or fail the appends. */
function spyStore() {
  const store = createMemoryStateStore();
  const calls = { appends: [] as { entries: readonly JournalEntry[]; durable: boolean }[], replacements: 0 };
  let hold: Promise<void> | undefined;
  let fail: ((durable: boolean) => Error | undefined) | undefined;
  const spy: StateStore = {
    ...store,
    async writeJournal(entries) {
      calls.replacements++;
      await store.writeJournal(entries);
    },
    async appendJournal(entries, options) {
      calls.appends.push({ entries, durable: options.durable });
      const failure = fail?.(options.durable);
      if (failure) throw failure;
      if (!options.durable && hold) await hold;
      await store.appendJournal!(entries, options);
    },
  };
  return {
    spy,
    calls,
    holdFinishes: (until: Promise<void>) => (hold = until),
    failWhen: (predicate: (durable: boolean) => Error | undefined) => (fail = predicate),
  };
}

describe("appended journal", () => {
  it("appends one durable start and one finish per action and never rewrites the whole journal below the bounds", async () => {
    const { spy, calls } = spyStore();
    const journal = new Journal(spy, 1000, () => 0);
    for (let index = 0; index < 400; index++) journal.finish(await journal.start({ sessionId: "s1", op: "evaluate" }), "ok");
    await journal.flush();
    expect(calls.replacements).toBe(0);
    expect(calls.appends).toHaveLength(800);
    expect(calls.appends.filter((call) => call.durable).map((call) => call.entries[0]!.outcome)).toEqual(Array(400).fill("pending"));
    expect(calls.appends.filter((call) => !call.durable).map((call) => call.entries[0]!.outcome)).toEqual(Array(400).fill("ok"));
  });

  it("answers without waiting for the finish write; flush waits for it", async () => {
    const held = spyStore();
    const journal = new Journal(held.spy, 1000, () => 0);
    let release!: () => void;
    held.holdFinishes(new Promise<void>((resolve) => (release = resolve)));
    const seq = await journal.start({ sessionId: "s1", op: "click" });
    expect(journal.finish(seq, "ok")).toBeUndefined();
    expect(journal.list()[0]).toMatchObject({ seq, outcome: "ok" });
    let flushed = false;
    const flushing = journal.flush().then(() => (flushed = true));
    await Promise.resolve();
    expect(flushed).toBe(false); // the finish is held until release()
    release();
    await flushing;
    expect((await held.spy.open({})).journal[0]).toMatchObject({ seq, outcome: "ok" });
  });

  it("stops admission when a start cannot be written, and when a finish could not be", async () => {
    const startFails = spyStore();
    const first = new Journal(startFails.spy, 1000, () => 0);
    first.finish(await first.start({ sessionId: "s1", op: "click" }), "ok");
    startFails.failWhen((durable) => (durable ? new Error("ENOSPC: no space left on device") : undefined));
    const error = await first.start({ sessionId: "s1", op: "click" }).catch((caught: unknown) => caught);
    expect(isJournalError(error)).toBe(true);
    expect((error as Error).message).toMatch(/journal cannot be written \(ENOSPC/);
    expect(first.list().map((entry) => entry.seq)).toEqual([1]);
    expect(() => first.assertWritable()).toThrow(/no action is admitted/);

    const finishFails = spyStore();
    const second = new Journal(finishFails.spy, 1000, () => 0);
    const seq = await second.start({ sessionId: "s1", op: "click" });
    finishFails.failWhen((durable) => (durable ? undefined : new Error("EIO: i/o error")));
    second.finish(seq, "ok");
    await second.flush();
    await expect(second.start({ sessionId: "s1", op: "click" })).rejects.toThrow(/journal cannot be written \(EIO/);
  });

  it("reads a start without a finish as unknown after a reload, and goes on with the sequence", async () => {
    const first = await openJournal(1000);
    first.journal.finish(await first.journal.start({ sessionId: "s1", op: "navigate" }), "ok");
    await first.journal.start({ sessionId: "s1", op: "evaluate" });
    await first.journal.flush();
    await first.store.close();

    const second = await openJournal(1000);
    expect(second.journal.list().map((entry) => [entry.seq, entry.op, entry.outcome])).toEqual([
      [1, "navigate", "ok"],
      [2, "evaluate", "unknown"],
    ]);
    expect(await second.journal.start({ sessionId: "s1", op: "click" })).toBe(3);
    await second.journal.flush();
    await second.store.close();
  });

  it("keeps the file within about twice the bounds by compacting, and a reload keeps the latest entries", async () => {
    const retention = 60;
    const first = await openJournal(retention);
    let most = 0;
    for (let index = 0; index < 500; index++) {
      first.journal.finish(await first.journal.start({ sessionId: "s1", op: "evaluate", detail: String(index) }), "ok");
      most = Math.max(most, await lineCount());
    }
    await first.journal.flush();
    // Compaction starts past max(2 × retention, 100) = 120 records; a few more may be appended while it runs.
    expect(most).toBeLessThanOrEqual(2 * 100 + 4);
    expect(await lineCount()).toBeLessThanOrEqual(2 * 100 + 4);
    await first.store.close();

    const second = await openJournal(retention);
    const kept = second.journal.list();
    expect(kept.map((entry) => entry.seq)).toEqual(Array.from({ length: retention }, (_, index) => 500 - retention + 1 + index));
    expect(kept.every((entry) => entry.outcome === "ok")).toBe(true);
    // Loading compacts once: the file then holds just the kept entries.
    await second.journal.flush();
    expect(await lineCount()).toBe(retention);
    await second.store.close();
  });
});
