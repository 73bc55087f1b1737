/**
 * Pacing across the wire: open options with `pacing` travel client → worker
 * (real HTTP) → manager → Chromium; a refusal comes back as
 * `RateLimitedError` with its `retryAfterMs`, results carry `pacedMs`, and a
 * throttle page seen by the real challenge classifier pauses the profile.
 * No test waits on pacing: every wait asked for is refused at once
 * (`maxWaitMs: 0`) or none is owed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserUseClient } from "../../src/client/index.js";
import { RateLimitedError, ValidationError, isRateLimitedError } from "../../src/errors.js";
import { workerRoute } from "../../src/protocol/wire.js";
import { startWorkerStack, type WorkerStack } from "../helpers/worker-stack.js";

const token = "op-".padEnd(40, "x");
const tenantKey = "tenant-acme-".padEnd(40, "k");
let stack: WorkerStack;

beforeAll(async () => {
  stack = await startWorkerStack({ token, tenantKey, maxSessions: 2 });
});
afterAll(async () => {
  await stack?.close();
});

const client = () => new BrowserUseClient({ baseUrl: stack.worker.origin, stationId: "local", apiKey: tenantKey, timeoutMs: 30_000 });
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail("expected a failure"), (error: unknown) => error as Error);

describe("pacing through client → worker (real HTTP)", () => {
  it("a spent bucket reaches the client as RateLimitedError with retryAfterMs; results carry pacedMs", async () => {
    const browser = client();
    const session = await browser.open({ pacing: { minGapMs: 0, maxGapMs: 0, actionsPerMinute: 1, maxWaitMs: 0 } });
    const navigated = await browser.execute(session.id, { op: "navigate", url: stack.fixtures.url("/form.html") });
    expect(navigated.pacedMs).toBe(0);
    const error = await failure(browser.execute(session.id, { op: "click", selector: "#user" }));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(isRateLimitedError(error)).toBe(true);
    const retryAfterMs = (error as RateLimitedError).retryAfterMs!;
    // One token a minute, taken moments ago.
    expect(retryAfterMs).toBeGreaterThan(50_000);
    expect(retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(error.message).toMatch(/1 actions per minute are spent; it may run in \d+ s\. Nothing was sent to the page/);
    const diagnostics = await browser.execute(session.id, { op: "diagnostics" });
    expect(diagnostics.pacing).toMatchObject({ enabled: true, refused: 1, dayCount: 1 });
    await browser.close(session.id);
  });

  it("refuses bad pacing options naming the field: in the client before sending, and in the worker", async () => {
    const error = await failure(client().open({ pacing: { minGapMs: 2000, maxGapMs: 10 } }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("open.options.pacing.maxGapMs");
    const response = await fetch(`${stack.worker.origin}${workerRoute("local", "tenant")}`, {
      method: "POST",
      headers: { authorization: `Bearer ${tenantKey}`, "content-type": "application/json" },
      body: JSON.stringify({ method: "open", options: { pacing: { humanTyping: "yes" } } }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { details?: { field?: string } } }).error.details?.field).toMatch(/options\.pacing\.humanTyping$/);
  });

  it("a 429 page classified rate_limited by the challenge command pauses the session's bucket for the back-off", async () => {
    const browser = client();
    const session = await browser.open({ pacing: { minGapMs: 0, maxGapMs: 0, backoffMs: 90_000, maxWaitMs: 0 } });
    await browser.execute(session.id, { op: "navigate", url: stack.fixtures.url("/status?code=429") });
    const seen = await browser.execute(session.id, { op: "challenge" });
    expect(seen.state).toBe("rate_limited");
    const error = await failure(browser.execute(session.id, { op: "navigate", url: stack.fixtures.url("/form.html") }));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBeGreaterThan(80_000);
    expect((error as RateLimitedError).retryAfterMs).toBeLessThanOrEqual(90_000);
    expect(error.message).toMatch(/paused after the site throttled it \(the page is a rate_limited challenge/);
    await browser.close(session.id);
  });
});
