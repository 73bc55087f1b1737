export { BrowserSessionManager, type ManagedSessionInfo } from "./manager.js";
export { performCommand, type PerformAction } from "./perform.js";
export { resolveSessionManagerOptions, type SessionManagerOptions, type ResolvedSessionManagerOptions } from "./options.js";
export { createMemoryStateStore, createMemoryRecordingStore } from "./memory-stores.js";
export { systemClock, type Clock } from "./clock.js";
export { SessionManagerEmitter, type SessionManagerEvents, type SessionCloseReason } from "./events.js";
export type { ControlGrant, ControlState } from "./control.js";
export type { RecordingFrame } from "./recordings.js";
export type { Checkpoint, JournalEntry, RecordingMeta, RecordingStore, StateStore, StoredState } from "./stores.js";
