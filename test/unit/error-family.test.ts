/**
 * The error family is declared once (`errorFamily` in src/errors.ts): every
 * code has its status in the worker's table, a guard, a hint or an explicit
 * "none" in the agent tools, and round-trips worker error → wire body → client
 * error with the same class, code and details.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserUseClient } from "../../src/agent.js";
import { failureHints, unhintedCodes } from "../../src/agent-tools/failure.js";
import * as errors from "../../src/errors.js";
import { errorFamily, errorDetails, createError, type StationBrowserErrorCode, type StationBrowserErrorDetails } from "../../src/errors.js";
import { errorStatus } from "../../src/protocol/wire.js";
import { failureAnswer } from "../../src/worker/answers.js";
import { startScriptedWorker, type ScriptedWorker } from "../helpers/scripted-worker.js";

const codes = Object.keys(errorFamily) as StationBrowserErrorCode[];
const exported = Object.entries(errors) as [string, unknown][];
/** The name a class is exported under. */
const exportName = (errorClass: unknown) => exported.find(([, value]) => value === errorClass)?.[0];
const decode = (body: Uint8Array) => JSON.parse(new TextDecoder().decode(body)) as { error: { code: string; message: string; details?: unknown } };
const keepAll = (text: string) => text;
const ignore = () => undefined;

describe("every code of the family", () => {
  it("has its status in the worker's table, which adds only bad_request", () => {
    expect(errorStatus).toEqual({ bad_request: 400, ...Object.fromEntries(codes.map((code) => [code, errorFamily[code].status])) });
  });

  it("has a hint in the agent tools or is listed as having none, never both", () => {
    const hinted = Object.keys(failureHints);
    expect([...hinted, ...unhintedCodes].sort()).toEqual([...codes].sort());
    expect(hinted.filter((code) => (unhintedCodes as readonly string[]).includes(code))).toEqual([]);
    for (const hint of Object.values(failureHints)) expect(hint).toMatch(/\S/);
  });

  it.each(codes)("%s: builds its class, named as exported, with a guard that knows it and no other class", (code) => {
    const error = createError(code, "message");
    expect(error).toBeInstanceOf(errorFamily[code].errorClass);
    expect([error.code, error.message]).toEqual([code, code === "validation" ? "request: message" : "message"]);
    const name = exportName(errorFamily[code].errorClass);
    expect(error.name).toBe(name);
    const guard = (errors as unknown as Record<string, unknown>)[`is${name}`] as (value: unknown) => boolean;
    expect(typeof guard).toBe("function");
    for (const other of codes) expect(guard(createError(other, "m")), other).toBe(errorFamily[other].errorClass === errorFamily[code].errorClass);
  });

  it("covers every error class the package exports", () => {
    const classes = exported.filter(([, value]) => typeof value === "function" && value.prototype instanceof errors.StationBrowserError).map(([name]) => name);
    expect(classes.length).toBeGreaterThan(20);
    expect(classes.filter((name) => !codes.some((code) => exportName(errorFamily[code].errorClass) === name))).toEqual([]);
  });

  it("reads the details each class carries, as its table entry lists them", () => {
    const built: [StationBrowserErrorCode, errors.StationBrowserError, StationBrowserErrorDetails][] = [
      ["validation", new errors.ValidationError("command.url", "required"), { field: "command.url" }],
      ["stale_ref", new errors.StaleRefError("e7", "stale"), { ref: "e7" }],
      ["ambiguous_target", new errors.AmbiguousTargetError(3, "three"), { count: 3 }],
      ["capacity", new errors.CapacityError("full", { retryAfterMs: 2000 }), { retryAfterMs: 2000 }],
      ["provider", new errors.ProviderError("refused", { status: 400, requestId: "req-1" }), { status: 400, requestId: "req-1" }],
      ["outcome_unknown", new errors.OutcomeUnknownError("lost", { method: "open", openTag: "t1" }), { method: "open", openTag: "t1" }],
      ["busy", new errors.BusyError("busy"), {}],
    ];
    for (const [code, error, details] of built) {
      expect(errorDetails(error), code).toEqual(details);
      expect(Object.keys(details).every((field) => (errorFamily[code].details as readonly string[]).includes(field)), code).toBe(true);
    }
  });
});

