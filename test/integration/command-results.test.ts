import fc from "fast-check";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandOps, type BrowserCommandInput, type CommandOp } from "../../src/protocol/commands.js";
import { formatIssuePath } from "../../src/protocol/parse.js";
import { commandResultSchemas } from "../../src/protocol/results.js";
import type { WorkerAnswer } from "../helpers/worker-server.js";
import { startWorkerStack, type WorkerStack } from "../helpers/worker-stack.js";

/**
 * Issue 12 "Command results": every result the real engine sends over the
 * worker's HTTP for each op parses under the protocol's result schema (the
 * one the client checks with), whatever the command's parameters.
 */
const token = "op-".padEnd(40, "x");
const tenantKey = "tenant-acme-".padEnd(40, "k");
const route = "/api/v1/tenant/stations/local/execution/browser";

let stack: WorkerStack;
let sessionId: string;
beforeAll(async () => {
  stack = await startWorkerStack({ token, tenantKey, maxSessions: 2 });
  const opened = await stack.worker.post(route, tenantKey, { method: "open", options: { openTag: "command-results" } });
  sessionId = (opened.json?.data as { id: string }).id;
});
afterAll(() => stack?.close());

const post = (body: Record<string, unknown>): Promise<WorkerAnswer> => stack.worker.post(route, tenantKey, body);

/** Ops that produced a result, each checked against its schema. */
const checked = new Set<CommandOp>();

/** Runs `command` over HTTP, expects a result (200) and checks it against the schema of its op; returns the raw result. */
async function run<Result = Record<string, unknown>>(command: BrowserCommandInput): Promise<Result> {
  const answer = await post({ method: "execute", id: sessionId, command });
  expect(answer.status, `${command.op}: ${answer.text}`).toBe(200);
  const data = answer.json?.data;
  const parsed = v.safeParse(commandResultSchemas[command.op], data);
  const issue = parsed.success ? undefined : parsed.issues[0];
  expect(issue && `${command.op} ${formatIssuePath("result", issue)}: ${issue.message} in ${answer.text.slice(0, 300)}`).toBeUndefined();
  checked.add(command.op);
  return data as Result;
}

const textChange = fc.boolean();
const page = fc.constantFrom("/form.html", "/index.html", "/second.html", "/visible-text.html");
const base64 = fc.uint8Array({ maxLength: 64 }).map((bytes) => btoa(String.fromCharCode(...bytes)));
const jsonValue = fc.jsonValue({ maxDepth: 3 }).filter((value) => !JSON.stringify(value).includes("__proto__"));

/** The parameters of one pass over the whole vocabulary. */
const pass = fc.record({
  navigate: fc.record({ path: page, textChange }),
  inspect: fc.record({ maxElements: fc.integer({ min: 1, max: 100 }), maxTextLength: fc.integer({ min: 1, max: 300 }) }),
  accessibility: fc.record({ mode: fc.constantFrom("agent" as const, "full" as const), interactiveOnly: fc.boolean(), boxes: fc.boolean() }),
  screenshot: fc.oneof(fc.constant({ format: "png" as const }), fc.record({ format: fc.constant("jpeg" as const), quality: fc.integer({ min: 1, max: 100 }) })),
  textBytes: fc.integer({ min: 1, max: 5000 }),
  contentBytes: fc.integer({ min: 1, max: 100_000 }),
  evaluate: jsonValue,
  fill: fc.record({ value: fc.string({ maxLength: 20 }), selector: fc.constantFrom("#user", "#pass", "#notes"), textChange }),
  type: fc.record({ text: fc.string({ minLength: 1, maxLength: 8 }), textChange }),
  key: fc.constantFrom("Enter", "Tab", "a", "ArrowLeft", "Shift+A"),
  select: fc.oneof(
    fc.record({ selector: fc.constant("#colour"), value: fc.constantFrom("r", "g", "Blue") as fc.Arbitrary<string | string[]> }),
    fc.record({ selector: fc.constant("#toppings"), value: fc.subarray(["Cheese", "Ham", "Olives"]) as fc.Arbitrary<string | string[]> }),
  ),
  // A page scroll needs a non-zero delta (0 without a target is refused, naming command.deltaY).
  scroll: fc.record({ deltaY: fc.integer({ min: -500, max: 500 }).filter((delta) => delta !== 0), inner: fc.boolean() }),
  pad: fc.record({ x: fc.integer({ min: 901, max: 1199 }), y: fc.integer({ min: 101, max: 249 }), steps: fc.integer({ min: 1, max: 5 }) }),
  drag: fc.record({ fromX: fc.integer({ min: 0, max: 600 }), fromY: fc.integer({ min: 0, max: 600 }), steps: fc.integer({ min: 1, max: 5 }) }),
  dialog: fc.record({ action: fc.constantFrom("accept" as const, "dismiss" as const), promptText: fc.string({ maxLength: 10 }) }),
  files: fc.array(fc.record({ name: fc.constantFrom("a.txt", "b.bin", "notes.md"), base64 }), { minLength: 1, maxLength: 3 }),
  readLength: fc.integer({ min: 1, max: 4096 }),
  readOffset: fc.integer({ min: 0, max: 2048 }),
  since: fc.integer({ min: 0, max: 5 }),
  trace: fc.record({ screenshots: fc.boolean(), snapshots: fc.boolean() }),
  newPage: fc.option(page, { nil: undefined }),
});

