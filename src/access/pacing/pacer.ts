import { RateLimitedError } from "../../errors.js";
import { limits } from "../../protocol/limits.js";
import type { PacingReport, PacingWait } from "../../protocol/results.js";
import { dailyLimit, freshBucket, nextTurn, pauseUntil, refill, take, type ProfilePacingState } from "./bucket.js";
import { keyDelays } from "./cadence.js";
import { isPacedOp, type PacingPolicy } from "./policy.js";
import { between, type RandomSource } from "./random.js";

/** Starts the bucket key of a session without a profile (never a valid profile id): such buckets are not kept. */
export const sessionBucketPrefix = "#";

/** Profile pacing states by profile id, as a state store keeps them. */
export type StoredPacing = Record<string, ProfilePacingState>;

/** A session's turn: how long to wait before its action runs (0: at once). */
export interface PacingTurn {
  waitMs: number;
  reasons: string[];
}

interface PacedSession {
  policy: PacingPolicy;
  bucketKey: string;
  /** Kept across restarts (a profile), or dropped with the session. */
  persistent: boolean;
  /** The gap after the last paced action ends here. */
  nextAllowedAt: number;
  waits: PacingWait[];
  totalWaitedMs: number;
  refused: number;
}

/**
 * The pacing of a manager's sessions: a gap with jitter between paced
 * actions of each session, a token bucket and a daily count per profile
 * (with an optional warm-up), pauses after throttle signals, and the typing
 * cadence. It decides and counts; the caller waits (on its own clock) and
 * runs the action. Runtime-neutral: time and randomness are passed in.
 *
 * @example
 * ```ts
 * const pacer = new Pacer(() => Date.now(), Math.random);
 * pacer.openSession("s1", resolvePacingPolicy(true, "local"), "research");
 * const { waitMs } = pacer.turn("s1", "click", 10_000); // throws RateLimitedError when it may not run soon
 * ```
 */
export class Pacer {
  private readonly sessions = new Map<string, PacedSession>();
  private readonly buckets = new Map<string, ProfilePacingState>();
  private readonly refusals = new WeakSet<object>();

  /** `persist` is called with the profiles' states after each change (not with sessions' own buckets). */
  constructor(
    private readonly now: () => number,
    private readonly random: RandomSource,
    private readonly persist: (states: StoredPacing) => void = () => undefined,
  ) {}

  /** Loads the profiles' states a store kept. */
  load(stored: StoredPacing | undefined): void {
    for (const [key, state] of Object.entries(stored ?? {})) this.buckets.set(key, { ...state });
  }

  /**
   * Starts pacing a session under `policy`. With a `profileId` its actions
   * count against that profile's bucket (kept across restarts by the store);
   * without, against a bucket of its own that ends with it.
   */
  openSession(sessionId: string, policy: PacingPolicy, profileId?: string): void {
    const persistent = profileId !== undefined;
    const bucketKey = profileId ?? `${sessionBucketPrefix}${sessionId}`;
    this.sessions.set(sessionId, { policy, bucketKey, persistent, nextAllowedAt: 0, waits: [], totalWaitedMs: 0, refused: 0 });
  }

  /** Stops pacing a session; a profile's counters stay (and persist), a session's own bucket goes. */
  closeSession(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    if (session && !session.persistent) this.buckets.delete(session.bucketKey);
  }

  /** The session's policy (undefined for a session not opened here). */
  policy(sessionId: string): PacingPolicy | undefined {
    return this.sessions.get(sessionId)?.policy;
  }

  /** True when `op` is paced in this session. */
  paces(sessionId: string, op: string): boolean {
    return this.sessions.get(sessionId)?.policy.enabled === true && isPacedOp(op);
  }

  /**
   * When the session's next `op` may run: the wait (at most `budgetMs` and
   * the policy's `maxWaitMs`) before it. Nothing is counted yet ({@link take} does).
   * @throws RateLimitedError (with `retryAfterMs`) when it may not run within that wait.
   */
  turn(sessionId: string, op: string, budgetMs: number): PacingTurn {
    const session = this.sessions.get(sessionId);
    if (!session || !this.paces(sessionId, op)) return { waitMs: 0, reasons: [] };
    const now = this.now();
    const bucket = this.bucket(session, now);
    const decision = nextTurn(bucket, session.policy, now, Math.max(0, session.nextAllowedAt - now), Math.min(session.policy.maxWaitMs, budgetMs));
    if (decision.kind === "refused") {
      session.refused++;
      const seconds = Math.ceil(decision.retryAfterMs / 1000);
      const error = new RateLimitedError(`${op} on session ${sessionId} was not run: ${decision.reason}; it may run in ${seconds} s. Nothing was sent to the page.`, {
        retryAfterMs: decision.retryAfterMs,
      });
      this.refusals.add(error);
      throw error;
    }
    return { waitMs: decision.waitMs, reasons: decision.reasons };
  }

