import { JournalError } from "../errors.js";
import { limits } from "../protocol/limits.js";
import type { JournalEntry, StateStore } from "./stores.js";

/**
 * The action journal, which is also the audit: every action's start is
 * persisted before it runs and its finish after. A write that fails stops
 * admission (nothing runs unrecorded). Entries still pending when the journal
 * is loaded read as `unknown` and are never replayed.
 */
export class Journal {
  private entries: JournalEntry[] = [];
  private nextSeq = 1;
  private writing: Promise<void> = Promise.resolve();
  private failure: Error | undefined;

  constructor(
    private readonly store: StateStore,
    private readonly retention: number,
    private readonly now: () => number,
  ) {}

  /** Loads stored entries; those left pending by a previous owner become `unknown`. */
  load(stored: readonly JournalEntry[]): void {
    this.entries = stored.map((entry) => (entry.outcome === "pending" ? { ...entry, outcome: "unknown" } : { ...entry }));
    this.nextSeq = this.entries.reduce((max, entry) => Math.max(max, entry.seq), 0) + 1;
  }

  /** Throws {@link JournalError} once a write has failed. */
  assertWritable(): void {
    if (this.failure) {
      throw new JournalError(`The action journal cannot be written (${this.failure.message}); no action is admitted until the manager is reopened`, {
        cause: this.failure,
      });
    }
  }

  /** Records an action's start and waits until it is persisted. */
  async start(entry: Omit<JournalEntry, "seq" | "startedAt" | "outcome">): Promise<number> {
    this.assertWritable();
    const seq = this.nextSeq++;
    this.entries.push({ ...entry, seq, startedAt: new Date(this.now()).toISOString(), outcome: "pending" });
    this.trim();
    try {
      await this.persist();
    } catch (error) {
      this.entries = this.entries.filter((candidate) => candidate.seq !== seq);
      this.failure ??= error instanceof Error ? error : new Error(String(error));
      this.assertWritable();
    }
    return seq;
  }

  /** Records an action's outcome. A failed write is kept and stops later admissions. */
  async finish(seq: number, outcome: "ok" | "error" | "unknown", errorCode?: string): Promise<void> {
    const entry = this.entries.find((candidate) => candidate.seq === seq);
    if (!entry) return;
    const finished = this.now();
    entry.finishedAt = new Date(finished).toISOString();
    entry.durationMs = Math.max(0, finished - Date.parse(entry.startedAt));
    entry.outcome = outcome;
    if (errorCode) entry.errorCode = errorCode;
    await this.persist().catch(() => undefined);
  }

  /** The latest entries, oldest first. */
  list(): JournalEntry[] {
    return this.entries.map((entry) => ({ ...entry }));
  }

  /** Waits for pending writes. */
  async flush(): Promise<void> {
    await this.writing.catch(() => undefined);
  }

  private trim(): void {
    if (this.entries.length > this.retention) this.entries = this.entries.slice(-this.retention);
    let bytes = new TextEncoder().encode(JSON.stringify(this.entries)).length;
    while (bytes > limits.manager.journalBytesMax && this.entries.length > 1) {
      bytes -= new TextEncoder().encode(JSON.stringify(this.entries[0])).length + 1;
      this.entries.shift();
    }
  }

  /** Writes the journal as it is now, after earlier writes (so a newer snapshot is never overwritten by an older one). */
  private persist(): Promise<void> {
    const write = this.writing.then(
      () => this.store.writeJournal(this.list()),
      () => this.store.writeJournal(this.list()),
    );
    this.writing = write.catch((error: unknown) => {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
    });
    return write;
  }
}
