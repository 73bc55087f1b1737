/**
 * Storage behind the session manager: small interfaces with in-memory
 * implementations here (runtime-neutral) and file-backed ones on the Node side
 * (`src/stores/`). Everything stored is metadata: no typed text, no secrets,
 * URLs sanitised.
 */
import type { PendingRelease, UncertainOpening } from "./ledger.js";
import type { ResolvedOpenOptions } from "../protocol/open-options.js";
import type { Checkpoint, RecordingMeta } from "../protocol/sessions.js";
import type { StoredPacing } from "../access/pacing/pacer.js";

export type { StoredPacing } from "../access/pacing/pacer.js";

/** One action as the journal (and the audit) keeps it. */
export interface JournalEntry {
  /** Monotonic across restarts of the same state root. */
  seq: number;
  sessionId: string;
  op: string;
  startedAt: string;
  finishedAt?: string;
  durationMs?: number;
  /**
   * `pending` while running; `unknown` when it was pending at a restart or
   * its outcome could not be confirmed (never replayed).
   */
  outcome: "pending" | "ok" | "error" | "unknown";
  /** Error code on failure (`validation`, `timeout`, …). */
  errorCode?: string;
  /** Masked summary of the command: typed text as `[N chars]` (its length only), URLs sanitised. */
  detail?: string;
  /** Whether a human control token authorised it. */
  human?: boolean;
}

export type { Checkpoint, RecordingMeta } from "../protocol/sessions.js";

/** An uncertain open as stored: with the options to take its session over with. */
export interface StoredUncertainOpening extends UncertainOpening {
  options: ResolvedOpenOptions;
}

/** What the manager owes its provider, kept across restarts. */
export interface StoredLedger {
  uncertain: StoredUncertainOpening[];
  pending: PendingRelease[];
}

/** What a state root holds when it is opened. */
export interface StoredState {
  journal: JournalEntry[];
  checkpoints: Checkpoint[];
  /** Uncertain opens and unconfirmed releases (absent in stores that do not keep them). */
  ledger?: StoredLedger;
  /** Pacing counters per profile (absent in stores that do not keep them). */
  pacing?: StoredPacing;
}

/**
 * The manager's durable state: journal and checkpoints. One live owner at a
 * time; a root remembers the tenant it was created for.
 */
export interface StateStore {
  /**
   * Claims the root and reads it.
   * @throws when another live owner holds the root, or the root belongs to another tenant.
   */
  open(owner: { tenantId?: string }): Promise<StoredState>;
  /**
   * Replaces the journal atomically; on failure the previous journal is
   * intact. With {@link appendJournal}, this is the compaction: entries
   * appended after the call are kept after the replacement.
   */
  writeJournal(entries: readonly JournalEntry[]): Promise<void>;
  /**
   * Appends entries, each whole as it is now: on reading, a later entry with
   * the same `seq` supersedes an earlier one. With `durable`, resolves once
   * they survive a crash; without, once written (a crash may lose them).
   * Appends and replacements apply in call order. Optional: without it each
   * change replaces the journal with {@link writeJournal}.
   */
  appendJournal?(entries: readonly JournalEntry[], options: { durable: boolean }): Promise<void>;
  /** Replaces the checkpoints atomically. */
  writeCheckpoints(checkpoints: readonly Checkpoint[]): Promise<void>;
  /**
   * Replaces the ledger (uncertain opens, unconfirmed releases) atomically, so
   * what is owed to a provider survives a restart. Optional: without it the
   * ledger lives in memory only.
   */
  writeLedger?(ledger: StoredLedger): Promise<void>;
  /**
   * Replaces the profiles' pacing counters (token bucket, today's count,
   * first day for the warm-up, a throttle pause) atomically, so a profile's
   * daily allowance and warm-up hold across restarts. Optional: without it
   * they live in memory only.
   */
  writePacing?(pacing: StoredPacing): Promise<void>;
  /** Releases ownership. */
  close(): Promise<void>;
}


/** Frames of recordings. Frames are PNG, passed as base64. */
export interface RecordingStore {
  /** Reads what survives (recordings older than `ttlMs` are deleted first). */
  open(ttlMs: number): Promise<RecordingMeta[]>;
  writeMeta(recording: RecordingMeta): Promise<void>;
  writeFrame(recordingId: string, frameId: string, base64: string): Promise<void>;
  /** The frame, or `undefined` when it does not exist. */
  readFrame(recordingId: string, frameId: string): Promise<string | undefined>;
  delete(recordingId: string): Promise<void>;
  close(): Promise<void>;
}
