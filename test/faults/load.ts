/**
 * Load, bounded: 8 sessions × 1,000 actions (`FAULTS_LOAD_ACTIONS`) through
 * the worker CLI in its own process (real HTTP on 127.0.0.1, local
 * Chromium, pages on 127.0.0.1), each session's client behind its own fault
 * proxy. Cheap actions (reads, evaluate, pages, a navigation and a form click
 * now and then), sessions closed and reopened as they go, and a fault every
 * 50 actions of a session, in turn: the answer of a click lost, the
 * connection reset before a click left, and a quarter of the time a page
 * hanging its main thread or a flood of popups (each then closed for a new
 * session). Busy and capacity rejections are provoked on purpose and
 * counted as expected; anything else is an unexpected error. It stops by
 * itself: every session runs its count of actions, then closes, then the
 * worker gets SIGTERM.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BrowserUseClient } from "../../src/client/index.js";
import { isStationBrowserError } from "../../src/errors.js";
import { limits } from "../../src/protocol/limits.js";
import { startFaultProxy, type Fault, type FaultProxy } from "../helpers/fault-proxy.js";
import { startHoldingServer, type HeldPage, type HoldingServer } from "../helpers/holding-server.js";
import { chromiumBelow, startCli, stillRunning, waitForStdout, type ProcessInfo } from "../helpers/processes.js";
import { collect, collectDirectory } from "./artefacts.js";
import { token } from "./stack.js";
import { runScenario, type Row } from "./table.js";

const sessions = 8;
const faultEvery = 50;
const reopenEvery = 200;
const busyEvery = 100;
const popups = 20;
/**
 * The time limit of the actions (the default is 10 s): on a shared 2-core
 * machine under heavy load a click can take longer, which is the machine's
 * slowness, not a fault; the clients wait twice as long.
 */
const slowMachineMs = 45_000;
/** The load worker's tenant key (the secrets scan searches for it). */
export const loadKey = "tenant-load-".padEnd(40, "k");
const faultKinds = ["lost answer", "reset before send", "hung page", "popup flood"] as const;
type FaultKind = (typeof faultKinds)[number];
/** The faults in turn: the costly ones (a hung page, a popup flood, each followed by a new session) a quarter of the time. */
const faultTurns: FaultKind[] = ["lost answer", "reset before send", "hung page", "lost answer", "reset before send", "popup flood", "lost answer", "reset before send"];

function loadPages(): Record<string, HeldPage> {
  const pages: Record<string, HeldPage> = {
    "/plain": `<title>Plain</title><p>plain page</p>`,
    "/popups": `<title>Popups</title><button id="open" onclick="for (let i = 0; i < ${popups}; i++) window.open('/plain', '_blank')">Open</button>`,
  };
  for (let user = 0; user < sessions; user++) {
    // The POST's answer is the form again: the next click needs no navigation first.
    const form = `<form method="post" action="/hit-${user}"><button id="go">Send</button></form>`;
    pages[`/form-${user}`] = `<title>Form ${user}</title>${form}`;
    pages[`/hit-${user}`] = `<title>Sent ${user}</title><p>sent</p>${form}`;
  }
  return pages;
}

interface Figures {
  attempted: number;
  completed: number;
  busy: number;
  busyProbes: number;
  capacity: number;
  capacityProbes: number;
  faults: Record<FaultKind, number>;
  faultsAsExpected: number;
  opens: number;
  unexpected: string[];
}

const codeOf = (error: unknown) => (isStationBrowserError(error) ? error.code : "thrown");
const explain = (error: unknown) => (error instanceof Error ? `${codeOf(error)}: ${error.message}` : String(error)).slice(0, 240);

/** Releases every waiting party once all `parties` arrived and `onAll` ran. */
function barrier(parties: number, onAll: () => Promise<void>): () => Promise<void> {
  let waiting: (() => void)[] = [];
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (waiting.length < parties) return;
      const all = waiting;
      waiting = [];
      void onAll().finally(() => all.forEach((release) => release()));
    });
}

interface User {
  index: number;
  client: BrowserUseClient;
  proxy: FaultProxy;
  session: string | undefined;
}

