import { limits } from "../../protocol/limits.js";
import type { PacingOverrides } from "../../protocol/pacing-options.js";
import type { CommandOp } from "../../protocol/commands.js";
import { observationOps } from "../../protocol/command-ops.js";

/** The pacing of one session, resolved from its open options and its provider. */
export interface PacingPolicy {
  /** False: nothing is paced (no gap, no bucket, no human typing). */
  enabled: boolean;
  /** Gap between two paced actions of the session, drawn uniformly in [min, max] (ms). */
  minGapMs: number;
  maxGapMs: number;
  /** `fill` and `type` are typed key by key with the cadence below. */
  humanTyping: boolean;
  /** Pause before each typed character, drawn in [min, max], plus more after spaces and punctuation (ms). */
  keyDelayMinMs: number;
  keyDelayMaxMs: number;
  /** The profile's token bucket: actions per minute (also the burst) and per UTC day. */
  actionsPerMinute: number;
  actionsPerDay: number;
  /** Days of warm-up from the profile's first paced action (0: none), starting at `warmupStartPerDay`. */
  warmupDays: number;
  warmupStartPerDay: number;
  /** Longest wait for a turn; past it the action fails with `RateLimitedError` (ms). */
  maxWaitMs: number;
  /** Pause of the profile after a throttle signal from the site (ms). */
  backoffMs: number;
}

/** Providers paced unless the open says otherwise. */
export const pacedProviders: ReadonlySet<string> = new Set(["browserbase", "steel"]);

/**
 * Mutating commands that are not paced: they do not reach the site as input
 * (arming a dialog policy, switching the selected tab, deleting a kept
 * download, tracing). Observation commands are never paced either.
 */
export const unpacedOps: ReadonlySet<CommandOp> = new Set<CommandOp>([
  ...observationOps,
  "dialog",
  "selectPage",
  "downloadDelete",
  "traceStart",
  "traceStop",
]);

/** True when a command of `op` waits for its turn under an enabled policy. */
export const isPacedOp = (op: string): boolean => !unpacedOps.has(op as CommandOp);

/**
 * The policy of a session: `pacing` from its open options (`true`, `false`,
 * overrides or left out) on a provider. Left out, hosted providers are paced
 * and local Chromium is not; overrides turn pacing on.
 *
 * @example
 * ```ts
 * resolvePacingPolicy(undefined, "browserbase").enabled; // true
 * resolvePacingPolicy({ humanTyping: true }, "local").humanTyping; // true
 * ```
 */
export function resolvePacingPolicy(pacing: boolean | PacingOverrides | undefined, provider: string): PacingPolicy {
  const defaults = limits.pacing;
  const overrides = typeof pacing === "object" ? pacing : {};
  const actionsPerDay = overrides.actionsPerDay ?? defaults.actionsPerDayDefault;
  return {
    enabled: pacing === undefined ? pacedProviders.has(provider) : pacing !== false,
    minGapMs: overrides.minGapMs ?? Math.min(defaults.gapDefaultMinMs, overrides.maxGapMs ?? Infinity),
    maxGapMs: overrides.maxGapMs ?? Math.max(defaults.gapDefaultMaxMs, overrides.minGapMs ?? 0),
    humanTyping: overrides.humanTyping ?? false,
    keyDelayMinMs: overrides.keyDelayMinMs ?? Math.min(defaults.keyDelayDefaultMinMs, overrides.keyDelayMaxMs ?? Infinity),
    keyDelayMaxMs: overrides.keyDelayMaxMs ?? Math.max(defaults.keyDelayDefaultMaxMs, overrides.keyDelayMinMs ?? 0),
    actionsPerMinute: overrides.actionsPerMinute ?? defaults.actionsPerMinuteDefault,
    actionsPerDay,
    warmupDays: overrides.warmupDays ?? 0,
    warmupStartPerDay: Math.min(actionsPerDay, overrides.warmupStartPerDay ?? Math.ceil(actionsPerDay / 10)),
    maxWaitMs: overrides.maxWaitMs ?? defaults.waitDefaultMs,
    backoffMs: overrides.backoffMs ?? defaults.backoffDefaultMs,
  };
}
