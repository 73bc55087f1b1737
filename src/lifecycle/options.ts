import * as v from "valibot";
import { ValidationError } from "../errors.js";
import { integerIn, profileId } from "../protocol/fields.js";
import { limits } from "../protocol/limits.js";
import { parseWith } from "../protocol/parse.js";
import { systemClock, type Clock } from "./clock.js";
import type { RandomSource } from "../access/pacing/random.js";
import { createMemoryRecordingStore, createMemoryStateStore } from "./memory-stores.js";
import type { RecordingStore, StateStore } from "./stores.js";

/** Options of the session manager. */
export interface SessionManagerOptions {
  /** Durable journal and checkpoints in a directory (Node entry `station-browser-use/playwright` only). */
  stateRootDir?: string;
  /** Recording frames on disk (Node entry only). */
  recordingRootDir?: string;
  /** Close a session after this long without actions (default 15 min). */
  idleTimeoutMs?: number;
  /** Journal/audit entries kept (default 1000, at most 10000). */
  auditLimit?: number;
  /** The tenant this manager (and its state root) belongs to. */
  tenantId?: string;
  /** How long recordings stay on disk (default 7 days). */
  recordingTtlMs?: number;
  /** Where the journal and checkpoints live (default in memory). */
  stateStore?: StateStore;
  /** Where recording frames live (default in memory). */
  recordingStore?: RecordingStore;
  /** Time source and timers (default the system clock); pacing waits run on it. */
  clock?: Clock;
  /** Uniform numbers in [0, 1) for pacing jitter and typing cadence (default `Math.random`; seeded in tests). */
  random?: RandomSource;
  /**
   * Host profile ids this manager may open (more with `grantProfile`). A
   * profile that is not granted cannot be opened.
   */
  profileGrants?: string[];
  /** Lower recording limits (each at most the default), mainly for tests. */
  recordingLimits?: { framesPerRecording?: number; recordingsPerManager?: number; bytesPerManager?: number };
  /**
   * `close()` also shuts the adapter down (its browsers end), for an adapter
   * made for this manager alone. Default `false`: the adapter you pass stays
   * yours — several managers may share one — and you call its `shutdown()`.
   */
  ownsAdapter?: boolean;
}

/** Options after defaults and validation. */
export interface ResolvedSessionManagerOptions {
  idleTimeoutMs: number;
  auditLimit: number;
  tenantId: string | undefined;
  recordingTtlMs: number;
  stateStore: StateStore;
  recordingStore: RecordingStore;
  clock: Clock;
  random: RandomSource;
  recordingLimits: { framesPerRecording: number; recordingsPerManager: number; bytesPerManager: number };
  profileGrants: string[];
  ownsAdapter: boolean;
}

const ScalarOptionsSchema = v.object({
  idleTimeoutMs: v.optional(integerIn(limits.manager.idleTimeoutMinMs, limits.manager.idleTimeoutMaxMs)),
  auditLimit: v.optional(integerIn(1, limits.manager.journalEntriesMax)),
  tenantId: v.optional(v.pipe(v.string("expected a string"), v.regex(/^[A-Za-z0-9._:-]{1,128}$/, "expected 1–128 letters, digits, '.', '_', ':' or '-'"))),
  recordingTtlMs: v.optional(integerIn(60_000, 365 * 24 * 60 * 60_000)),
  profileGrants: v.optional(v.array(profileId, "expected an array of profile ids")),
  ownsAdapter: v.optional(v.boolean("expected a boolean")),
  recordingLimits: v.optional(
    v.strictObject({
      framesPerRecording: v.optional(integerIn(1, limits.recording.framesPerRecording)),
      recordingsPerManager: v.optional(integerIn(1, limits.recording.recordingsPerManager)),
      bytesPerManager: v.optional(integerIn(1, limits.recording.bytesPerManager)),
    }),
  ),
});

/**
 * Applies defaults and validates. Directory options need the Node entry,
 * which turns them into file stores before calling this.
 */
export function resolveSessionManagerOptions(options: SessionManagerOptions): ResolvedSessionManagerOptions {
  if (options.stateRootDir !== undefined && options.stateStore === undefined) {
    throw new ValidationError(
      "options.stateRootDir",
      'file storage needs Node: use BrowserSessionManager from "station-browser-use/playwright", or pass a stateStore',
    );
  }
  if (options.recordingRootDir !== undefined && options.recordingStore === undefined) {
    throw new ValidationError(
      "options.recordingRootDir",
      'file storage needs Node: use BrowserSessionManager from "station-browser-use/playwright", or pass a recordingStore',
    );
  }
  if (options.random !== undefined && typeof options.random !== "function") {
    throw new ValidationError("options.random", "expected a function returning numbers in [0, 1)");
  }
  const scalars = parseWith(ScalarOptionsSchema, options, "options");
  return {
    idleTimeoutMs: scalars.idleTimeoutMs ?? limits.manager.idleTimeoutDefaultMs,
    auditLimit: scalars.auditLimit ?? limits.manager.journalEntriesDefault,
    tenantId: scalars.tenantId,
    recordingTtlMs: scalars.recordingTtlMs ?? limits.recording.ttlDefaultMs,
    stateStore: options.stateStore ?? createMemoryStateStore(),
    recordingStore: options.recordingStore ?? createMemoryRecordingStore(),
    clock: options.clock ?? systemClock,
    random: options.random ?? Math.random,
    profileGrants: scalars.profileGrants ?? [],
    ownsAdapter: scalars.ownsAdapter ?? false,
    recordingLimits: {
      framesPerRecording: scalars.recordingLimits?.framesPerRecording ?? limits.recording.framesPerRecording,
      recordingsPerManager: scalars.recordingLimits?.recordingsPerManager ?? limits.recording.recordingsPerManager,
      bytesPerManager: scalars.recordingLimits?.bytesPerManager ?? limits.recording.bytesPerManager,
    },
  };
}
