import type { Checkpoint, JournalEntry, RecordingMeta, RecordingStore, StateStore, StoredLedger, StoredPacing, StoredState } from "./stores.js";

/**
 * A state store in memory: what a manager without `stateRootDir` uses. Nothing
 * survives the process.
 *
 * @example
 * ```ts
 * const manager = new BrowserSessionManager(adapter, 2, { stateStore: createMemoryStateStore() });
 * ```
 */
export function createMemoryStateStore(): StateStore {
  let state: Omit<StoredState, "journal"> = { checkpoints: [] };
  let journal: JournalEntry[] = [];
  return {
    async open() {
      return {
        journal: journal.map((entry) => ({ ...entry })),
        checkpoints: [...state.checkpoints],
        ...(state.ledger ? { ledger: structuredClone(state.ledger) } : {}),
        ...(state.pacing ? { pacing: structuredClone(state.pacing) } : {}),
      };
    },
    async writeJournal(entries: readonly JournalEntry[]) {
      journal = entries.map((entry) => ({ ...entry }));
    },
    async appendJournal(entries: readonly JournalEntry[]) {
      for (const entry of entries) {
        // A start has a new, highest seq: appended without a search.
        if (!(journal.length > 0 && journal[journal.length - 1]!.seq >= entry.seq)) {
          journal.push({ ...entry });
          continue;
        }
        // Searched from the newest: an action's finish is usually near the end.
        let index = journal.length - 1;
        while (index >= 0 && journal[index]!.seq !== entry.seq) index--;
        if (index >= 0) journal[index] = { ...entry };
        else journal.push({ ...entry });
      }
    },
    async writeCheckpoints(checkpoints: readonly Checkpoint[]) {
      state = { ...state, checkpoints: [...checkpoints] };
    },
    async writeLedger(ledger: StoredLedger) {
      state = { ...state, ledger: structuredClone(ledger) };
    },
    async writePacing(pacing: StoredPacing) {
      state = { ...state, pacing: structuredClone(pacing) };
    },
    async close() {},
  };
}

/** A recording store in memory. */
export function createMemoryRecordingStore(): RecordingStore {
  const metas = new Map<string, RecordingMeta>();
  const frames = new Map<string, string>();
  return {
    async open() {
      return [...metas.values()];
    },
    async writeMeta(recording) {
      metas.set(recording.id, structuredClone(recording));
    },
    async writeFrame(recordingId, frameId, base64) {
      frames.set(`${recordingId}/${frameId}`, base64);
    },
    async readFrame(recordingId, frameId) {
      return frames.get(`${recordingId}/${frameId}`);
    },
    async delete(recordingId) {
      metas.delete(recordingId);
      for (const key of [...frames.keys()]) if (key.startsWith(`${recordingId}/`)) frames.delete(key);
    },
    async close() {},
  };
}
