/**
 * The journal's byte cap (DESIGN.md: latest entries, 8 MiB in total): the
 * oldest entries go first, what is written never passes the cap, and
 * sequence numbers stay monotonic.
 */
import { describe, expect, it } from "vitest";
import { Journal } from "../../src/lifecycle/journal.js";
import { createMemoryStateStore } from "../../src/lifecycle/memory-stores.js";
import type { JournalEntry } from "../../src/lifecycle/stores.js";
import { limits } from "../../src/protocol/limits.js";

const bytesOf = (entries: readonly JournalEntry[]) => new TextEncoder().encode(JSON.stringify(entries)).length;

describe("journal byte cap", () => {
  it("keeps at most 8 MiB, dropping the oldest entries, with sequence numbers still monotonic", async () => {
    const store = createMemoryStateStore();
    let written: JournalEntry[] = [];
    const spy = { ...store, writeJournal: async (entries: readonly JournalEntry[]) => void (written = [...entries]) };
    const journal = new Journal(spy, limits.manager.journalEntriesMax, () => 0);
    const detail = "x".repeat(64 * 1024);
    // 150 entries of ~64 KiB is ~9.4 MiB: past the cap, under the entry-count limit.
    for (let index = 0; index < 150; index++) {
      const seq = await journal.start({ sessionId: "s1", op: "fill", detail: `${index}:${detail}` });
      await journal.finish(seq, "ok");
    }
    await journal.flush();
    const kept = journal.list();
    expect(bytesOf(kept)).toBeLessThanOrEqual(limits.manager.journalBytesMax);
    expect(bytesOf(written)).toBeLessThanOrEqual(limits.manager.journalBytesMax);
    expect(kept.length).toBeLessThan(150);
    // The newest survive; the first ones are gone.
    expect(kept.at(-1)).toMatchObject({ seq: 150, outcome: "ok", detail: expect.stringMatching(/^149:/) });
    expect(kept[0]!.seq).toBe(150 - kept.length + 1);
    expect(kept.map((entry) => entry.seq)).toEqual(kept.map((_, index) => kept[0]!.seq + index));
    // Nearly the whole cap is used: trimming drops only what it must.
    expect(bytesOf(kept)).toBeGreaterThan(limits.manager.journalBytesMax - 2 * (detail.length + 200));
  });

  it("counts the cap in UTF-8 bytes, with characters of two, three and four bytes", async () => {
    const journal = new Journal(createMemoryStateStore(), limits.manager.journalEntriesMax, () => 0);
    // 16 Ki of these (10 UTF-8 bytes, 5 UTF-16 units) per entry: 160 KiB each, about 51 entries fill the cap.
    const detail = "é€😀x".repeat(16 * 1024);
    for (let index = 0; index < 80; index++) journal.finish(await journal.start({ sessionId: "s1", op: "fill", detail: `${index}:${detail}` }), "ok");
    await journal.flush();
    const kept = journal.list();
    expect(bytesOf(kept)).toBeLessThanOrEqual(limits.manager.journalBytesMax);
    expect(bytesOf(kept)).toBeGreaterThan(limits.manager.journalBytesMax - 2 * (10 * 16 * 1024 + 200));
    expect(kept.at(-1)).toMatchObject({ seq: 80, detail: expect.stringMatching(/^79:/) });
  });
});
