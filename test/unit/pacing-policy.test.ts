/**
 * The pacing rules of src/access/pacing on their own: a fake clock (a number
 * the test moves) and a seeded random source, never real time.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Pacer, createSeededRandom, dailyLimit, freshBucket, keyDelays, nextTurn, refill, resolvePacingPolicy, take } from "../../src/access/pacing/index.js";
import { isRateLimitedError, RateLimitedError } from "../../src/errors.js";
import { limits } from "../../src/protocol/limits.js";
import { parseCommand } from "../../src/protocol/parse-command.js";
import { commandBudgetMs } from "../../src/protocol/budget.js";

const day = 24 * 60 * 60_000;
const start = Date.UTC(2026, 11, 1, 9, 0, 0);

function setup(overrides: Parameters<typeof resolvePacingPolicy>[0] = true, seed = 7) {
  let now = start;
  const saved: unknown[] = [];
  const pacer = new Pacer(() => now, createSeededRandom(seed), (states) => saved.push(states));
  const policy = resolvePacingPolicy(overrides, "local");
  return { pacer, policy, saved, advance: (ms: number) => (now += ms), now: () => now };
}

/** Runs one paced action the way the manager does: turn, wait (by moving the clock), take, finish. */
function act(context: ReturnType<typeof setup>, sessionId = "s1", op = "click", budgetMs = 10_000): number {
  const { waitMs, reasons } = context.pacer.turn(sessionId, op, budgetMs);
  context.advance(waitMs);
  context.pacer.take(sessionId, op, waitMs, reasons, 0);
  context.pacer.finished(sessionId, op);
  return waitMs;
}

describe("policy", () => {
  it("paces hosted providers by default, not local Chromium; an open may override either way", () => {
    expect(resolvePacingPolicy(undefined, "browserbase").enabled).toBe(true);
    expect(resolvePacingPolicy(undefined, "steel").enabled).toBe(true);
    expect(resolvePacingPolicy(undefined, "local").enabled).toBe(false);
    expect(resolvePacingPolicy(false, "steel").enabled).toBe(false);
    expect(resolvePacingPolicy(true, "local")).toMatchObject({ enabled: true, minGapMs: 800, maxGapMs: 2500, humanTyping: false, keyDelayMinMs: 50, keyDelayMaxMs: 150 });
    expect(resolvePacingPolicy({ humanTyping: true, maxGapMs: 500 }, "local")).toMatchObject({ enabled: true, humanTyping: true, minGapMs: 500, maxGapMs: 500 });
  });
});

describe("gap between actions", () => {
  it("waits a jittered gap in [min, max] after each paced action, and none before the first", () => {
    const context = setup({ actionsPerMinute: 600 });
    context.pacer.openSession("s1", context.policy);
    expect(act(context)).toBe(0);
    const gaps = Array.from({ length: 40 }, () => act(context));
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(800);
      expect(gap).toBeLessThanOrEqual(2500);
    }
    expect(new Set(gaps).size).toBeGreaterThan(20); // jittered, not one fixed pause
  });

  it("the same seed gives the same waits", () => {
    const run = () => {
      const context = setup({ actionsPerMinute: 600 }, 99);
      context.pacer.openSession("s1", context.policy);
      return Array.from({ length: 10 }, () => act(context));
    };
    expect(run()).toEqual(run());
  });

  it("never paces observation commands, nor an unpaced session", () => {
    const context = setup();
    context.pacer.openSession("s1", context.policy);
    context.pacer.openSession("off", resolvePacingPolicy(false, "browserbase"));
    act(context);
    for (const op of ["screenshot", "accessibility", "text", "challenge", "diagnostics", "pages", "waitFor", "dialog"]) {
      expect(context.pacer.turn("s1", op, 10_000)).toEqual({ waitMs: 0, reasons: [] });
    }
    expect(context.pacer.turn("s1", "click", 10_000).waitMs).toBeGreaterThan(0);
    for (let index = 0; index < 100; index++) expect(act(context, "off")).toBe(0);
  });
});