type Pass = typeof pass extends fc.Arbitrary<infer Value> ? Value : never;

/** Every op of the vocabulary once, with the pass's parameters. */
async function runPass(parameters: Pass): Promise<void> {
  const { fixtures } = stack;
  const form = fixtures.url("/form.html");
  await run({ op: "navigate", url: fixtures.url(parameters.navigate.path), textChange: parameters.navigate.textChange });
  await run({ op: "navigate", url: form });
  await run({ op: "inspect", ...parameters.inspect });
  await run({ op: "accessibility", ...parameters.accessibility });
  await run({ op: "screenshot", ...parameters.screenshot });
  await run({ op: "text", maxBytes: parameters.textBytes });
  await run({ op: "content", maxBytes: parameters.contentBytes });
  await run({ op: "evaluate", expression: `(${JSON.stringify(parameters.evaluate)})` });
  await run({ op: "challenge" });
  await run({ op: "fill", ...parameters.fill });
  await run({ op: "type", selector: "#user", ...parameters.type });
  await run({ op: "press", selector: "#user", key: parameters.key });
  await run({ op: "select", ...parameters.select });
  await run({ op: "check", selector: "#remember", textChange: true });
  await run({ op: "uncheck", selector: "#remember" });
  await run({ op: "hover", selector: "#hover-target", textChange: true });
  await run({ op: "focus", selector: "#notes" });
  await run({ op: "scroll", deltaY: parameters.scroll.deltaY, ...(parameters.scroll.inner ? { selector: "#scroller" } : {}) });
  await run({ op: "waitFor", text: "Form" });
  await run({ op: "mouseMove", x: parameters.pad.x, y: parameters.pad.y, steps: parameters.pad.steps });
  await run({ op: "mouseClick", x: parameters.pad.x, y: parameters.pad.y, textChange: true });
  await run({ op: "drag", from: { by: "selector", selector: "#drag-source" }, to: { by: "selector", selector: "#drop-zone" } });
  await run({ op: "dragCoordinates", from: { x: parameters.drag.fromX, y: parameters.drag.fromY }, to: { x: 10, y: 10 }, steps: parameters.drag.steps });
  await run({ op: "dialog", ...parameters.dialog });
  await run({ op: "click", selector: "#prompt-button", textChange: true });
  // No policy now: the dialog is dismissed at once and reported as unexpected.
  await run({ op: "click", selector: "#alert-button" });
  await run({ op: "upload", selector: "#attachments", files: parameters.files });
  await run({ op: "click", selector: "#console-button" });
  await run({ op: "diagnostics", since: parameters.since });

  await run({ op: "click", selector: "#download-link" });
  type Downloads = { downloads: { downloadId: string; fileName: string; state: string }[] };
  const report = async () => (await run<Downloads>({ op: "downloads" })).downloads.find((entry) => entry.fileName === "report.txt");
  await expect.poll(async () => (await report())?.state, { timeout: 10_000 }).toBe("completed");
  const { downloadId } = (await report())!;
  await run({ op: "downloadRead", downloadId, offset: parameters.readOffset, length: parameters.readLength });
  await run({ op: "downloadDelete", downloadId });

  await run({ op: "traceStart", ...parameters.trace });
  await run({ op: "traceStop" });

  // A popup opened by the page, then a page of our own.
  await run({ op: "click", selector: "#window-open" });
  const opened = await run<{ pageId: string }>({ op: "newPage", ...(parameters.newPage ? { url: fixtures.url(parameters.newPage) } : {}), textChange: true });
  const { pages } = await run<{ pages: { pageId: string }[] }>({ op: "pages" });
  const first = pages[0]!.pageId;
  await run({ op: "selectPage", pageId: first });
  await run({ op: "closePage", pageId: opened.pageId });
  for (const { pageId } of pages.slice(1)) if (pageId !== opened.pageId) await run({ op: "closePage", pageId });
  await run({ op: "navigate", url: fixtures.url("/second.html") });
  await run({ op: "back", textChange: true });
  await run({ op: "forward" });
  await run({ op: "reload" });
}

describe("command results of the real engine (real Chromium, real HTTP)", () => {
  it("parse under the protocol's result schema of their op, for every op and random parameters", async () => {
    await fc.assert(fc.asyncProperty(pass, runPass), { numRuns: 4, endOnFailure: true });
    expect([...checked].sort()).toEqual([...commandOps].sort());
  }, 240_000);
});
