/**
 * Secrets: a session that types passwords (a host secret and one the model
 * typed), takes and releases human control, opens a live view, checkpoints,
 * records, resumes and fails in many ways, on a manager whose journal,
 * checkpoints and recordings are on disk; and a Steel provider whose error
 * bodies quote its key and whose CDP URL carries it. Then every artefact of
 * the run (this group's and, in a full run, every earlier group's: worker
 * answers, tool results, errors, the suite's output, files under the state
 * roots) is searched for every secret. Control and view tokens are learned
 * from the answers that hand them out, which alone may carry them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setupServer } from "msw/node";
import { createBrowserAgentTools } from "../../src/agent-tools/index.js";
import { BrowserUseClient } from "../../src/client/index.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { createMemoryStateStore } from "../../src/lifecycle/memory-stores.js";
import { BrowserSessionManager as FileSessionManager } from "../../src/stores/session-manager.js";
import { createSteelProvider } from "../../src/playwright.js";
import { createBrowserWorker } from "../../src/worker/index.js";
import { startHoldingServer } from "../helpers/holding-server.js";
import { createFakeSteel, steelBase } from "../helpers/steel-mock.js";
import { startWorkerServer, type WorkerServer } from "../helpers/worker-server.js";
import { artefacts, capturingFetch, collect, collectAnswers, collectDirectory, collectError, collectStore, capturesSettled } from "./artefacts.js";
import { findSecrets, issuedTokens } from "./scan.js";
import { loadKey } from "./load.js";
import { tenancyKeys } from "./tenancy.js";
import { tenantKey, token } from "./stack.js";
import { runScenario, type Row, type Scenario } from "./table.js";

/** The host's secret the model names, and a password the model types itself. */
const hostPassword = "Hunter2-host-secret-7f3c9a";
const typedPassword = "Typed-pw-by-model-41b2e8";
const steelKey = "ste-secrets-key-0d9e4c2b71";
/** The key provider.ts gives its Steel stand-in (that group checks its own errors; the scan covers the suite's output). */
const providerGroupKey = "ste-faults-key-8c1d0e5b7a";

const pages = {
  "/login": `<title>Login</title><form action="/welcome" method="get">
      <label>User <input name="user"></label><label>Password <input type="password" name="pw"></label>
      <label>PIN <input type="password" name="pin"></label><button>Sign in</button></form>`,
  "/welcome": `<title>Welcome</title><p id="echo"></p><script>
      const query = new URLSearchParams(location.search);
      document.getElementById("echo").textContent = "Signed in with " + query.get("pw") + " and " + query.get("pin");
      console.log("pw=" + query.get("pw"));
      fetch("/track?pw=" + encodeURIComponent(query.get("pw")) + "#" + query.get("pin"));
    </script>`,
  "/track": "ok",
};

/** Runs `step`; what it returns or throws becomes an artefact (`handsOut`: its result is a lease or view the host asked for). */
async function step(kind: string, work: () => Promise<unknown>, handsOut = false): Promise<unknown> {
  try {
    const value = await work();
    artefacts.push({ kind, text: typeof value === "string" ? value : (JSON.stringify(value) ?? ""), answer: handsOut });
    return value;
  } catch (error) {
    collectError(`${kind} (error)`, error);
    return error;
  }
}