describe("token bucket", () => {
  it("lets a burst of actionsPerMinute through, then waits for a token, then refuses past maxWaitMs", () => {
    const context = setup({ minGapMs: 0, maxGapMs: 0, actionsPerMinute: 6, maxWaitMs: 5_000 });
    context.pacer.openSession("s1", context.policy, "whatsapp:acme");
    for (let index = 0; index < 6; index++) expect(act(context)).toBe(0);
    // A token comes every 10 s: more than the 5 s allowed.
    const error = (() => {
      try {
        context.pacer.turn("s1", "click", 10_000);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(isRateLimitedError(error)).toBe(true);
    expect((error as RateLimitedError).retryAfterMs).toBe(10_000);
    expect((error as Error).message).toMatch(/6 actions per minute are spent; it may run in 10 s\. Nothing was sent/);
    context.advance(6_000);
    expect(context.pacer.turn("s1", "click", 10_000)).toEqual({ waitMs: 4_000, reasons: ["perMinute"] });
    // The command's own budget bounds the wait too.
    expect(() => context.pacer.turn("s1", "click", 3_000)).toThrow(RateLimitedError);
    expect(context.pacer.report("s1")).toMatchObject({ refused: 2, dayCount: 6, bucketKey: "whatsapp:acme" });
  });

  it("property: over any schedule, no minute window holds more than the burst plus the refill, and no day more than its allowance", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 120 }),
        (perMinute, perDay, pauses) => {
          const policy = resolvePacingPolicy({ minGapMs: 0, maxGapMs: 0, actionsPerMinute: perMinute, actionsPerDay: perDay, maxWaitMs: 30_000 }, "local");
          let state = freshBucket(policy, start);
          let now = start;
          const ran: number[] = [];
          for (const pause of pauses) {
            now += pause;
            state = refill(state, policy, now);
            const turn = nextTurn(state, policy, now, 0, policy.maxWaitMs);
            if (turn.kind === "refused") {
              expect(turn.retryAfterMs).toBeGreaterThan(0);
              continue;
            }
            now += turn.waitMs;
            state = take(refill(state, policy, now), now);
            ran.push(now);
          }
          for (const time of ran) {
            const inMinute = ran.filter((other) => other >= time && other < time + 60_000).length;
            expect(inMinute).toBeLessThanOrEqual(2 * perMinute);
          }
          const byDay = new Map<number, number>();
          for (const time of ran) byDay.set(Math.floor(time / day), (byDay.get(Math.floor(time / day)) ?? 0) + 1);
          for (const count of byDay.values()) expect(count).toBeLessThanOrEqual(perDay);
        },
      ),
      { seed: 13, numRuns: 200 },
    );
  });

  it("refuses once today's allowance is spent, until the next UTC day", () => {
    const context = setup({ minGapMs: 0, maxGapMs: 0, actionsPerDay: 3 });
    context.pacer.openSession("s1", context.policy, "research");
    for (let index = 0; index < 3; index++) act(context);
    let error: RateLimitedError | undefined;
    try {
      context.pacer.turn("s1", "click", 10_000);
    } catch (caught) {
      error = caught as RateLimitedError;
    }
    const midnight = Math.ceil(context.now() / day) * day;
    expect(error?.retryAfterMs).toBe(midnight - context.now());
    expect(error?.message).toMatch(/3 actions of today \(UTC\) are spent/);
    context.advance(midnight - context.now());
    expect(act(context)).toBe(0);
  });

  it("warms a profile up: the daily allowance ramps from warmupStartPerDay to actionsPerDay over warmupDays", () => {
    const policy = resolvePacingPolicy({ actionsPerDay: 100, warmupDays: 4, warmupStartPerDay: 20 }, "local");
    const state = take(freshBucket(policy, start), start);
    expect([0, 1, 2, 3, 4, 30].map((age) => dailyLimit(state, policy, start + age * day))).toEqual([20, 40, 60, 80, 100, 100]);
    const defaults = resolvePacingPolicy({ actionsPerDay: 50, warmupDays: 2 }, "local");
    expect(defaults.warmupStartPerDay).toBe(5);
  });

  it("a throttle pause holds the profile's bucket for the back-off, then lets it go", () => {
    const context = setup({ backoffMs: 60_000 });
    context.pacer.openSession("s1", context.policy, "tiktok:1");
    act(context);
    expect(context.pacer.throttled("s1", "rate_limited")).toBe(context.now() + 60_000);
    expect(() => context.pacer.turn("s1", "click", 10_000)).toThrow(/paused after the site throttled it \(rate_limited\); it may run in 60 s/);
    expect(context.pacer.report("s1")).toMatchObject({ pauseReason: "rate_limited", pausedUntil: new Date(context.now() + 60_000).toISOString() });
    // A longer wait asked by the site wins over the back-off.
    expect(context.pacer.throttled("s1", "429", 120_000)).toBe(context.now() + 120_000);
    context.advance(115_000);
    expect(context.pacer.turn("s1", "click", 10_000)).toEqual({ waitMs: 5_000, reasons: ["pause"] });
    context.advance(5_000);
    expect(context.pacer.turn("s1", "click", 10_000).waitMs).toBe(0);
  });

  it("keeps a profile's counters in what it persists (not a profile-less session's), and loads them back", () => {
    const context = setup({ minGapMs: 0, maxGapMs: 0, actionsPerDay: 2 });
    context.pacer.openSession("s1", context.policy, "research");
    context.pacer.openSession("s2", context.policy);
    act(context, "s2");
    act(context);
    act(context);
    const stored = context.saved.at(-1) as Record<string, { dayCount: number }>;
    expect(Object.keys(stored)).toEqual(["research"]);
    expect(stored.research!.dayCount).toBe(2);
    const again = new Pacer(context.now, createSeededRandom(1));
    again.load(stored as never);
    again.openSession("s3", context.policy, "research");
    expect(() => again.turn("s3", "click", 10_000)).toThrow(/2 actions of today/);
  });
});

