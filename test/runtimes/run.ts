/**
 * `npm run test:runtimes`: the built package, from its `npm pack` tarball
 * installed into a scratch project, on every runtime it claims — Node 20
 * (this process's), Node 22, Deno, Bun, and workerd through miniflare
 * (bundled with the workerd condition, no nodejs_compat). Each runs the same
 * agent check against one worker on 127.0.0.1 (checks/agent-check.mjs);
 * Deno and Bun also run the engine and the worker itself, and Deno the REST
 * halves once more without `--allow-env=DEBUG`; workerd also the
 * REST halves of Browserbase and Steel against a local stand-in, and the
 * refusal of the Node-only entries. Node 22, Deno, Bun and workerd also run the
 * CDP client check (checks/cdp-check.mjs) against a real Chromium over their
 * own WebSocket, from station-browser-use/cdp.
 * Node 22, Deno, Bun and workerd also run edge-direct (checks/edge-check.mjs):
 * the agent tools on a manager on the CDP engine (station-browser-use/cdp)
 * over the Browserbase and Steel REST halves against the stand-in, whose
 * sessions are that Chromium.
 * Prints one line per runtime and check; exits
 * 1 if any fails. Needs `npm run build` and `npm ci --prefix test/runtimes`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { startCdpChromium } from "../helpers/cdp-chromium.js";
import { startFixtureServer } from "../helpers/fixture-server.js";
import { startProviderStandIn } from "./provider-stand-in.js";
import { examplePageTitle, serveExamplePage } from "../../examples/support/example-page.js";
import { startScriptedAnthropic } from "../../examples/support/scripted-anthropic.js";
import { scriptedFinalText } from "../../examples/support/scripted-model-server.js";
import { denoPermissions } from "./deno-permissions.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const suiteDir = fileURLToPath(new URL("./", import.meta.url));
const bin = (name: string) => join(suiteDir, "node_modules", ".bin", name);
/** Ends a child that hangs; a bound on a broken run, not a measure of speed. */
const hungAfterMs = 120_000;

const token = "op-runtime-suite-".padEnd(48, "x");
const apiKey = "tenant-runtime-suite-".padEnd(48, "k");
const stationId = "runtimes";
const browserbaseApiKey = "bb-runtime-suite-key-0123456789";
const steelApiKey = "ste-runtime-suite-key-0123456789";

interface CheckResult {
  ok: boolean;
  runtime?: string;
  firstToolResultMs?: number;
  checked?: string[];
  error?: string;
}

interface Line {
  runtime: string;
  check: string;
  result: CheckResult;
  ms: number;
}

const lines: Line[] = [];

function report(runtime: string, check: string, result: CheckResult, ms: number): void {
  lines.push({ runtime, check, result, ms });
  const first = result.firstToolResultMs === undefined ? "" : `, first tool result ${result.firstToolResultMs} ms after import`;
  const what = result.checked?.join(", ") ?? "";
  console.log(`${result.ok ? "pass" : "FAIL"}  ${runtime.padEnd(20)} ${check.padEnd(7)} ${Math.round(ms)} ms${first}${what ? ` — ${what}` : ""}`);
  if (!result.ok) console.log(`      ${(result.error ?? "").split("\n").join("\n      ")}`);
}