/** The thorough workload on local Chromium through a tenant client and the agent tools. */
async function localWorkload(s: Scenario, stateRoot: string, recordingRoot: string): Promise<WorkerServer> {
  const served = await startHoldingServer(pages);
  const adapter = new PlaywrightBrowserAdapter();
  const manager = new FileSessionManager(adapter, 4, { stateRootDir: stateRoot, recordingRootDir: recordingRoot });
  await manager.ready();
  const onError = (error: unknown) => collectError("worker onError", error);
  const worker = await startWorkerServer(createBrowserWorker({ manager, token, tenants: { [tenantKey]: "faults" }, stationId: "local", onError }));
  const client = new BrowserUseClient({ baseUrl: worker.origin, stationId: "local", apiKey: tenantKey, timeoutMs: 30_000, fetch: capturingFetch });
  const toolset = createBrowserAgentTools({ client, maxSessions: 2, secrets: { site_password: hostPassword }, groups: ["diagnostics"], open: { consoleText: true } });
  const tool = (name: string, input: Record<string, unknown>) =>
    step(`tool result ${name}`, async () => (await toolset.tools.find((candidate) => candidate.name === `station_browser_${name}`)!.execute(input)).text);
  try {
    await tool("open", { url: served.url("/login") });
    s.injected(2);
    await tool("fill", {
      fields: [
        { target: { by: "label", value: "User" }, value: "alice" },
        { target: { by: "label", value: "Password" }, secret: "site_password" },
        { target: { by: "label", value: "PIN" }, value: typedPassword },
      ],
    });
    await tool("observe", {});
    await tool("observe", { mode: "dom" });
    await tool("click", { target: { by: "role", role: "button", name: "Sign in" } });
    await served.arrived("GET /track");
    s.check("the passwords reached the site (its page echoes them)", served.requests.includes("GET /welcome"), served.requests);
    await tool("observe", { mode: "text" });
    await tool("diagnostics", {});
    await tool("pages", { action: "list" });
    await tool("checkpoint", {});
    // Failures that carry a password in the call.
    s.injected(3);
    await tool("fill", { fields: [{ target: { by: "label", value: "No such field" }, value: typedPassword }] });
    await tool("fill", { fields: [{ target: { by: "label", value: "Password" }, secret: "no_such_secret" }] });
    await tool("type", { target: { by: "role", role: "textbox", name: "nothing here" }, text: hostPassword });

    const [info] = await client.list();
    const id = info!.id;
    s.injected(2);
    await step("client execute", () => client.execute(id, { op: "navigate", url: served.url("/login") }));
    await step("client execute", () => client.execute(id, { op: "fill", target: { by: "label", value: "Password" }, value: typedPassword }));
    await step("client execute", () => client.execute(id, { op: "fill", selector: "input", value: typedPassword }));
    await step("client execute", () => client.execute(id, { op: "navigate", url: `http://user:${typedPassword}@127.0.0.1/` }));
    await step("client execute", () => client.execute(id, { op: "navigate", url: `${served.url("/welcome")}?pw=${typedPassword}&pin=${hostPassword}` }));
    // Not read here: the client's own diagnostics, which quote what the page logged (it logs the password), as a page read does.
    await step("client checkpoint", () => client.checkpoint(id));
    await step("client checkpoints", () => client.checkpoints());
    const recording = (await step("client recording", () => client.startRecording(id))) as { id: string; frames: { id: string }[] };
    await step("client recording", () => client.getRecording(recording.id));
    if (recording.frames[0]) await step("client recording frame", () => client.recordingFrame(recording.id, recording.frames[0]!.id));
    await step("client recording", () => client.stopRecording(recording.id));
    await step("client recordings", () => client.recordings());

    // Human control and the live view: tokens are handed out, then presented, wrongly and rightly.
    s.injected(2);
    const grant = (await client.acquireControl(id, 30_000)) as { token: string };
    await step("client execute under lease", () => client.execute(id, { op: "navigate", url: served.url("/login") }));
    await step("client execute wrong token", () => client.execute(id, { op: "navigate", url: served.url("/login") }, { controlToken: `${grant.token.slice(0, -2)}xx` }));
    await step("client execute", () => client.execute(id, { op: "fill", target: { by: "label", value: "Password" }, value: typedPassword }, { controlToken: grant.token }));
    await step("client renew", () => client.renewControl(id, grant.token, 30_000), true);
    await step("client close under lease", () => client.close(id));
    await tool("click", { target: { by: "role", role: "button", name: "Sign in" } });
    await tool("close", {});
    const view = (await client.createLiveView(id)) as { url: string };
    const viewPath = new URL(view.url).pathname + new URL(view.url).search;
    const viewToken = new URL(view.url).searchParams.get("token")!;
    await worker.post(viewPath, undefined, undefined, { method: "GET" });
    await worker.post(`/live/${encodeURIComponent(id)}/frame?token=${encodeURIComponent(viewToken)}`, undefined, undefined, { method: "GET" });
    await worker.post(`/live/${encodeURIComponent(id)}/control?token=${encodeURIComponent(viewToken)}`, undefined, { action: "acquire" });
    await worker.post(`/live/${encodeURIComponent(id)}/control?token=${encodeURIComponent(viewToken)}`, undefined, { action: "input", controlToken: grant.token, input: { kind: "key", key: "Enter" } });
    await step("client release", () => client.releaseControl(id, grant.token));
    const taken = await worker.post(`/live/${encodeURIComponent(id)}/control?token=${encodeURIComponent(viewToken)}`, undefined, { action: "acquire" });
    const liveLease = (taken.json?.data as { token?: string } | undefined)?.token;
    s.check("the live view handed out a lease", typeof liveLease === "string", taken.text);
    await worker.post(`/live/${encodeURIComponent(id)}/control?token=${encodeURIComponent(viewToken)}`, undefined, { action: "release", controlToken: liveLease });
    await worker.post(`/live/${encodeURIComponent(id)}/stream?token=${encodeURIComponent(`${viewToken.slice(0, -3)}abc`)}`, undefined, undefined, { method: "GET" });
    await tool("close", {});
    await tool("open", { checkpoint: "c1" });
    await tool("close", {});
    collect("toolset close", JSON.stringify(await toolset.close()));
  } finally {
    await worker.close();
    await manager.close();
    await adapter.shutdown();
    await served.close();
  }
  return worker;
}

