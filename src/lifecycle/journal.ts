import { JournalError } from "../errors.js";
import { limits } from "../protocol/limits.js";
import type { JournalEntry, StateStore } from "./stores.js";

/** UTF-8 bytes of `text`, counted without encoding it (a lone surrogate counts 3, as `TextEncoder` writes U+FFFD). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: 2 UTF-16 units, 4 bytes.
      bytes += 2;
      index++;
    } else bytes += 2;
  }
  return bytes;
}
const sizeOf = (entry: JournalEntry) => utf8Length(JSON.stringify(entry));
/** Fewest stored records before an appending store is compacted (so a small `auditLimit` does not compact on every action). */
const compactionMinRecords = 100;

/**
 * The action journal, which is also the audit: every action's start is
 * persisted before it runs and its finish after. A write that fails stops
 * admission (nothing runs unrecorded). Entries still pending when the journal
 * is loaded read as `unknown` and are never replayed.
 *
 * With a store that appends (`appendJournal`), each start and finish appends
 * one record, so an action's cost does not grow with the journal; the store
 * is compacted (`writeJournal` of the kept entries) in the background once it
 * holds about twice the bounds. Without it, each change replaces the journal.
 */
export class Journal {
  private entries: JournalEntry[] = [];
  /** UTF-8 bytes of each entry's JSON, beside `entries`. */
  private sizes: number[] = [];
  private bytes = 0;
  private nextSeq = 1;
  /** Replacements of the whole journal, one after another. */
  private replacing: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();
  private failure: Error | undefined;
  /** What the appending store holds since its last compaction (records, bytes). */
  private storedRecords = 0;
  private storedBytes = 0;
  private compacting = false;

  constructor(
    private readonly store: StateStore,
    private readonly retention: number,
    private readonly now: () => number,
  ) {}

  /** Loads stored entries; those left pending by a previous owner become `unknown`. An appending store is compacted once, in the background. */
  load(stored: readonly JournalEntry[]): void {
    this.entries = stored.map((entry) => (entry.outcome === "pending" ? { ...entry, outcome: "unknown" } : { ...entry }));
    this.sizes = this.entries.map(sizeOf);
    this.bytes = this.sizes.reduce((sum, size) => sum + size, 0);
    this.nextSeq = this.entries.reduce((max, entry) => Math.max(max, entry.seq), 0) + 1;
    this.trim();
    if (this.store.appendJournal && stored.length > 0) this.compact();
  }

  /** Throws {@link JournalError} once a write has failed. */
  assertWritable(): void {
    if (this.failure) {
      throw new JournalError(`The action journal cannot be written (${this.failure.message}); no action is admitted until the manager is reopened`, {
        cause: this.failure,
      });
    }
  }

  /** Records an action's start and waits until it is durable. */
  async start(entry: Omit<JournalEntry, "seq" | "startedAt" | "outcome">): Promise<number> {
    this.assertWritable();
    const seq = this.nextSeq++;
    const started: JournalEntry = { ...entry, seq, startedAt: new Date(this.now()).toISOString(), outcome: "pending" };
    const size = sizeOf(started);
    this.entries.push(started);
    this.sizes.push(size);
    this.bytes += size;
    this.trim();
    try {
      await this.write(started, size, true);
    } catch {
      const index = this.indexOf(seq);
      if (index >= 0) {
        this.bytes -= this.sizes[index]!;
        this.entries.splice(index, 1);
        this.sizes.splice(index, 1);
      }
      this.assertWritable();
    }
    return seq;
  }

  /**
   * Records an action's outcome without waiting for the write: a finish lost
   * to a crash reads as `unknown`, which is what a restart assumes anyway. A
   * failed write is kept and stops later admissions; {@link flush} waits for it.
   */
  finish(seq: number, outcome: "ok" | "error" | "unknown", errorCode?: string): void {
    const index = this.indexOf(seq);
    const entry = this.entries[index];
    if (!entry) return;
    const finished = this.now();
    entry.finishedAt = new Date(finished).toISOString();
    entry.durationMs = Math.max(0, finished - Date.parse(entry.startedAt));
    entry.outcome = outcome;
    if (errorCode) entry.errorCode = errorCode;
    const size = sizeOf(entry);
    this.bytes += size - this.sizes[index]!;
    this.sizes[index] = size;
    this.write(entry, size, false).catch(() => undefined);
    this.trim();
  }

  /** The latest entries, oldest first. */
  list(): JournalEntry[] {
    return this.entries.map((entry) => ({ ...entry }));
  }

  /** Waits for pending writes (finishes and compactions included). */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Where `seq` is, searching from the newest (an action's finish is usually near the end). */
  private indexOf(seq: number): number {
    for (let index = this.entries.length - 1; index >= 0; index--) if (this.entries[index]!.seq === seq) return index;
    return -1;
  }

  /** Drops the oldest entries past the count or the byte bound (bytes of the entries as one JSON array). */
  private trim(): void {
    while (
      this.entries.length > this.retention ||
      (this.entries.length > 1 && this.bytes + this.entries.length + 1 > limits.manager.journalBytesMax)
    ) {
      this.entries.shift();
      this.bytes -= this.sizes.shift()!;
    }
  }

  /** Persists one entry as it is now (`size`: its UTF-8 bytes): appended when the store can, else the whole journal replaced. */
  private write(entry: JournalEntry, size: number, durable: boolean): Promise<void> {
    if (!this.store.appendJournal) return this.track(this.replace());
    const written = this.store.appendJournal([{ ...entry }], { durable });
    this.storedRecords += 1;
    this.storedBytes += size;
    const tracked = this.track(written);
    if (this.storedRecords > Math.max(2 * this.retention, compactionMinRecords) || this.storedBytes > 2 * limits.manager.journalBytesMax) {
      this.compact();
    }
    return tracked;
  }

  /** Rewrites the store with the kept entries, in the background; appends go on meanwhile. */
  private compact(): void {
    if (this.compacting) return;
    this.compacting = true;
    this.storedRecords = this.entries.length;
    this.storedBytes = this.bytes;
    this.track(this.replace())
      .catch(() => undefined)
      .finally(() => (this.compacting = false));
  }

  /** Writes the journal as it is now, after earlier replacements (so a newer snapshot is never overwritten by an older one). */
  private replace(): Promise<void> {
    const write = this.replacing.then(
      () => this.store.writeJournal(this.list()),
      () => this.store.writeJournal(this.list()),
    );
    this.replacing = write.catch(() => undefined);
    return write;
  }

  /** Keeps a write in flight for {@link flush}; its failure stops admission. */
  private track(write: Promise<void>): Promise<void> {
    const tracked = write.catch((error: unknown) => {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
      throw error;
    });
    const settled = tracked.catch(() => undefined).finally(() => this.inFlight.delete(settled));
    this.inFlight.add(settled);
    return tracked;
  }
}