/** Runs a command; resolves with its output (never rejects). */
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), hungAfterMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: `${stderr}${String(error)}` });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The JSON line a check script printed, or a failure carrying its output. */
function parseCheck(output: { code: number | null; stdout: string; stderr: string }): CheckResult {
  const line = output.stdout.trim().split("\n").reverse().find((text) => text.startsWith("{"));
  try {
    if (line !== undefined) return JSON.parse(line) as CheckResult;
  } catch {
    // Reported below with the raw output.
  }
  return { ok: false, error: `exit ${output.code}\n${output.stdout}\n${output.stderr}`.trim() };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** `npm pack` of the built package, installed into a scratch project with the check scripts. */
async function installTarball(scratch: string): Promise<string> {
  const packed = await run("npm", ["pack", "--pack-destination", scratch, "--silent"], { cwd: root });
  const tarball = packed.stdout.trim().split("\n").pop();
  if (packed.code !== 0 || !tarball) throw new Error(`npm pack failed:\n${packed.stderr}`);
  const project = join(scratch, "project");
  await mkdir(project);
  await writeFile(
    join(project, "package.json"),
    JSON.stringify(
      {
        name: "runtime-suite-project",
        private: true,
        type: "module",
        // `ai` is the optional peer of ./ai-sdk: a user of that entry has it, at the version the project tests with.
        dependencies: { "station-browser-use": `file:${join(scratch, tarball)}`, ai: await devDependencyVersion("ai") },
      },
      null,
      2,
    ),
  );
  const installed = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], { cwd: project });
  if (installed.code !== 0) throw new Error(`npm install of the tarball failed:\n${installed.stderr}`);
  await cp(join(suiteDir, "checks"), join(project, "checks"), { recursive: true });
  return project;
}