/** Steel with a key: its error bodies quote the key, and its CDP URL (carrying the key) cannot be reached. */
async function steelWorkload(s: Scenario): Promise<WorkerServer> {
  const cloud = createFakeSteel({ apiKey: steelKey, websocketUrl: (session) => `ws://127.0.0.1:9/devtools/browser/${session.id}?token=x` });
  const msw = setupServer(...cloud.handlers);
  msw.listen({ onUnhandledRequest: "bypass" });
  const provider = createSteelProvider({ apiKey: steelKey, baseURL: steelBase, rateLimitCapMs: 200 });
  const adapter = new PlaywrightBrowserAdapter({ provider });
  const store = createMemoryStateStore();
  const manager = new BrowserSessionManager(adapter, 2, { stateStore: store });
  const onError = (error: unknown) => collectError("worker onError", error);
  const worker = await startWorkerServer(createBrowserWorker({ manager, token, tenants: { [tenantKey]: "faults" }, stationId: "local", onError }));
  const client = new BrowserUseClient({ baseUrl: worker.origin, stationId: "local", apiKey: tenantKey, timeoutMs: 30_000, fetch: capturingFetch });
  try {
    s.injected(3);
    cloud.faults.create.push({ kind: "status", status: 401, body: { message: `invalid api key ${steelKey}`, key: steelKey } });
    await step("steel open", () => client.open());
    cloud.faults.create.push({ kind: "status", status: 500, body: `upstream said: steel-api-key=${steelKey}` });
    await step("steel open", () => client.open({ openTag: "steel-500" }));
    await step("steel reconcile", () => client.reconcile("steel-500"));
    await step("steel open (unreachable CDP)", () => client.open());
    await step("steel list", () => client.list());
    s.check("the Steel stand-in was asked to create three sessions", cloud.requests.filter((request) => request.method === "POST" && request.path === "/v1/sessions").length === 3, cloud.requests.map((request) => `${request.method} ${request.path}`));
    if (process.env.FAULTS_DEBUG) for (const artefact of artefacts.filter((each) => each.kind.startsWith("steel"))) process.stderr.write(`${artefact.kind}: ${artefact.text.slice(0, 300)}\n`);
  } finally {
    await worker.close();
    await manager.close().catch((error: unknown) => collectError("steel manager close", error));
    await adapter.shutdown();
    msw.close();
    await collectStore(store);
  }
  return worker;
}

export async function secretsScenarios(rows: Row[]): Promise<void> {
  await runScenario(rows, "Secrets scan", "passwords typed (host secret and model-typed), lease and view tokens handed out and presented, a provider key in error bodies and the CDP URL; then every artefact of the run searched", async (s) => {
    const stateRoot = await mkdtemp(join(tmpdir(), "faults-secrets-state-"));
    const recordingRoot = await mkdtemp(join(tmpdir(), "faults-secrets-recordings-"));
    try {
      const local = await localWorkload(s, stateRoot, recordingRoot);
      collectAnswers(local.bodies);
      const steel = await steelWorkload(s);
      collectAnswers(steel.bodies);
      const files = (await collectDirectory(stateRoot)) + (await collectDirectory(recordingRoot));
      s.check("the state roots hold the journal, checkpoints and recordings", files >= 3, files);
      await capturesSettled();
      const answers = artefacts.filter((artefact) => artefact.answer);
      const leaseAndView = issuedTokens(answers);
      s.check("lease and view tokens were handed out (and are searched for)", leaseAndView.size >= 3, [...leaseAndView].length);
      const secrets: [kind: string, value: string][] = [
        ["execution token", token],
        ["tenant key", tenantKey],
        ...Object.values(tenancyKeys).map((key): [string, string] => ["tenant key", key]),
        ["tenant key", loadKey],
        ["provider key", steelKey],
        ["provider key", providerGroupKey],
        ["typed password", hostPassword],
        ["typed password", typedPassword],
        ...[...leaseAndView].map((value): [string, string] => ["control or view token", value]),
      ];
      const scanned = [...artefacts];
      const found = findSecrets(scanned, secrets);
      if (process.env.FAULTS_DEBUG) {
        const kinds = new Map<string, number>();
        for (const artefact of scanned) kinds.set(artefact.kind.split(" ")[0]!, (kinds.get(artefact.kind.split(" ")[0]!) ?? 0) + 1);
        process.stderr.write(`artefacts by kind: ${[...kinds].map(([kind, count]) => `${kind} ${count}`).join(", ")}\n`);
      }
      s.injected(scanned.length);
      s.check(`artefacts searched: ${scanned.length} (${new Set(scanned.map((artefact) => artefact.kind.split(" ")[0])).size} kinds), ${secrets.length} secrets`, scanned.length > 50);
      s.equal("0 secrets found", found.slice(0, 5), []);
    } finally {
      await rm(stateRoot, { recursive: true, force: true });
      await rm(recordingRoot, { recursive: true, force: true });
    }
  });
}
