import type { BrowserAdapter } from "../protocol/adapter.js";
import { BrowserSessionManager as NeutralSessionManager } from "../lifecycle/manager.js";
import type { SessionManagerOptions } from "../lifecycle/options.js";
import { createFileRecordingStore } from "./file-recording-store.js";
import { createFileStateStore } from "./file-state-store.js";

/**
 * The session manager with file-backed storage: `stateRootDir` holds the
 * journal and checkpoints (one live owner; a root remembers its tenant),
 * `recordingRootDir` the recording frames (they survive a restart and expire
 * after `recordingTtlMs`). Everything else is the runtime-neutral manager.
 *
 * @example
 * ```ts
 * import { BrowserSessionManager, PlaywrightBrowserAdapter } from "station-browser-use/playwright";
 * const browsers = new BrowserSessionManager(new PlaywrightBrowserAdapter(), 4, { stateRootDir: "./state", ownsAdapter: true });
 * await browsers.ready(); // throws if another live process owns ./state
 * ```
 */
export class BrowserSessionManager extends NeutralSessionManager {
  constructor(adapter: BrowserAdapter, maxSessions: number, options: SessionManagerOptions = {}) {
    super(adapter, maxSessions, {
      ...options,
      ...(options.stateRootDir !== undefined && options.stateStore === undefined
        ? { stateStore: createFileStateStore(options.stateRootDir) }
        : {}),
      ...(options.recordingRootDir !== undefined && options.recordingStore === undefined
        ? { recordingStore: createFileRecordingStore(options.recordingRootDir) }
        : {}),
    });
  }
}