async function runUser(user: User, actions: number, pages: HoldingServer, figures: Figures, atBarrier: () => Promise<void>, sample: () => void): Promise<void> {
  const { client, proxy, index } = user;
  const hits = () => pages.requests.filter((request) => request === `POST /hit-${index}`).length;
  const unexpected = (what: string, error: unknown) => void figures.unexpected.push(`session ${index}, ${what}: ${explain(error)}`);

  /** One action that must answer; counted. */
  async function act(what: string, call: (id: string) => Promise<unknown>): Promise<boolean> {
    figures.attempted++;
    try {
      await call(user.session!);
      figures.completed++;
      return true;
    } catch (error) {
      unexpected(what, error);
      return false;
    }
  }
  async function open(): Promise<void> {
    figures.attempted++;
    figures.opens++;
    try {
      user.session = (await client.open()).id;
      figures.completed++;
      await act("navigate after open", (id) => client.execute(id, { op: "navigate", url: pages.url(`/form-${index}`), timeoutMs: slowMachineMs }));
    } catch (error) {
      user.session = undefined;
      unexpected("open", error);
    }
  }
  async function close(): Promise<void> {
    if (user.session === undefined) return;
    await act("close", (id) => client.close(id));
    user.session = undefined;
  }
  async function reopen(): Promise<void> {
    await close();
    await open();
  }
  /** A fault on the next execute of this session's proxy, around a click: the click runs once (lost answer) or never (reset). */
  async function faultedClick(fault: Fault, expectedHits: number): Promise<void> {
    const before = hits();
    const fired = proxy.fired.length;
    proxy.inject("execute", fault);
    figures.attempted++;
    const outcome = await client.execute(user.session!, { op: "click", selector: "#go", timeoutMs: slowMachineMs }).then(
      () => "answered",
      (error: unknown) => codeOf(error),
    );
    if (proxy.fired.length === fired) unexpected(`${fault} did not fire`, outcome);
    else if (outcome === "outcome_unknown" && hits() - before === expectedHits) figures.faultsAsExpected++;
    else unexpected(`click under ${fault}`, `${outcome}, ${hits() - before} POSTs (expected ${expectedHits})`);
  }

  async function fault(kind: FaultKind): Promise<void> {
    figures.faults[kind]++;
    sample();
    if (kind === "lost answer") return faultedClick("drop-response", 1);
    if (kind === "reset before send") return faultedClick("reset-before-forward", 0);
    figures.attempted++;
    if (kind === "hung page") {
      const outcome = await client.execute(user.session!, { op: "evaluate", expression: "(() => { while (true) {} })()", timeoutMs: 500 }).then(
        () => "answered",
        (error: unknown) => codeOf(error),
      );
      if (outcome === "outcome_unknown") figures.faultsAsExpected++;
      else unexpected("hung evaluate", outcome);
    } else {
      await act("navigate to the popups", (id) => client.execute(id, { op: "navigate", url: pages.url("/popups"), timeoutMs: slowMachineMs }));
      const outcome = await client.execute(user.session!, { op: "click", selector: "#open", timeoutMs: slowMachineMs }).then(
        () => "ok",
        (error: unknown) => codeOf(error),
      );
      const listed = await client.execute(user.session!, { op: "pages" }).then(
        (result) => result.pages.length,
        () => -1,
      );
      if ((outcome === "ok" || outcome === "outcome_unknown") && listed > 0 && listed <= limits.pagesPerSession) figures.faultsAsExpected++;
      else unexpected("popup flood", `${outcome}, ${listed} pages`);
    }
    // The hung page and the popups are left behind with the session: close it, open another.
    await reopen();
  }

  /** An action held in the page (a fetch the page server holds) while another is sent: the second is refused busy. */
  async function busyProbe(round: number): Promise<void> {
    const path = `/hold-busy-${index}-${round}`;
    figures.attempted++;
    const held = client.execute(user.session!, { op: "evaluate", expression: `fetch(${JSON.stringify(path)}).then((answer) => answer.status)`, timeoutMs: slowMachineMs });
    await pages.arrived(`GET ${path}`);
    figures.busyProbes++;
    figures.attempted++;
    await client.execute(user.session!, { op: "pages" }).then(
      () => unexpected("busy probe", "a second action ran while one was running"),
      (error: unknown) => (codeOf(error) === "busy" ? figures.busy++ : unexpected("busy probe", error)),
    );
    pages.release(path);
    await held.then(
      (result) => (result.value === 200 ? figures.completed++ : unexpected("held evaluate", result.value)),
      (error: unknown) => unexpected("held evaluate", error),
    );
  }

  await open();
  await atBarrier();
  const barrierEvery = Math.max(1, Math.floor(actions / 4));
  for (let step = 1; step <= actions; step++) {
    // Every session reaches every barrier (the same steps for all), whatever happened before.
    if (step % barrierEvery === 13 && step % faultEvery !== 0) {
      await atBarrier();
      continue;
    }
    if (user.session === undefined) await open();
    if (user.session === undefined) continue;
    try {
      await runStep(step);
    } catch (error) {
      unexpected(`step ${step}`, error);
    }
  }
  await atBarrier();
  await close();

  async function runStep(step: number): Promise<void> {
    if (step % faultEvery === 0) await fault(faultTurns[(step / faultEvery + index) % faultTurns.length]!);
    else if (step % reopenEvery === 7) await reopen();
    else if (step % busyEvery === 31) await busyProbe(step);
    else if (step % 100 === 59) await act("navigate", (id) => client.execute(id, { op: "navigate", url: pages.url(`/form-${index}`), timeoutMs: slowMachineMs }));
    else if (step % 25 === 9) {
      const before = hits();
      if ((await act("click", (id) => client.execute(id, { op: "click", selector: "#go", timeoutMs: slowMachineMs }))) && hits() - before !== 1) unexpected("click", `${hits() - before} POSTs`);
    } else if (step % 10 === 5) await act("pages", (id) => client.execute(id, { op: "pages" }));
    else await act("evaluate", (id) => client.execute(id, { op: "evaluate", expression: "document.title", timeoutMs: slowMachineMs }));
  }
}

