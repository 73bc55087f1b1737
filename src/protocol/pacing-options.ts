import * as v from "valibot";
import { integerIn } from "./fields.js";
import { callerLimits as limits } from "./limits.js";

const pacing = limits.pacing;
const gap = v.optional(integerIn(0, pacing.gapMaxMs));
const keyDelay = v.optional(integerIn(0, pacing.keyDelayMaxMs));

type Bound = "minGapMs" | "maxGapMs" | "keyDelayMinMs" | "keyDelayMaxMs" | "warmupStartPerDay" | "actionsPerDay";

/** `low` ≤ `high` (or `highDefault` when `high` is left out), blaming `blamed` otherwise. */
const ordered = (low: Bound, high: Bound, blamed: Bound, highDefault = Infinity) =>
  v.forward(
    v.check((input: Partial<Record<Bound, number>>) => input[low] === undefined || input[low] <= (input[high] ?? highDefault), `expected ${low} ≤ ${high}`),
    [blamed] as never,
  );

/** Overrides of the pacing policy for one session (defaults in `limits.pacing`). */
export const PacingOverridesSchema = v.pipe(
  v.strictObject({
    /** Shortest and longest gap between two paced actions of the session (ms; drawn uniformly between them). */
    minGapMs: gap,
    maxGapMs: gap,
    /** Type `fill` and `type` text key by key with a human cadence (off by default: `fill` is then instant). */
    humanTyping: v.optional(v.boolean("expected a boolean")),
    /** Shortest and longest pause before a typed character (ms; longer after spaces and punctuation). */
    keyDelayMinMs: keyDelay,
    keyDelayMaxMs: keyDelay,
    /** Paced actions per minute for the profile (token bucket, burst of the same size). */
    actionsPerMinute: v.optional(integerIn(1, pacing.actionsPerMinuteMax)),
    /** Paced actions per UTC day for the profile, once warmed up. */
    actionsPerDay: v.optional(integerIn(1, pacing.actionsPerDayMax)),
    /** Days over which the daily allowance ramps up from `warmupStartPerDay`, counted from the profile's first paced action (0: no ramp). */
    warmupDays: v.optional(integerIn(0, pacing.warmupDaysMax)),
    /** The allowance of the first warm-up day (default a tenth of `actionsPerDay`). */
    warmupStartPerDay: v.optional(integerIn(1, pacing.actionsPerDayMax)),
    /** Longest an action waits for its turn; a longer wait fails at once with `RateLimitedError` (ms). */
    maxWaitMs: v.optional(integerIn(0, pacing.waitMaxMs)),
    /** How long the profile pauses after the site throttled it (ms). */
    backoffMs: v.optional(integerIn(0, pacing.backoffMaxMs)),
  }, "expected true, false or an object of pacing overrides"),
  ordered("minGapMs", "maxGapMs", "maxGapMs"),
  ordered("keyDelayMinMs", "keyDelayMaxMs", "keyDelayMaxMs"),
  ordered("warmupStartPerDay", "actionsPerDay", "warmupStartPerDay", pacing.actionsPerDayDefault),
);

/**
 * `pacing` of the open options: `true` paces with the defaults, `false`
 * turns pacing off, an object paces with those overrides. Left out: on for
 * hosted providers (Browserbase, Steel), off for local Chromium.
 */
export const PacingOptionSchema = v.optional(v.lazy((input) => (typeof input === "boolean" ? v.boolean() : PacingOverridesSchema)));

/** Pacing overrides as given. */
export type PacingOverrides = v.InferInput<typeof PacingOverridesSchema>;
