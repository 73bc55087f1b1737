import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { BrowserUseClient, createBrowserAgentTools } from "../../src/agent.js";
import * as errors from "../../src/errors.js";
import { commandOps, type BrowserCommandInput, type CommandOp } from "../../src/protocol/commands.js";
import { commandResultSchemas, type CommandResultMap } from "../../src/protocol/results.js";
import { dataScript, sendJson, useScriptedWorker } from "../helpers/scripted-worker.js";

/**
 * Issue 12 "Command results": the client checks every command result against
 * the protocol's schema of its op. A result that does not match came with a
 * 200, so the command ran: a mutation is an unknown outcome, an observation a
 * provider error; either names the op and the field, and nothing is retried.
 */
const apiKey = "tenant-key-0123456789abcdef0123456789abcdef";
const worker = useScriptedWorker();

// Retries on (the default), with waits recorded rather than slept: none may happen.
const waits: number[] = [];
const client = () =>
  new BrowserUseClient({ baseUrl: worker.origin, stationId: "local", apiKey, retry: { limit: 3, sleep: async (ms) => void waits.push(ms) } });
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail("expected the call to fail"), (error: unknown) => error as Error);

const page = { pageId: "p2", url: "https://example.test/new", title: "New", selected: false };
const action = { ok: true as const, url: "https://example.test/", title: "Example", navigated: false, newPages: [] };
const textChange = { added: ["Saved"], removed: [], addedCount: 1, removedCount: 0 };
const dialog = { type: "prompt" as const, message: "Name?", handled: "accepted" as const, unexpected: false };

/** A valid result of every op (the type makes the table complete). */
const samples: CommandResultMap = {
  navigate: { ...action, navigated: true, newPages: [page], dialog, textChange },
  back: action,
  forward: action,
  reload: action,
  newPage: { ...action, pageId: "p3" },
  pages: { pages: [{ ...page, selected: true }], selectedPageId: "p2" },
  selectPage: action,
  closePage: action,
  click: { ...action, dialog },
  fill: { ...action, sensitive: false },
  type: { ...action, sensitive: true, textChange },
  press: action,
  select: { ...action, selected: ["r"] },
  check: action,
  uncheck: action,
  hover: action,
  focus: action,
  scroll: action,
  waitFor: { ok: true, url: "https://example.test/", title: "Example" },
  mouseClick: action,
  mouseMove: action,
  drag: action,
  dragCoordinates: action,
  dialog: { ok: true, action: "accept", expiresAt: "2026-01-01T00:00:10.000Z" },
  upload: { ...action, files: [{ name: "a.txt", bytes: 1 }] },
  downloads: { downloads: [{ downloadId: "d1", fileName: "report.txt", url: "https://example.test/report", state: "completed", bytes: 3 }] },
  downloadRead: { downloadId: "d1", offset: 0, bytes: 3, totalBytes: 3, base64: "YWJj", more: false },
  downloadDelete: { ok: true, downloadId: "d1" },
  inspect: {
    elements: [{ tag: "a", text: "Home", href: "https://example.test/", box: { x: 0, y: 0, width: 10, height: 10 }, frame: ["#f"] }],
    truncated: false,
    coordinateSpace: "css-pixels-main-viewport",
    viewport: { width: 1280, height: 800 },
  },
  accessibility: { snapshot: '- link "Home" [ref=e1]', truncated: false, bytes: 22, mode: "agent", pageId: "p1" },
  screenshot: { mimeType: "image/png", base64: "iVBO", width: 1280, height: 800, scale: 1 },
  text: { text: "Hello", truncated: false, url: "https://example.test/", title: "Example" },
  content: { html: "<p>Hello</p>", truncated: false, bytes: 12, url: "https://example.test/" },
  evaluate: { value: { answer: 42 } },
  diagnostics: { events: [{ seq: 1, at: "2026-01-01T00:00:00.000Z", kind: "console", level: "log", text: "hi" }], dropped: 0, nextSeq: 2 },
  challenge: { state: "none", evidence: [] },
  traceStart: { ok: true, maxDurationMs: 60_000 },
  traceStop: { mimeType: "application/zip", base64: "UEsF", bytes: 3 },
};

/** The command sent for `op`: the client does not check commands (the worker does), so the op alone will do here. */
const commandFor = (op: CommandOp) => ({ op }) as BrowserCommandInput;

/** `value` with `extra` added to every object in it, at every depth. */
function withExtras(value: unknown, extra: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => withExtras(item, extra));
  if (typeof value !== "object" || value === null) return value;
  return { ...Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withExtras(item, extra)])), ...extra };
}