/** Starts the worker inside Deno or Bun; resolves with its origin and a stop function. */
async function startRuntimeWorker(command: string, args: string[], cwd: string): Promise<{ origin: string; stop(): Promise<string> }> {
  const child = spawn(command, args, { cwd, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), hungAfterMs);
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      output += chunk;
      const match = /\{"port":(\d+)\}/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited (${code}) before listening:\n${output}`));
    });
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    async stop() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), hungAfterMs);
      await exited;
      clearTimeout(timer);
      return output;
    },
  };
}

async function main(): Promise<number> {
  if (!existsSync(join(root, "dist", "agent.js"))) throw new Error("no dist/: run `npm run build` first");
  for (const name of ["node", "deno", "bun", "workerd"]) {
    if (!existsSync(bin(name))) throw new Error(`no ${bin(name)}: run \`npm ci --prefix test/runtimes --no-audit --no-fund\` first`);
  }
  const { PlaywrightBrowserAdapter, BrowserSessionManager, createLocalProvider, findChromium } = await import(pathToFileURL(join(root, "dist", "playwright.js")).href);
  const chromium: string = findChromium();
  const scratch = await mkdtemp(join(tmpdir(), "station-runtimes-"));
  const fixtures = await startFixtureServer();
  const cdpChromium = await startCdpChromium();
  const standIn = await startProviderStandIn({ browserbaseApiKey, steelApiKey, cdpUrl: cdpChromium.wsUrl });
  const examplePage = await serveExamplePage();
  const scriptedModel = await startScriptedAnthropic(examplePageTitle);
  const { createBrowserWorker, createWorkerHttpServer } = await import(pathToFileURL(join(root, "dist", "worker.js")).href);
  const adapter = new PlaywrightBrowserAdapter({ provider: createLocalProvider({ executablePath: chromium, tempRootDir: join(scratch, "tmp-node") }) });
  const manager = new BrowserSessionManager(adapter, 4, { ownsAdapter: true });
  const server = createWorkerHttpServer(createBrowserWorker({ manager, token, tenants: { [apiKey]: "runtimes" }, stationId }));
  try {
    const [project] = await Promise.all([installTarball(scratch), new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))]);
    const workerPort = (server.address() as { port: number }).port;
    const workerOrigin = `http://127.0.0.1:${workerPort}`;
    // A port nothing listens on: a client there must learn that nothing was sent (src/client/never-sent.ts).
    const refusedUrl = await closedPortUrl();
    const agentConfig = (baseUrl: string) => JSON.stringify({ baseUrl, stationId, apiKey, pageUrl: fixtures.url("/index.html"), refusedUrl });
    const script = (name: string) => join("checks", `${name}.mjs`);
    const cdpConfig = JSON.stringify({ cdpUrl: cdpChromium.wsUrl, pageUrl: fixtures.url("/index.html") });
    const runtimeConfig = (name: string) => JSON.stringify({ chromium, pageUrl: fixtures.url("/index.html"), tempRootDir: join(scratch, `tmp-${name}`), token, apiKey, stationId });

    const standInPort = Number(new URL(standIn.origin).port);
    const restConfig = JSON.stringify({ standIn: standIn.origin, browserbaseApiKey, steelApiKey });
    const exampleConfig: ExampleWorkerConfig = {
      bindings: {
        BROWSERBASE_API_KEY: browserbaseApiKey,
        BROWSERBASE_BASE_URL: `${standIn.origin}/browserbase`,
        ANTHROPIC_API_KEY: "scripted-model",
        ANTHROPIC_BASE_URL: scriptedModel.baseURL,
      },
      pageUrl: examplePage.url,
      answerStart: scriptedFinalText(examplePageTitle, "an image block inside the tool_result (image/png").slice(0, -1),
    };
    const edgeConfig = JSON.stringify({ standIn: standIn.origin, browserbaseApiKey, steelApiKey, cdpUrl: cdpChromium.wsUrl, pageUrl: fixtures.url("/index.html") });
    const nodeRuntimes = [
      { name: "node 20", command: process.execPath, args: [] as string[] },
      { name: "node 22", command: bin("node"), args: [] as string[] },
    ];
    for (const runtime of nodeRuntimes) {
      const { value, ms } = await timed(() => run(runtime.command, [...runtime.args, script("agent-cli"), agentConfig(workerOrigin)], { cwd: project }));
      const result = parseCheck(value);
      report(result.runtime ?? runtime.name, "agent", result, ms);
    }
    // Node 22 has a global WebSocket (Node 20 has none: its host hands the CDP client one over `ws`).
    const node22Cdp = await timed(() => run(bin("node"), [script("cdp-cli"), cdpConfig], { cwd: project }));
    const node22Result = parseCheck(node22Cdp.value);
    report(node22Result.runtime ?? "node 22", "cdp", node22Result, node22Cdp.ms);
    const node22Edge = await timed(() => run(bin("node"), [script("edge-cli"), edgeConfig], { cwd: project }));
    const node22EdgeResult = parseCheck(node22Edge.value);
    report(node22EdgeResult.runtime ?? "node 22", "edge", node22EdgeResult, node22Edge.ms);

    // Every subpath, imported and required from the installed tarball (Node 20, the project's own Node).
    const subpaths = await timed(() => run(process.execPath, [script("subpaths-cli"), "{}"], { cwd: project }));
    report(`node ${process.versions.node}`, "subpaths", parseCheck(subpaths.value), subpaths.ms);

    const deno = (check: keyof typeof denoPermissions, ports: number[]) => ["run", "--quiet", "--no-prompt", ...denoPermissions[check]({ ports }), script(`${check}-cli`)];
    const bun = (check: string) => [script(`${check}-cli`)];
    const others = [
      { name: "deno", command: bin("deno"), args: deno },
      { name: "bun", command: bin("bun"), args: (check: keyof typeof denoPermissions) => bun(check) },
    ];
    for (const runtime of others) {
      const agent = await timed(() => run(runtime.command, [...runtime.args("agent", [workerPort]), agentConfig(workerOrigin)], { cwd: project }));
      const agentResult = parseCheck(agent.value);
      const label = agentResult.runtime ?? runtime.name;
      report(label, "agent", agentResult, agent.ms);
      const rest = await timed(() => run(runtime.command, [...runtime.args("rest", [standInPort]), restConfig], { cwd: project }));
      report(label, "rest", parseCheck(rest.value), rest.ms);
      if (runtime.name === "deno") {
        // Narrower: no DEBUG. Nothing may reach the stand-in.
        const seen = standIn.browserbase.requests.length + standIn.steel.requests.length;
        const narrow = await timed(() => run(runtime.command, [...runtime.args("rest-without-debug", [standInPort]), restConfig], { cwd: project }));
        const sent = standIn.browserbase.requests.length + standIn.steel.requests.length - seen;
        const result = parseCheck(narrow.value);
        report(label, "nodebug", sent === 0 ? result : { ok: false, error: `the stand-in received ${sent} requests:\n${result.error ?? ""}` }, narrow.ms);
      }
      const cdp = await timed(() => run(runtime.command, [...runtime.args("cdp", [cdpChromium.port]), cdpConfig], { cwd: project }));
      report(label, "cdp", parseCheck(cdp.value), cdp.ms);
      const edge = await timed(() => run(runtime.command, [...runtime.args("edge", [standInPort, cdpChromium.port]), edgeConfig], { cwd: project }));
      report(label, "edge", parseCheck(edge.value), edge.ms);
      const engine = await timed(() => run(runtime.command, [...runtime.args("engine", []), runtimeConfig(runtime.name)], { cwd: project }));
      report(label, "engine", parseCheck(engine.value), engine.ms);
      const worker = await timed(async () => {
        let started: Awaited<ReturnType<typeof startRuntimeWorker>> | undefined;
        try {
          started = await startRuntimeWorker(runtime.command, [...runtime.args("worker", []), runtimeConfig(runtime.name)], project);
          const client = parseCheck(await run(process.execPath, [script("agent-cli"), agentConfig(started.origin)], { cwd: project }));
          const output = await started.stop();
          return client.ok ? { ...client, runtime: label, checked: [`${label} worker, node ${process.versions.node} client`, ...(client.checked ?? [])] } : { ...client, error: `${client.error}\nworker output:\n${output}` };
        } catch (error) {
          await started?.stop();
          return { ok: false, error: String((error as Error).stack ?? error) } satisfies CheckResult;
        }
      });
      report(label, "worker", worker.value, worker.ms);
    }

    const workerd = `workerd ${await workerdVersion()}`;
    const started = performance.now();
    try {
      for (const [check, { result, ms }] of await runWorkerd(project, { agent: agentConfig(workerOrigin), rest: restConfig, cdp: cdpConfig, edge: edgeConfig, example: exampleConfig })) report(workerd, check, result, ms);
    } catch (error) {
      // A bundle that does not build for workerd, or a runtime that does not start.
      report(workerd, "bundle", { ok: false, error: String((error as Error).stack ?? error) }, performance.now() - started);
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await manager.close();
    await standIn.close();
    await scriptedModel.close();
    // Before the fixture server: its close waits for the connections Chromium keeps to it.
    await cdpChromium.close();
    await fixtures.close();
    await examplePage.close();
    await rm(scratch, { recursive: true, force: true });
  }
  const failed = lines.filter(({ result }) => !result.ok);
  console.log(failed.length === 0 ? `all ${lines.length} runtime checks passed` : `${failed.length} of ${lines.length} runtime checks failed`);
  return failed.length === 0 ? 0 : 1;
}

