/**
 * Transport faults between client and worker, through the whole stack:
 * answers lost after the worker acted, resets before the request left,
 * answers slower than the client's time limit, the worker restarted.
 */
import { OutcomeUnknownError, isNotFoundError, isOutcomeUnknownError } from "../../src/errors.js";
import type { Fault } from "../helpers/fault-proxy.js";
import type { FaultStack } from "./stack.js";
import { scenarioOn, type Row, type Scenario } from "./table.js";

const rounds = 3;

/** Runs `call` with `fault` injected into the next `method` request; counts the fault when it fired. */
async function withFault<T>(stack: FaultStack, s: Scenario, method: string, fault: Fault, call: () => Promise<T>): Promise<T> {
  const before = stack.proxy.fired.length;
  stack.proxy.inject(method, fault);
  try {
    return await call();
  } finally {
    const fired = stack.proxy.fired.length - before;
    s.injected(fired);
    // A fault that did not fire must not linger for the next call.
    if (fired === 0) throw new Error(`the ${fault} on ${method} did not fire`);
  }
}

const sessions = (stack: FaultStack) => stack.backend.manager.list().length;
const unknownText = (text: string) => /^outcome: unknown/.test(text);

export async function transportScenarios(stack: FaultStack, rows: Row[]): Promise<void> {
  // Each scenario names the ops it sends to the engine (a checkpoint reads `pages`).
  const scenario = scenarioOn(stack, rows);
  await scenario("open answer lost (agent tools)", "worker opened, answer dropped", { ops: ["navigate"] }, async (s) => {
    const { toolset, tool } = stack.toolset(1);
    const base = sessions(stack);
    for (let round = 0; round < rounds; round++) {
      const reply = await withFault(stack, s, "open", "drop-response", () => tool("open").execute({ url: stack.pages.url("/plain") }));
      s.check(`round ${round}: reported unknown`, unknownText(reply.text), reply.text.slice(0, 120));
      s.equal(`round ${round}: exactly one session made`, sessions(stack), base + 1);
      s.equal(`round ${round}: opens refused while uncertain`, toolset.uncertainOpenings(), 1);
      const report = await toolset.reconcile();
      s.equal(`round ${round}: reconciled`, [report.resolved, report.closed.length, report.unresolved.length], [1, 1, 0]);
      s.equal(`round ${round}: capacity released`, sessions(stack), base);
    }
    const opened = await tool("open").execute({});
    s.check("opens again after reconcile", opened.isError !== true, opened.text);
    s.equal("close leaves nothing", (await toolset.close()).unresolved, []);
    s.equal("no session left", sessions(stack), base);
  });

  await scenario("open answer lost (client adopts)", "worker opened, answer dropped", { ops: [] }, async (s) => {
    const client = stack.client();
    const base = sessions(stack);
    for (let round = 0; round < rounds; round++) {
      const openTag = `faults-open-${round}`;
      const error = await withFault(stack, s, "open", "drop-response", () => client.open({ openTag }).catch((caught: unknown) => caught));
      s.check(`round ${round}: OutcomeUnknownError naming the tag`, error instanceof OutcomeUnknownError && error.message.includes(openTag), String(error));
      const found = await client.reconcile(openTag);
      const again = await client.open({ openTag });
      s.equal(`round ${round}: reconcile finds one, a repeated open adopts it`, [found.length, again.id], [1, found[0]?.id]);
      s.equal(`round ${round}: no duplicate session`, sessions(stack), base + 1);
      await client.close(again.id);
    }
    s.equal("capacity released", sessions(stack), base);
  });

  await scenario("execute answer lost", "click ran, answer dropped", { ops: ["navigate", "click"] }, async (s) => {
    const { toolset, tool } = stack.toolset(1);
    await tool("open").execute({ url: stack.pages.url("/form") });
    for (let round = 0; round < rounds; round++) {
      await tool("navigate").execute({ url: stack.pages.url("/form") });
      const before = stack.hits();
      const reply = await withFault(stack, s, "execute", "drop-response", () => tool("click").execute({ target: { by: "role", role: "button", name: "Send" } }));
      s.check(`round ${round}: reported unknown`, unknownText(reply.text), reply.text.slice(0, 120));
      s.equal(`round ${round}: the click reached the page once`, stack.hits() - before, 1);
    }
    await tool("navigate").execute({ url: stack.pages.url("/form") });
    const before = stack.hits();
    const clean = await tool("click").execute({ target: { by: "role", role: "button", name: "Send" } });
    s.check("the session still acts (not left busy)", clean.isError !== true && stack.hits() - before === 1, clean.text.slice(0, 120));
    s.equal("close leaves nothing", (await toolset.close()).unresolved, []);
  });

  await scenario("close answer lost", "worker closed, answer dropped", { ops: [] }, async (s) => {
    const client = stack.client();
    const base = sessions(stack);
    for (let round = 0; round < rounds; round++) {
      const { id } = await client.open();
      const error = await withFault(stack, s, "close", "drop-response", () => client.close(id).catch((caught: unknown) => caught));
      s.check(`round ${round}: OutcomeUnknownError`, isOutcomeUnknownError(error), String(error));
      s.equal(`round ${round}: the session is gone at the worker`, sessions(stack), base);
      const again = await client.close(id).catch((caught: unknown) => caught);
      s.check(`round ${round}: a second close is a definitive not-found`, isNotFoundError(again), String(again));
    }
    // Through the tools: the model's close after a lost answer settles it and frees the slot.
    const { toolset, tool } = stack.toolset(1);
    await tool("open").execute({});
    const lost = await withFault(stack, s, "close", "drop-response", () => tool("close").execute({}));
    const retried = lost.isError === true ? await tool("close").execute({}) : lost;
    const reopened = await tool("open").execute({});
    s.check("tools: close settles and the slot is free", retried.isError !== true && reopened.isError !== true, `${lost.text} / ${retried.text} / ${reopened.text}`);
    await toolset.close();
    s.equal("capacity released", sessions(stack), base);
  });

  await scenario("resume answer lost", "worker resumed, answer dropped", { ops: ["navigate", "pages"] }, async (s) => {
    const client = stack.client();
    const source = await client.open();
    await client.execute(source.id, { op: "navigate", url: stack.pages.url("/plain") });
    const checkpoint = await client.checkpoint(source.id);
    const base = sessions(stack);
    for (let round = 0; round < rounds; round++) {
      const error = await withFault(stack, s, "resume", "drop-response", () => client.resumeCheckpoint(checkpoint.id).catch((caught: unknown) => caught));
      const openTag = error instanceof OutcomeUnknownError ? error.openTag : undefined;
      s.check(`round ${round}: OutcomeUnknownError with its tag`, openTag !== undefined, String(error));
      const found = await client.reconcile(openTag ?? "none");
      const again = await client.resumeCheckpoint(checkpoint.id, { openTag: openTag ?? "none" });
      s.equal(`round ${round}: reconcile finds one, a repeated resume adopts it`, [found.length, again.id], [1, found[0]?.id]);
      s.equal(`round ${round}: no duplicate session`, sessions(stack), base + 1);
      await client.close(again.id);
    }
    await client.close(source.id);
    await client.deleteCheckpoint(checkpoint.id);
  });

  await scenario("reset before send", "connection cut before the worker saw open / execute / close", { ops: ["navigate", "click"] }, async (s) => {
    const { toolset, tool } = stack.toolset(1);
    const base = sessions(stack);
    for (let round = 0; round < rounds; round++) {
      const opened = await withFault(stack, s, "open", "reset-before-forward", () => tool("open").execute({}));
      s.check(`round ${round}: open reported unknown`, unknownText(opened.text), opened.text.slice(0, 120));
      s.equal(`round ${round}: no session made`, sessions(stack), base);
      const report = await toolset.reconcile();
      s.equal(`round ${round}: reconcile proves the absence`, [report.resolved, report.closed.length], [1, 0]);
    }
    await tool("open").execute({ url: stack.pages.url("/form") });
    for (let round = 0; round < rounds; round++) {
      const before = stack.hits();
      const reply = await withFault(stack, s, "execute", "reset-before-forward", () => tool("click").execute({ target: { by: "role", role: "button", name: "Send" } }));
      s.check(`round ${round}: click reported unknown, never retried`, unknownText(reply.text) && stack.hits() === before, reply.text.slice(0, 120));
    }
    const closed = await withFault(stack, s, "close", "reset-before-forward", () => tool("close").execute({}));
    s.equal("close cut: the session still runs", sessions(stack), base + 1);
    const retried = closed.isError === true ? await tool("close").execute({}) : closed;
    s.check("a second close settles it", retried.isError !== true, retried.text);
    s.equal("capacity released", sessions(stack), base);
    await toolset.close();
  });

  // The client's limit: the un-faulted calls must answer within it. A CDP engine open launches a Chromium of its
  // own (no browser for a keeper to hold up), which can take longer than 4 s on a loaded machine (seen once).
  const limitMs = stack.engine === "CDP" ? 10_000 : 4000;
  await scenario("answer slower than the client's limit", `answer of open / execute held past timeoutMs (${limitMs / 1000} s)`, { ops: ["navigate", "click"] }, async (s) => {
    // A session of another client keeps the tenant's browser up, so an open is quick.
    const keeper = stack.client();
    const kept = await keeper.open();
    const { toolset, tool } = stack.toolset(1, limitMs);
    const base = sessions(stack);
    for (let round = 0; round < rounds; round++) {
      const opened = await withFault(stack, s, "open", "hold-response", () => tool("open").execute({}));
      stack.proxy.releaseHeld();
      s.check(`round ${round}: open reported unknown`, unknownText(opened.text), opened.text.slice(0, 120));
      const report = await toolset.reconcile();
      s.equal(`round ${round}: the late session found and closed`, [report.resolved, report.closed.length, sessions(stack)], [1, 1, base]);
    }
    await tool("open").execute({ url: stack.pages.url("/form") });
    for (let round = 0; round < rounds; round++) {
      await tool("navigate").execute({ url: stack.pages.url("/form") });
      const before = stack.hits();
      const reply = await withFault(stack, s, "execute", "hold-response", () => tool("click").execute({ target: { by: "role", role: "button", name: "Send" } }));
      stack.proxy.releaseHeld();
      s.check(`round ${round}: click reported unknown, ran once`, unknownText(reply.text) && stack.hits() - before === 1, `${reply.text.slice(0, 120)} hits ${stack.hits() - before}`);
    }
    s.equal("close leaves nothing", (await toolset.close()).unresolved, []);
    await keeper.close(kept.id);
    s.equal("capacity released", sessions(stack), base - 1);
  });

  await scenario("worker restarted mid-session", "worker, manager and Chromium stopped and started again", { ops: ["navigate"] }, async (s) => {
    for (let round = 0; round < 2; round++) {
      const { toolset, tool } = stack.toolset(2);
      const first = await tool("open").execute({ url: stack.pages.url("/plain") });
      const second = await tool("open").execute({ url: stack.pages.url("/plain") });
      const [a, b] = [first.text, second.text].map((text) => /session (s\d+)/.exec(text)?.[1]);
      await stack.restartWorker();
      s.injected();
      s.equal(`round ${round}: the new worker has no session`, sessions(stack), 0);
      const acted = await tool("navigate").execute({ session: a, url: stack.pages.url("/form") });
      s.check(`round ${round}: an action on a lost session says it is gone`, acted.isError === true && /not_found|does not exist|not open/.test(acted.text), acted.text.slice(0, 160));
      const observed = await tool("observe").execute({ session: b });
      s.check(`round ${round}: so does the other one`, observed.isError === true, observed.text.slice(0, 160));
      // A definitive not-found frees the toolset's slots: two opens fit again.
      const reopened = [await tool("open").execute({}), await tool("open").execute({})];
      s.check(`round ${round}: not-found frees capacity`, reopened.every((reply) => reply.isError !== true), reopened.map((reply) => reply.text.slice(0, 120)));
      const closed = await toolset.close();
      s.equal(`round ${round}: close leaves nothing unresolved`, closed.unresolved, []);
      s.equal(`round ${round}: no session at the worker`, sessions(stack), 0);
    }
  });
}
