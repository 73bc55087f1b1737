/**
 * Where the client → worker exchange spends its time, on real Chromium and
 * the form of bench/actions.ts, default options: timestamps at the worker's
 * `request` event, the manager's `execute`
 * (start, end) and the answer's `finish`, around each `BrowserUseClient.execute`,
 * and inside Node's `fetch` from undici's diagnostics channels: when `fetch`
 * hands its request to the connection pool (`undici:request:create`), when
 * the request head is written (`undici:client:sendHeaders`) and when the
 * answer's head is parsed (`undici:request:headers`).
 * The client is given a `fetch` that only notes when it was called and when
 * it resolved, which splits the client's own time from fetch's: before the
 * call, and from the resolved response (its body still to read, through
 * fetch's streams) to the result.
 * Between actions it also times one bare `fetch` POST of the same size to a
 * server that answers at once: the floor any fetch-based client pays here;
 * and the same POST through `node:http` with a keep-alive agent, the floor of
 * Node's own HTTP client (which the client, fenced to web standards, cannot use).
 *
 * Run: `npx tsx bench/wire-phases.ts [rounds]` (default 50 rounds of fill, click, press, text).
 */
import { subscribe } from "node:diagnostics_channel";
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { BrowserUseClient } from "../src/client/index.js";
import { BrowserSessionManager } from "../src/lifecycle/manager.js";
import { PlaywrightBrowserAdapter } from "../src/playwright.js";
import { createBrowserWorker } from "../src/worker/index.js";
import { formCommand, formPage } from "./form-actions.js";

const rounds = Number(process.argv[2] ?? 50);
const actions = ["fill", "click", "press", "text"] as const;

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const url = `${await listen((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end(formPage))}/`;
const manager = new BrowserSessionManager(new PlaywrightBrowserAdapter(), 4, { ownsAdapter: true });
const at: Record<"fetchCalled" | "fetchResolved" | "created" | "headSent" | "arrived" | "managerStart" | "managerEnd" | "written" | "answerHead", number> = {
  fetchCalled: 0,
  fetchResolved: 0,
  created: 0,
  headSent: 0,
  arrived: 0,
  managerStart: 0,
  managerEnd: 0,
  written: 0,
  answerHead: 0,
};
// The bare fetch below publishes these too; only the client's exchange is read.
subscribe("undici:request:create", () => (at.created = performance.now()));
subscribe("undici:client:sendHeaders", () => (at.headSent = performance.now()));
subscribe("undici:request:headers", () => (at.answerHead = performance.now()));
const execute = manager.execute.bind(manager);
manager.execute = (async (...args: Parameters<typeof execute>) => {
  at.managerStart = performance.now();
  try {
    return await execute(...args);
  } finally {
    at.managerEnd = performance.now();
  }
}) as typeof manager.execute;
const tenantKey = "bench-tenant-key-".padEnd(40, "k");
const worker = createBrowserWorker({ manager, token: "bench-operator-token-".padEnd(40, "x"), tenants: { [tenantKey]: "bench" }, stationId: "local" });
const workerOrigin = await listen((request, response) => {
  at.arrived = performance.now();
  response.once("finish", () => (at.written = performance.now()));
  worker.handleNode(request, response);
});
const canned = JSON.stringify({ data: { ok: true, url, title: "Bench form", navigated: false, newPages: [] } });
const stubOrigin = await listen((request, response) => {
  request.resume();
  request.on("end", () => response.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(canned));
});

const agent = new Agent({ keepAlive: true });
/** The same POST as the bare fetch, through node:http on a kept-alive connection, its answer read whole. */
const nodeHttpPost = (body: string) =>
  new Promise<string>((resolve, reject) => {
    const outgoing = httpRequest(stubOrigin, { method: "POST", agent, headers: { authorization: `Bearer ${tenantKey}`, "content-type": "application/json" } }, (answer) => {
      let text = "";
      answer.setEncoding("utf8");
      answer.on("data", (chunk: string) => (text += chunk));
      answer.on("end", () => resolve(text));
      answer.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });

const client = new BrowserUseClient({
  baseUrl: workerOrigin,
  stationId: "local",
  apiKey: tenantKey,
  fetch: async (input, init) => {
    at.fetchCalled = performance.now();
    const response = await fetch(input, init);
    at.fetchResolved = performance.now();
    return response;
  },
});
const { id } = await client.open();
await client.execute(id, { op: "navigate", url });

const names = [
  "bare fetch → stub",
  "bare node:http → stub",
  "client → request event",
  "  execute → fetch called",
  "  → fetch's pool",
  "  → head written",
  "  head written → request",
  "request → manager",
  "manager",
  "manager → answer sent",
  "answer sent → client",
  "  → answer head parsed",
  "  head → fetch resolves",
  "  → execute returns",
  "client.execute",
] as const;
const times = new Map<string, number[]>(names.map((name) => [name, []]));
const push = (name: (typeof names)[number], ms: number) => times.get(name)!.push(ms);
for (let round = -1; round < rounds; round++) {
  for (const action of actions) {
    const command = formCommand(action, round, "");
    const fetchStarted = performance.now();
    const bare = await fetch(stubOrigin, { method: "POST", headers: { authorization: `Bearer ${tenantKey}`, "content-type": "application/json" }, body: JSON.stringify({ method: "execute", id, command }) });
    await bare.text();
    const fetchEnded = performance.now();
    await nodeHttpPost(JSON.stringify({ method: "execute", id, command }));
    const nodeHttpEnded = performance.now();
    const started = performance.now();
    await client.execute(id, command);
    const ended = performance.now();
    if (round < 0) continue;
    push("bare fetch → stub", fetchEnded - fetchStarted);
    push("bare node:http → stub", nodeHttpEnded - fetchEnded);
    push("client → request event", at.arrived - started);
    push("  execute → fetch called", at.fetchCalled - started);
    push("  → fetch's pool", at.created - at.fetchCalled);
    push("  → head written", at.headSent - at.created);
    push("  head written → request", at.arrived - at.headSent);
    push("request → manager", at.managerStart - at.arrived);
    push("manager", at.managerEnd - at.managerStart);
    push("manager → answer sent", at.written - at.managerEnd);
    push("answer sent → client", ended - at.written);
    push("  → answer head parsed", at.answerHead - at.written);
    push("  head → fetch resolves", at.fetchResolved - at.answerHead);
    push("  → execute returns", ended - at.fetchResolved);
    push("client.execute", ended - started);
  }
}
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!;
console.log(`Exchange phases, ${rounds} rounds of ${actions.join(", ")} (median / p90 ms), ${new Date().toISOString()}`);
for (const [name, values] of times) console.log(`${name.padEnd(26)} ${quantile(values, 0.5).toFixed(3)} / ${quantile(values, 0.9).toFixed(3)}`);
process.exit(0);