  /** True for a `RateLimitedError` this pacer made (a refusal of ours, not a throttle signal from a site). */
  isOwnRefusal(error: unknown): boolean {
    return typeof error === "object" && error !== null && this.refusals.has(error);
  }

  /** Counts the session's `op` as it starts, after waiting `waitedMs`; `typingMs` is the cadence it carries. */
  take(sessionId: string, op: string, waitedMs: number, reasons: string[], typingMs: number): void {
    const session = this.sessions.get(sessionId);
    if (!session || !this.paces(sessionId, op)) return;
    const now = this.now();
    this.setBucket(session, take(this.bucket(session, now), now));
    session.totalWaitedMs += waitedMs;
    session.waits.push({ at: new Date(now).toISOString(), op, waitedMs, ...(typingMs > 0 ? { typingMs } : {}), reasons });
    if (session.waits.length > limits.pacing.waitsReported) session.waits.shift();
  }

  /** The session's paced action ended: the next one waits a fresh gap from now. */
  finished(sessionId: string, op: string): void {
    const session = this.sessions.get(sessionId);
    if (!session || !this.paces(sessionId, op)) return;
    session.nextAllowedAt = this.now() + between(this.random, session.policy.minGapMs, session.policy.maxGapMs);
  }

  /** The typing cadence for `text` when the session types like a human, else undefined. */
  keyDelays(sessionId: string, text: string): number[] | undefined {
    const policy = this.sessions.get(sessionId)?.policy;
    if (!policy?.enabled || !policy.humanTyping || text === "") return undefined;
    return keyDelays(text, policy, this.random);
  }

  /**
   * Pauses the bucket of the session's profile for `backoffMs` of its policy
   * (or `atLeastMs`, when longer) after the site throttled it. Returns the
   * end of the pause, or undefined when the session is not paced.
   */
  throttled(sessionId: string, reason: string, atLeastMs = 0): number | undefined {
    const session = this.sessions.get(sessionId);
    if (!session?.policy.enabled) return undefined;
    const now = this.now();
    const until = now + Math.max(session.policy.backoffMs, atLeastMs);
    const state = pauseUntil(this.bucket(session, now), until, reason);
    this.setBucket(session, state);
    return state.pausedUntil;
  }

  /** What diagnostics say of the session's pacing. */
  report(sessionId: string): PacingReport | undefined {
    const session = this.sessions.get(sessionId);
    if (!session) return undefined;
    const base = { enabled: session.policy.enabled, policy: { ...session.policy }, waits: [...session.waits], totalWaitedMs: session.totalWaitedMs, refused: session.refused };
    if (!session.policy.enabled) return base;
    const now = this.now();
    const bucket = this.bucket(session, now);
    const paused = bucket.pausedUntil !== undefined && bucket.pausedUntil > now;
    return {
      ...base,
      bucketKey: session.persistent ? session.bucketKey : "session",
      dayCount: bucket.dayCount,
      dailyLimit: dailyLimit(bucket, session.policy, now),
      ...(paused ? { pausedUntil: new Date(bucket.pausedUntil!).toISOString(), ...(bucket.pauseReason ? { pauseReason: bucket.pauseReason } : {}) } : {}),
    };
  }

  private bucket(session: PacedSession, now: number): ProfilePacingState {
    const state = this.buckets.get(session.bucketKey) ?? freshBucket(session.policy, now);
    return refill(state, session.policy, now);
  }

  private setBucket(session: PacedSession, state: ProfilePacingState): void {
    this.buckets.set(session.bucketKey, state);
    if (!session.persistent) return;
    const stored: StoredPacing = {};
    for (const [key, each] of this.buckets) if (!key.startsWith(sessionBucketPrefix)) stored[key] = { ...each };
    this.persist(stored);
  }
}
