/**
 * File-backed stores for Node: the durable counterparts of the in-memory
 * stores in `src/lifecycle/`.
 */
export { createFileRecordingStore } from "./file-recording-store.js";
export { createFileStateStore } from "./file-state-store.js";
export { createFileProfileStore } from "./file-profile-store.js";