async function workerdVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(suiteDir, "node_modules", "workerd", "package.json"), "utf8")) as { version: string };
  return manifest.version;
}

/** What the suite uses of miniflare (installed in test/runtimes, which the typecheck runs without). */
interface MiniflareModule {
  Miniflare: new (options: { modules: true; modulesRoot: string; scriptPath: string; compatibilityDate: string; bindings?: Record<string, string> }) => {
    dispatchFetch(url: string, init: { method: string; body: string }): Promise<{ json(): Promise<unknown> }>;
    dispose(): Promise<void>;
  };
}

/** Bundles the checks for workerd (workerd condition, no nodejs_compat) and runs them in miniflare. */
async function runWorkerd(
  project: string,
  config: { agent: string; rest: string; cdp: string; edge: string; example: ExampleWorkerConfig },
): Promise<[string, { result: CheckResult; ms: number }][]> {
  const { Miniflare } = (await import(pathToFileURL(join(suiteDir, "node_modules", "miniflare", "dist", "src", "index.js")).href)) as MiniflareModule;
  const startWorker = async (entry: string, source = join(project, "checks", `${entry}.mjs`), bindings: Record<string, string> = {}) => {
    const bundled = join(project, `${entry}.bundle.mjs`);
    await build({
      entryPoints: [source],
      outfile: bundled,
      bundle: true,
      format: "esm",
      platform: "neutral",
      conditions: ["workerd", "worker", "browser"],
      mainFields: ["browser", "module", "main"],
      logLevel: "error",
    });
    const miniflare = new Miniflare({ modules: true, modulesRoot: project, scriptPath: bundled, compatibilityDate: "2026-07-01", bindings });
    const post = async (path: string, body: string) => {
      const response = await miniflare.dispatchFetch(`http://runtime-suite.test${path}`, { method: "POST", body });
      return (await response.json()) as CheckResult;
    };
    return { post, dispose: () => miniflare.dispose() };
  };
  const checks: [string, { result: CheckResult; ms: number }][] = [];
  const worker = await startWorker("workerd-entry");
  try {
    for (const [check, path, body] of [
      ["agent", "/agent", config.agent],
      ["rest", "/rest", config.rest],
      ["neutral", "/neutral", "{}"],
      ["refusal", "/refusal", "{}"],
      ["cdp", "/cdp", config.cdp],
      ["edge", "/edge", config.edge],
    ] as const) {
      const { value, ms } = await timed(() => worker.post(path, body));
      checks.push([check, { result: value, ms }]);
    }
  } finally {
    await worker.dispose();
  }
  // A top-level import of a Node-only entry: the bundle builds, and the Worker fails as it starts, with the refusal.
  const { value: startup, ms } = await timed(async (): Promise<CheckResult> => {
    let started: Awaited<ReturnType<typeof startWorker>> | undefined;
    try {
      started = await startWorker("workerd-static-import");
      await started.post("/", "{}");
      return { ok: false, error: "a Worker importing station-browser-use/playwright at the top started" };
    } catch (error) {
      const message = String((error as Error).stack ?? error);
      return message.includes("station-browser-use/playwright cannot run in Cloudflare Workers (workerd)")
        ? { ok: true, checked: ["a top-level import of ./playwright bundles, and the Worker fails at startup with the refusal"] }
        : { ok: false, error: `the Worker failed, but not with the refusal:\n${message}` };
    } finally {
      await started?.dispose().catch(() => undefined);
    }
  });
  checks.push(["startup", { result: startup, ms }]);
  const { value: example, ms: exampleMs } = await timed(() => runExampleWorker(startWorker, config.example));
  checks.push(["example", { result: example, ms: exampleMs }]);
  return checks;
}