/** CPU seconds of this process (the clients, proxies and page server) and of its reaped children (the worker, and the Chromium it reaped). */
function cpuSeconds(): { suite: number; worker: number } {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  // utime, stime, cutime, cstime: fields 14–17 of stat(5), in clock ticks (100 a second on Linux).
  const ticks = (at: number) => Number(fields[at - 3]);
  return { suite: (ticks(14) + ticks(15)) / 100, worker: (ticks(16) + ticks(17)) / 100 };
}

/** How long the load may run before it is recorded as hung: a guard only (every call has its own time limit); 8 × 1,000 actions take about 200 s of CPU. */
const loadLimitMs = 1_200_000;

export async function loadScenarios(rows: Row[]): Promise<void> {
  const actions = Number(process.env.FAULTS_LOAD_ACTIONS ?? 1000);
  const started = Date.now();
  // Earlier groups' Chromium, reaped by this process, counts in its children's time already.
  const cpuBefore = cpuSeconds();
  await runScenario(
    rows,
    `load: ${sessions} sessions × ${actions} actions`,
    `through the worker CLI (own process); a fault every ${faultEvery} actions of a session: ${faultKinds.join(", ")}`,
    async (s) => {
      const pages = await startHoldingServer(loadPages());
      // The worker's journal and checkpoints on disk, for the secrets scan.
      const stateRoot = await mkdtemp(join(tmpdir(), "faults-load-state-"));
      const worker = startCli(["worker", "--port", "0", "--max-sessions", String(sessions), "--idle-timeout", "10m", "--grace-ms", "2000", "--state-root", stateRoot], {
        STATION_EXECUTION_TOKEN: token,
        STATION_TENANT_KEYS: `${loadKey}=load`,
      });
      const proxies: FaultProxy[] = [];
      // Whatever happens, the worker (and its Chromium) does not outlive the suite.
      const killWorker = () => void worker.child.kill("SIGKILL");
      process.once("exit", killWorker);
      const seen = new Map<string, ProcessInfo>();
      const sample = () => {
        for (const info of chromiumBelow(worker.child.pid!)) seen.set(`${info.pid}:${info.startTime}`, info);
      };
      try {
        const origin = (await waitForStdout(worker, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 60_000))[1]!;
        const users: User[] = [];
        for (let index = 0; index < sessions; index++) {
          const proxy = await startFaultProxy(origin);
          proxies.push(proxy);
          users.push({ index, proxy, session: undefined, client: new BrowserUseClient({ baseUrl: proxy.origin, stationId: "local", apiKey: loadKey, timeoutMs: 2 * slowMachineMs }) });
        }
        const figures: Figures = {
          attempted: 0,
          completed: 0,
          busy: 0,
          busyProbes: 0,
          capacity: 0,
          capacityProbes: 0,
          faults: { "lost answer": 0, "reset before send": 0, "hung page": 0, "popup flood": 0 },
          faultsAsExpected: 0,
          opens: 0,
          unexpected: [],
        };
        // With every session open (all 8 slots held), one more open must be refused for capacity.
        const probe = new BrowserUseClient({ baseUrl: origin, stationId: "local", apiKey: loadKey, timeoutMs: 2 * slowMachineMs });
        const atBarrier = barrier(sessions, async () => {
          sample();
          figures.capacityProbes++;
          figures.attempted++;
          await probe.open().then(
            async (extra) => {
              figures.unexpected.push(`capacity probe: a ${sessions + 1}th session opened`);
              await probe.close(extra.id);
            },
            (error: unknown) => (codeOf(error) === "capacity" ? figures.capacity++ : figures.unexpected.push(`capacity probe: ${explain(error)}`)),
          );
        });
        await Promise.all(users.map((user) => runUser(user, actions, pages, figures, atBarrier, sample)));

        const faults = Object.values(figures.faults).reduce((sum, count) => sum + count, 0);
        s.injected(faults);
        const left = (await probe.list()).length;
        sample();
        const rssKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${worker.child.pid}/status`, "utf8"))?.[1] ?? 0);
        worker.child.kill("SIGTERM");
        const code = await worker.exit;
        const cpuAfter = cpuSeconds();
        const cpu = { worker: Math.round(cpuAfter.worker - cpuBefore.worker), suite: Math.round(cpuAfter.suite - cpuBefore.suite) };
        const running = [...seen.values()].filter((info) => stillRunning(info));
        const internal = worker.stderr().split("\n").filter((line) => /internal error/.test(line));
        const seconds = Math.round((Date.now() - started) / 1000);
        const expectedRejections = figures.busy + figures.capacity;
        s.check(`${figures.completed} actions completed of ${figures.attempted} sent (${figures.opens} opens), in ${seconds} s wall, ${cpu.worker} s CPU in the worker and its Chromium, ${cpu.suite} s in the suite`, figures.completed > 0 && figures.completed + expectedRejections + figures.faultsAsExpected + figures.unexpected.length === figures.attempted, figures);
        s.check(`${expectedRejections} expected rejections: busy ${figures.busy}/${figures.busyProbes}, capacity ${figures.capacity}/${figures.capacityProbes}`, figures.busy === figures.busyProbes && figures.capacity === figures.capacityProbes && figures.capacityProbes > 0, figures);
        s.check(
          `faults answered as expected ${figures.faultsAsExpected}/${faults} (${faultKinds.map((kind) => `${kind} ${figures.faults[kind]}`).join(", ")}; a lost click ran once, a reset one never)`,
          figures.faultsAsExpected === faults && faults >= (sessions * actions) / faultEvery,
          figures.faults,
        );
        s.equal(`${figures.unexpected.length} unexpected errors`, figures.unexpected.slice(0, 3), []);
        s.equal("0 internal errors at the worker", internal.slice(0, 3), []);
        s.check(`peak RSS of the worker process ${Math.round(rssKb / 1024)} MB (VmHWM; Chromium not included)`, rssKb > 0 && rssKb < 1024 * 1024, rssKb);
        s.equal(`${left} sessions left at the worker (local provider)`, left, 0);
        s.equal(`${running.length} Chromium processes left (of ${seen.size} seen)`, running.map((info) => info.pid), []);
        s.equal("the worker stopped by itself on SIGTERM (exit 0)", code, 0);
      } finally {
        process.off("exit", killWorker);
        for (const proxy of proxies) await proxy.close();
        if (worker.child.exitCode === null && worker.child.signalCode === null) {
          worker.child.kill("SIGKILL");
          await worker.exit;
        }
        await pages.close();
        // For the secrets scan: what the worker logged and what its state root holds.
        collect("log", worker.stdout(), worker.stderr());
        const files = await collectDirectory(stateRoot);
        s.check("the worker's journal was on disk (read by the secrets scan)", files >= 1, files);
        await rm(stateRoot, { recursive: true, force: true });
      }
    },
    loadLimitMs,
  );
}
