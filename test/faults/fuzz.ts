/**
 * Hostile input through the whole stack: random bodies for every worker
 * method over real HTTP, and random input for every agent tool over client →
 * worker → Chromium. Counted: answers, rejections that name no field,
 * internal errors, exceptions a tool threw, unanswered requests.
 */
import fc from "fast-check";
import { commandOps, commandSchemas } from "../../src/protocol/commands.js";
import { workerMethods, workerRequestSchemas } from "../../src/protocol/wire.js";
import { tenantKey, type FaultStack } from "./stack.js";
import { unhandled } from "./process-watch.js";
import { runScenario, type Row, type Scenario } from "./table.js";

const route = "/api/v1/tenant/stations/local/execution/browser";

/** Values a hostile or confused caller sends: junk of every JSON type, control characters, huge strings, look-alike ids. */
function hostile(stack: FaultStack, sessionId: () => string) {
  const plausible = fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\u202e",
    "s1",
    "s999999",
    "e1",
    "#go",
    "button",
    "Send",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " http://127.0.0.1/",
    "file:///etc/passwd",
    "data:text/html,<b>x</b>",
    "about:blank",
    "http://user:pw@127.0.0.1/",
    stack.pages.url("/form"),
    stack.pages.url("/plain"),
    "x".repeat(9000),
    "__proto__",
    "constructor",
  );
  const leaf = fc.oneof(
    plausible,
    fc.string({ maxLength: 24 }),
    fc.string({ unit: "binary", maxLength: 12 }),
    fc.integer(),
    fc.constantFrom(0, -1, 1e21, 2 ** 53, 0.5),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(0).map(() => sessionId()),
  );
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, fc.array(tie("value"), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 8 }), tie("value"), { maxKeys: 3 })),
  }));
  return value;
}

/** Well-formed values by field name, so that many calls get past the parsers and reach the browser. */
function wellFormed(stack: FaultStack, sessionId: () => string): Record<string, fc.Arbitrary<unknown>> {
  const target = fc.constantFrom("e1", "e2", { by: "role", role: "button", name: "Send" }, { by: "selector", selector: "#go" }, { by: "text", value: "Send" });
  return {
    id: fc.constant(0).map(() => sessionId()),
    url: fc.constantFrom(stack.pages.url("/form"), stack.pages.url("/plain"), "about:blank"),
    target,
    from: target,
    to: target,
    selector: fc.constantFrom("#go", "button", "form"),
    value: fc.constantFrom("1", "hello"),
    text: fc.constantFrom("hello", "Send"),
    expression: fc.constantFrom("1 + 1", "document.title"),
    key: fc.constantFrom("Enter", "Tab"),
    mode: fc.constantFrom("aria", "interactive", "text", "agent"),
    action: fc.constantFrom("accept", "dismiss", "back", "reload", "list", "evaluate"),
    ttlMs: fc.constantFrom(1000, 5000),
    options: fc.constant({}),
    openTag: fc.constantFrom("fuzz-tag-1", "fuzz-tag-2"),
    checkpointId: fc.constantFrom("c1", "cp_1"),
    recordingId: fc.constantFrom("r1", "rec_1"),
    frameId: fc.constantFrom("f1"),
    adopt: fc.boolean(),
    maxBytes: fc.constantFrom(2000, 20_000),
    format: fc.constantFrom("png", "jpeg"),
    fields: fc.constant([{ target: { by: "role", role: "button", name: "Send" }, value: "x" }]),
    deltaY: fc.constantFrom(100, -100),
    x: fc.nat({ max: 800 }),
    y: fc.nat({ max: 600 }),
  };
}

/** An object with a random subset of `keys` (plus now and then a stray one), each mostly well formed, else hostile. */
function shaped(keys: string[], value: fc.Arbitrary<unknown>, fixed: Record<string, unknown> = {}, good: Record<string, fc.Arbitrary<unknown>> = {}) {
  const entries = Object.fromEntries(keys.map((key) => [key, good[key] ? fc.oneof({ weight: 4, arbitrary: good[key] }, { weight: 1, arbitrary: value }) : value]));
  return fc
    .tuple(fc.record(entries, { requiredKeys: [] }), fc.option(fc.tuple(fc.string({ maxLength: 8 }), value), { freq: 5 }))
    .map(([record, stray]) => ({ ...record, ...(stray ? { [stray[0]]: stray[1] } : {}), ...fixed }));
}