describe("the wire", () => {
  const secret = "operator-token-0123456789abcdef-SECRET";

  it("never carries a secret in a body's details: every text is redacted", () => {
    const redact = (text: string) => text.split(secret).join("[redacted]");
    const thrown = [
      new errors.ValidationError(`body.${secret}`, "unknown field"),
      new errors.StaleRefError(secret, "stale"),
      new errors.ProviderError("refused", { requestId: `id-${secret}` }),
      new errors.OutcomeUnknownError("lost", { method: "open", sessionId: secret, openTag: secret, checkpointId: secret, recordingId: secret }),
    ];
    for (const error of thrown) {
      const text = new TextDecoder().decode(failureAnswer(error, "open", redact, ignore).body);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(0, 20));
      expect(Object.values(decode(new TextEncoder().encode(text)).error.details as object)).toContain(
        error instanceof errors.ProviderError ? "id-[redacted]" : error instanceof errors.ValidationError ? "body.[redacted]" : "[redacted]",
      );
    }
  });

  let worker: ScriptedWorker;
  beforeAll(async () => {
    worker = await startScriptedWorker();
  });
  afterAll(() => worker.close());

  /** Arbitrary values of each detail field. The call below is `execute` on session s1, whose ids an unknown outcome keeps. */
  const detailValues: { [Field in keyof StationBrowserErrorDetails]-?: fc.Arbitrary<NonNullable<StationBrowserErrorDetails[Field]>> } = {
    field: fc.string({ minLength: 1, maxLength: 40 }),
    ref: fc.string({ maxLength: 40 }),
    count: fc.nat(),
    retryAfterMs: fc.nat(),
    status: fc.integer({ min: 100, max: 599 }),
    requestId: fc.string({ maxLength: 40 }),
    method: fc.constant("execute"),
    sessionId: fc.constant("s1"),
    openTag: fc.string({ maxLength: 40 }),
    checkpointId: fc.string({ maxLength: 40 }),
    recordingId: fc.string({ maxLength: 40 }),
  };
  /** The details of a code: any of its fields, but always a field for a validation error (which always names one). */
  const detailsOf = (code: StationBrowserErrorCode) =>
    fc.record(Object.fromEntries(errorFamily[code].details.map((field) => [field, detailValues[field]])), {
      requiredKeys: code === "validation" ? ["field"] : [],
    }) as fc.Arbitrary<StationBrowserErrorDetails>;

  it("round-trips every code, worker error → HTTP body → client error, with its class, code, status and details", async () => {
    const client = new BrowserUseClient({ baseUrl: worker.origin, stationId: "local", apiKey: "tenant-key-0123456789abcdef0123456789", retry: { limit: 0 } });
    for (const code of codes) {
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 80 }), detailsOf(code), async (message, details) => {
          const thrown = createError(code, message, details);
          expect(errorDetails(thrown)).toEqual(details);
          const answer = failureAnswer(thrown, "execute", keepAll, ignore);
          expect(answer.status).toBe(errorFamily[code].status);
          expect(decode(answer.body).error).toEqual({ code, message: thrown.message, details });
          worker.answer((_request, response) => response.writeHead(answer.status, answer.headers).end(Buffer.from(answer.body)));
          const caught = await client.execute("s1", { op: "click", selector: "a" }).catch((error: unknown) => error);
          expect(caught).toBeInstanceOf(errorFamily[code].errorClass);
          const rebuilt = caught as errors.StationBrowserError;
          expect(rebuilt.code).toBe(code);
          expect(rebuilt.message.startsWith(thrown.message)).toBe(true);
          expect(errorDetails(rebuilt)).toEqual(code === "outcome_unknown" ? { ...details, method: "execute", sessionId: "s1" } : details);
        }),
        { numRuns: 8 },
      );
    }
  });
});
