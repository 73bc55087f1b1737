import type { PacingPolicy } from "./policy.js";

const dayMs = 24 * 60 * 60_000;

/** The UTC day of a time (days since the epoch). */
export const dayOf = (time: number): number => Math.floor(time / dayMs);

/**
 * A profile's pacing counters: its token bucket (actions per minute), the
 * count of the current UTC day, the day of its first paced action (for the
 * warm-up) and a pause after a throttle signal. Plain data, so a state store
 * can keep it across restarts.
 */
export interface ProfilePacingState {
  tokens: number;
  refilledAt: number;
  day: number;
  dayCount: number;
  /** UTC day of the first paced action (absent until one ran). */
  firstDay?: number;
  /** Paused until this time (epoch ms) after the site throttled the profile. */
  pausedUntil?: number;
  pauseReason?: string;
}

/** What the bucket says of the next action. */
export type BucketTurn =
  | { kind: "ready"; waitMs: number; reasons: string[] }
  | { kind: "refused"; retryAfterMs: number; reason: string };

type BucketPolicy = Pick<PacingPolicy, "actionsPerMinute" | "actionsPerDay" | "warmupDays" | "warmupStartPerDay">;

/** A full bucket with nothing counted. */
export function freshBucket(policy: BucketPolicy, now: number): ProfilePacingState {
  return { tokens: policy.actionsPerMinute, refilledAt: now, day: dayOf(now), dayCount: 0 };
}

/** The state at `now`: tokens refilled at `actionsPerMinute` per minute (never above it), the day count reset on a new day. */
export function refill(state: ProfilePacingState, policy: BucketPolicy, now: number): ProfilePacingState {
  const elapsed = Math.max(0, now - state.refilledAt);
  const tokens = Math.min(policy.actionsPerMinute, state.tokens + (elapsed * policy.actionsPerMinute) / 60_000);
  const day = dayOf(now);
  return { ...state, tokens, refilledAt: Math.max(now, state.refilledAt), ...(day === state.day ? {} : { day, dayCount: 0 }) };
}

/**
 * Today's allowance: `actionsPerDay`, or during the warm-up (the first
 * `warmupDays` days from the first paced action) a linear ramp from
 * `warmupStartPerDay` on day 0 up to `actionsPerDay`.
 */
export function dailyLimit(state: ProfilePacingState, policy: BucketPolicy, now: number): number {
  if (policy.warmupDays === 0) return policy.actionsPerDay;
  const age = dayOf(now) - (state.firstDay ?? dayOf(now));
  if (age >= policy.warmupDays) return policy.actionsPerDay;
  const ramp = policy.warmupStartPerDay + ((policy.actionsPerDay - policy.warmupStartPerDay) * age) / policy.warmupDays;
  return Math.max(1, Math.floor(ramp));
}

/**
 * When the next action may run: after `extraWaitMs` (the session's gap), a
 * token, and the end of a pause; refused when today's allowance is spent or
 * the wait would pass `maxWaitMs`. `state` must be refilled to `now`.
 */
export function nextTurn(state: ProfilePacingState, policy: BucketPolicy, now: number, extraWaitMs: number, maxWaitMs: number): BucketTurn {
  const paused = state.pausedUntil !== undefined && state.pausedUntil > now ? state.pausedUntil - now : 0;
  if (state.dayCount >= dailyLimit(state, policy, now)) {
    const nextDay = (dayOf(now) + 1) * dayMs - now;
    return { kind: "refused", retryAfterMs: Math.max(nextDay, paused), reason: `the profile's ${dailyLimit(state, policy, now)} actions of today (UTC) are spent` };
  }
  // The tolerance absorbs rounding: a wait of the computed length always brings the token.
  const forToken = state.tokens >= 1 - 1e-9 ? 0 : Math.ceil(((1 - state.tokens) * 60_000) / policy.actionsPerMinute);
  const waits: [string, number][] = [
    ["gap", extraWaitMs],
    ["perMinute", forToken],
    ["pause", paused],
  ];
  const waitMs = Math.max(...waits.map(([, wait]) => wait));
  if (waitMs > maxWaitMs) {
    const reason =
      paused === waitMs
        ? `the profile is paused after the site throttled it${state.pauseReason ? ` (${state.pauseReason})` : ""}`
        : forToken === waitMs
          ? `the profile's ${policy.actionsPerMinute} actions per minute are spent`
          : "the gap between actions is longer than the wait allowed";
    return { kind: "refused", retryAfterMs: waitMs, reason };
  }
  return { kind: "ready", waitMs, reasons: waits.filter(([, wait]) => wait > 0).map(([reason]) => reason) };
}

/** Counts one action at `now` (the state refilled to `now`): one token less, one more today. */
export function take(state: ProfilePacingState, now: number): ProfilePacingState {
  return { ...state, tokens: state.tokens - 1, dayCount: state.dayCount + 1, firstDay: state.firstDay ?? dayOf(now) };
}

/** Pauses the profile until `until` (a later pause already set is kept). */
export function pauseUntil(state: ProfilePacingState, until: number, reason: string): ProfilePacingState {
  if (state.pausedUntil !== undefined && state.pausedUntil >= until) return state;
  return { ...state, pausedUntil: until, pauseReason: reason };
}