/** Well-formed now and then: with `good` values, and the other fields left out. */
function mostlyShaped(keys: string[], value: fc.Arbitrary<unknown>, fixed: Record<string, unknown>, good: Record<string, fc.Arbitrary<unknown>>) {
  const clean = keys.filter((key) => good[key]);
  return fc.oneof(shaped(keys, value, fixed, good), fc.record(Object.fromEntries(clean.map((key) => [key, good[key]!])), { requiredKeys: [] }).map((record) => ({ ...record, ...fixed })));
}

/** A rejection names a field: `validation` has `details.field` and starts its message with it. */
function namesField(answer: { status: number; json?: { error?: { code: string; message: string; details?: Record<string, unknown> } } }): boolean {
  const error = answer.json?.error;
  if (!error) return false;
  if (error.code === "validation") {
    const field = error.details?.field;
    return typeof field === "string" && field.length > 0 && error.message.startsWith(field);
  }
  // Refusals of the body as a whole say which part: the method, or the body.
  if (error.code === "bad_request") return /method|body/i.test(error.message);
  return true;
}

export async function fuzzScenarios(stack: FaultStack, rows: Row[], runs: { worker: number; tools: number }): Promise<void> {
  const seed = Number(process.env.FAULTS_SEED ?? Date.now() % 2 ** 31);
  const client = stack.client();
  let live = (await client.open()).id;
  const sessionId = () => live;
  const value = hostile(stack, sessionId);
  const good = wellFormed(stack, sessionId);

  await runScenario(rows, "fuzz: every worker method", `random bodies over real HTTP (fast-check, seed ${seed})`, async (s) => {
    const keysOf = (method: (typeof workerMethods)[number]) => Object.keys(workerRequestSchemas[method].entries).filter((key) => key !== "method");
    const command = fc.oneof(
      { weight: 1, arbitrary: value },
      { weight: 6, arbitrary: fc.constantFrom(...commandOps.filter((op) => op !== "traceStart" && op !== "traceStop")).chain((op) => mostlyShaped(Object.keys(commandSchemas[op].entries).filter((key) => key !== "timeoutMs"), value, { op, timeoutMs: 300 }, good)) },
    );
    const body = fc.oneof(
      {
        weight: 8,
        arbitrary: fc
          .constantFrom(...workerMethods)
          .chain((method) => mostlyShaped(keysOf(method), value, { method }, good).chain((fields) => command.map((cmd) => (method === "execute" ? { ...fields, command: cmd } : fields)))),
      },
      { weight: 1, arbitrary: value },
      { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    );
    const figures = { answered: 0, ok: 0, rejected: 0, unnamed: [] as string[], server: [] as string[], unanswered: [] as string[] };
    for (const input of fc.sample(body, { numRuns: runs.worker, seed })) {
      s.injected();
      const answer = await stack.backend.worker.post(route, tenantKey, typeof input === "string" ? input : JSON.stringify(input)).catch((error: unknown) => new Error(String(error)));
      if (answer instanceof Error) {
        figures.unanswered.push(answer.message);
        continue;
      }
      figures.answered++;
      if (answer.status === 200) figures.ok++;
      // A 5xx of the error family (outcome_unknown of an evaluate that threw, a timeout, …) is an honest answer;
      // an internal error, or a 5xx that is not one of ours, is what this scenario hunts.
      else if (answer.status >= 500 && (answer.json?.error?.code === undefined || answer.json.error.code === "internal")) figures.server.push(`${answer.status} ${answer.text.slice(0, 160)}`);
      else if (answer.status === 400 || answer.status === 422) {
        figures.rejected++;
        if (!namesField(answer)) figures.unnamed.push(answer.text.slice(0, 160));
      }
      const method = (input as { method?: unknown } | null)?.method;
      if ((method === "close" || method === "controlAcquire") && !(await client.list()).some((info) => info.id === live && info.control.mode === "automation")) {
        await client.close(live).catch(() => undefined);
        live = (await client.open()).id;
      }
    }
    s.equal("every request answered (0 worker crashes)", figures.unanswered.slice(0, 3), []);
    s.equal("0 internal errors", [...figures.server.slice(0, 3), ...stack.backend.internalErrors.slice(0, 3).map((entry) => `${entry.method}: ${String(entry.error)}`)], []);
    s.equal("every rejection names a field", figures.unnamed.slice(0, 3), []);
    s.check(`rejections ${figures.rejected}, accepted ${figures.ok}: both kinds reached`, figures.rejected > runs.worker / 4 && figures.ok > 0, figures);
    s.equal("no prototype polluted", Object.keys(Object.prototype), []);
    s.equal("0 unhandled exceptions in the process", unhandled.slice(0, 3), []);
  });

  await runScenario(rows, "fuzz: every agent tool", `random input over the whole stack (fast-check, seed ${seed})`, async (s) => {
    const { toolset, tool } = stack.toolset(1, 15_000);
    await tool("open").execute({ url: stack.pages.url("/form") });
    const input = fc.constantFrom(...toolset.tools).chain((chosen) =>
      fc.oneof({ weight: 9, arbitrary: mostlyShaped(Object.keys((chosen.inputSchema as { properties?: object }).properties ?? {}).filter((key) => key !== "session"), value, {}, good) }, { weight: 1, arbitrary: value }).map((args) => ({ chosen, args })),
    );
    const figures = { calls: 0, rejected: 0, ran: 0, thrown: [] as string[], unnamed: [] as string[] };
    for (const { chosen, args } of fc.sample(input, { numRuns: runs.tools, seed })) {
      s.injected();
      figures.calls++;
      try {
        const reply = await chosen.execute(args, { signal: AbortSignal.timeout(5000) });
        if (typeof reply.text !== "string") throw new Error(`no text from ${chosen.name}`);
        if (reply.text.startsWith("error: ")) {
          figures.rejected++;
          if (process.env.FAULTS_DEBUG) process.stderr.write(`${chosen.name} ${JSON.stringify(args)?.slice(0, 100)} → ${reply.text.slice(0, 100)}\n`);
          if (!/^error: input(\.|\[|: )/.test(reply.text) && !/^error: this browser toolset/.test(reply.text)) figures.unnamed.push(`${chosen.name}: ${reply.text.slice(0, 140)}`);
        } else figures.ran++;
        // The model closed its session: it opens another, as it would.
        if (chosen.name === "station_browser_close" && reply.isError !== true) await tool("open").execute({ url: stack.pages.url("/form") });
      } catch (error) {
        figures.thrown.push(`${chosen.name}: ${String(error)}`);
      }
      if (toolset.uncertainOpenings() > 0) await toolset.reconcile();
    }
    s.equal("0 exceptions out of a tool", figures.thrown.slice(0, 3), []);
    s.equal("every rejection names a field", figures.unnamed.slice(0, 3), []);
    s.check(`rejected ${figures.rejected}, ran ${figures.ran}: both kinds reached`, figures.rejected > 0 && figures.ran > 0, figures);
    s.equal("0 unhandled exceptions in the process", unhandled.slice(0, 3), []);
    s.check(`cases in both fuzz scenarios: ${runs.worker + runs.tools} (≥ 10,000)`, runs.worker + runs.tools >= 10_000, runs);
    s.equal("0 internal errors at the worker", stack.backend.internalErrors.slice(0, 3).map((entry) => `${entry.method}: ${String(entry.error)}`), []);
    await toolset.close();
  });
  await client.close(live).catch(() => undefined);
  // What the fuzz opened and left (a random `open` is a valid call) is closed here.
  for (const info of await client.list()) await client.close(info.id).catch(() => undefined);
}

export type { Scenario };