/** What examples/edge-worker/worker.ts is run against: its bindings (the stand-ins' URLs and keys) and the page its task names. */
interface ExampleWorkerConfig {
  bindings: Record<string, string>;
  pageUrl: string;
  /** How the scripted model's answer starts once the page title and the screenshot reached it. */
  answerStart: string;
}

/**
 * examples/edge-worker/worker.ts, bundled as wrangler bundles it (workerd
 * condition, no nodejs_compat), given a task: the scripted Anthropic
 * stand-in plays the model, the Browserbase stand-in hands out the local
 * Chromium; the Worker answers with the model's final text.
 */
async function runExampleWorker(
  startWorker: (entry: string, source: string, bindings: Record<string, string>) => Promise<{ post(path: string, body: string): Promise<unknown>; dispose(): Promise<void> }>,
  config: ExampleWorkerConfig,
): Promise<CheckResult> {
  let worker: Awaited<ReturnType<typeof startWorker>>;
  try {
    worker = await startWorker("edge-worker-example", join(root, "examples", "edge-worker", "worker.ts"), config.bindings);
  } catch (error) {
    return { ok: false, error: `the example Worker does not bundle or start for workerd:\n${String((error as Error).stack ?? error)}` };
  }
  try {
    const reply = (await worker.post("/", JSON.stringify({ task: `Open ${config.pageUrl} and tell me what the page is about.` }))) as { answer?: string; error?: string };
    return reply.answer?.startsWith(config.answerStart)
      ? { ok: true, checked: ["examples/edge-worker/worker.ts: the model's tools ran on Browserbase (stand-in) through the CDP engine, and its answer came back"] }
      : { ok: false, error: `the example Worker answered ${JSON.stringify(reply)}` };
  } finally {
    await worker.dispose();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

/** `http://127.0.0.1:<port>/` of a port that was free a moment ago and is closed again. */
async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** The version the project's own package.json pins for a devDependency. */
async function devDependencyVersion(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  const version = manifest.devDependencies[name];
  if (version === undefined) throw new Error(`package.json pins no devDependency ${name}`);
  return version;
}