describe("command result schemas", () => {
  it("cover every op of the vocabulary", () => {
    expect(Object.keys(commandResultSchemas).sort()).toEqual([...commandOps].sort());
  });

  it("keep unknown fields a newer worker adds, at every depth, and lose no declared field", () => {
    const key = fc.string({ minLength: 1, maxLength: 12 }).map((name) => `future_${name}`);
    fc.assert(
      fc.property(fc.constantFrom(...commandOps), fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 3 }), (op, extra) => {
        const result = withExtras(samples[op], extra);
        const parsed = v.safeParse(commandResultSchemas[op], result);
        expect(parsed.issues).toBeUndefined();
        expect(parsed.output).toEqual(result);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the client checks every command result", () => {
  it.each(commandOps)("%s: a valid result with fields of a newer worker is returned as sent", async (op) => {
    const result = withExtras(samples[op], { addedLater: { nested: [1, "two"] } });
    worker.answer(dataScript(result));
    await expect(client().execute("s1", commandFor(op))).resolves.toEqual(result);
    expect(worker.requests).toHaveLength(1);
  });

  it("a malformed result of an observation is a ProviderError naming the op and the field, not retried", async () => {
    worker.answer(dataScript({ ...samples.text, url: 123 }));
    const error = await failure(client().execute("s1", { op: "text" }));
    expect(error).toBeInstanceOf(errors.ProviderError);
    expect(error).not.toBeInstanceOf(errors.OutcomeUnknownError);
    expect(error.message).toMatch(/^execute: the worker's answer could not be read \(HTTP 200, the text result does not match the protocol: result\.url: expected string, received 123\)/);
    expect(error.message).toContain("session s1");
    expect(worker.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("a malformed result of a mutation is an unknown outcome naming the op, the field and what to check, not retried", async () => {
    const { url: _url, ...noUrl } = samples.navigate;
    worker.answer(dataScript(noUrl));
    const error = await failure(client().execute("s1", { op: "navigate", url: "https://example.test/" }));
    expect(error).toBeInstanceOf(errors.OutcomeUnknownError);
    expect(error).toMatchObject({ code: "outcome_unknown", method: "execute", sessionId: "s1" });
    expect(error.message).toMatch(/the navigate result does not match the protocol: result\.url: required\); it may have run \(worker method execute, station local, session s1\)/);
    expect(error.message).toMatch(/To find out: observe session s1/);
    expect(worker.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("names a nested field by its path", async () => {
    worker.answer(dataScript({ ...action, newPages: [{ ...page, pageId: 7 }] }));
    const click = await failure(client().execute("s1", { op: "click", selector: "a" }));
    expect(click).toBeInstanceOf(errors.OutcomeUnknownError);
    expect(click.message).toContain("the click result does not match the protocol: result.newPages[0].pageId: expected string, received 7");
    worker.answer(dataScript({ ...samples.inspect, elements: [{ ...samples.inspect.elements[0], box: { x: 0, y: 0, width: "10", height: 10 } }] }));
    const inspect = await failure(client().execute("s1", { op: "inspect" }));
    expect(inspect).toBeInstanceOf(errors.ProviderError);
    expect(inspect.message).toContain('the inspect result does not match the protocol: result.elements[0].box.width: expected number, received "10"');
    expect(worker.requests).toHaveLength(2);
  });

  it("perform follows the op: a malformed screenshot is a ProviderError, a malformed click an unknown outcome", async () => {
    worker.answer(dataScript({ ...samples.screenshot, mimeType: "image/gif" }));
    const screenshot = await failure(client().perform("s1", "screenshot"));
    expect(screenshot).toBeInstanceOf(errors.ProviderError);
    expect(screenshot.message).toMatch(/^action: .*the screenshot result does not match the protocol: result\.mimeType: expected \("image\/png" \| "image\/jpeg"\), received "image\/gif"/);
    worker.answer(dataScript({ ...action, navigated: "yes" }));
    const click = await failure(client().perform("s1", "click", "a"));
    expect(click).toBeInstanceOf(errors.OutcomeUnknownError);
    expect(click).toMatchObject({ method: "action", sessionId: "s1" });
    expect(click.message).toContain('the click result does not match the protocol: result.navigated: expected boolean, received "yes"');
    expect(worker.requests).toHaveLength(2);
    expect(waits).toEqual([]);
  });
});

describe("agent tools over a malformed result", () => {
  it("a click reports an unknown outcome, never a failure; a screenshot an error; neither is sent twice", async () => {
    let result: unknown;
    worker.answer((request, response) => {
      const body = request.body!;
      const openTag = (body.options as { openTag?: string } | undefined)?.openTag;
      const session = { id: "s1", provider: "local", openTag, openedAt: "2026-01-01T00:00:00.000Z", control: { mode: "automation" } };
      sendJson(response, 200, { data: body.method === "open" ? session : result });
    });
    const toolset = createBrowserAgentTools({ client: client(), maxSessions: 1 });
    const call = (name: string, input: unknown) => toolset.tools.find((tool) => tool.name === `station_browser_${name}`)!.execute(input);
    expect((await call("open", {})).text).toContain("session s1 is open");
    const executes = () => worker.requests.filter((request) => request.body?.method === "execute").length;

    result = { ...action, url: 123 };
    const click = await call("click", { target: { by: "role", role: "button", name: "Send" } });
    expect(click.isError).toBe(true);
    expect(click.text).toMatch(/^outcome: unknown — click/);
    expect(click.text).not.toMatch(/outcome: (ok|failed)/);
    expect(click.text).toContain("the click result does not match the protocol: result.url: expected string, received 123");
    expect(executes()).toBe(1);

    result = { ...samples.screenshot, base64: null };
    const shot = await call("screenshot", {});
    expect(shot.isError).toBe(true);
    // An observation changed nothing: a plain failure.
    expect(shot.text).toMatch(/^outcome: failed — screenshot/);
    expect(shot.text).toContain("result.base64: expected string, received null");
    expect(shot.images ?? []).toEqual([]);
    expect(executes()).toBe(2);
    await toolset.close();
  });
});