describe("typing cadence", () => {
  it("gives one pause per character in [min, max], longer after spaces and punctuation", () => {
    const random = createSeededRandom(3);
    const policy = resolvePacingPolicy(true, "local");
    const text = "hello, big world";
    const delays = keyDelays(text, policy, random);
    expect(delays).toHaveLength([...text].length);
    const characters = [...text];
    for (const [index, delay] of delays.entries()) {
      const previous = characters[index - 1];
      const extra = previous === " " ? limits.pacing.afterSpaceExtraMs : previous === "," ? limits.pacing.afterPunctuationExtraMs : [0, 0];
      expect(delay).toBeGreaterThanOrEqual(50 + extra[0]!);
      expect(delay).toBeLessThanOrEqual(150 + extra[1]!);
    }
    expect(keyDelays(text, policy, createSeededRandom(3))).toEqual(delays);
    // Characters outside the BMP count once, as the engine types them.
    expect(keyDelays("a😀b", policy, random)).toHaveLength(3);
  });

  it("scales a cadence longer than typingTotalMaxMs down to fit, and the command parser accepts what it makes", () => {
    const policy = resolvePacingPolicy({ keyDelayMinMs: 2000, keyDelayMaxMs: 2000 }, "local");
    const text = "x".repeat(100);
    const delays = keyDelays(text, policy, createSeededRandom(1));
    expect(delays.reduce((sum, delay) => sum + delay, 0)).toBeLessThanOrEqual(limits.pacing.typingTotalMaxMs);
    const command = parseCommand({ op: "fill", selector: "#q", value: text, keyDelaysMs: delays });
    expect(commandBudgetMs(command)).toBe(limits.actionTimeoutDefaultMs + delays.reduce((sum, delay) => sum + delay, 0));
  });

  it("the parser refuses a cadence that does not match the text, naming the field", () => {
    expect(() => parseCommand({ op: "type", text: "abc", keyDelaysMs: [1, 2] })).toThrow(/command\.keyDelaysMs: expected one pause per character \(3\), got 2/);
    expect(() => parseCommand({ op: "type", text: "ab", delayMs: 5, keyDelaysMs: [1, 2] })).toThrow(/command\.keyDelaysMs: give either `delayMs` or `keyDelaysMs`/);
    expect(() => parseCommand({ op: "fill", selector: "#a", value: "ab", keyDelaysMs: [1, 5000] })).toThrow(/command\.keyDelaysMs\[1\]: expected a number ≤ 2000/);
  });

  it("no cadence without human typing", () => {
    const context = setup(true);
    context.pacer.openSession("s1", context.policy);
    expect(context.pacer.keyDelays("s1", "secret")).toBeUndefined();
    context.pacer.openSession("s2", resolvePacingPolicy({ humanTyping: true }, "local"));
    expect(context.pacer.keyDelays("s2", "secret")).toHaveLength(6);
  });
});
