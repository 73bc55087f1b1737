/**
 * Browser faults through the whole stack (client → worker → manager →
 * Chromium): Chromium SIGKILLed mid-action, a page hanging its main thread,
 * 50 popups, a dialog loop, a 50 MB page, an endless download. After each:
 * the session ended or recovered with a clear reason, bounds held, and the
 * worker still serves another session.
 */
import { isStationBrowserError } from "../../src/errors.js";
import { limits } from "../../src/protocol/limits.js";
import type { HeldPage } from "../helpers/holding-server.js";
import { startBlackholeProxy, type BlackholeProxy } from "../helpers/blackhole-proxy.js";
import { processes, stillRunning, type ProcessInfo } from "../helpers/processes.js";
import type { FaultStack } from "./stack.js";
import { scenarioOn, type Row, type Scenario } from "./table.js";

/** The download limit of this stack's adapter: the endless download must stop here. */
export const browserDownloadMaxBytes = 1024 * 1024;

export const browserPages: Record<string, HeldPage> = {
  "/popups": `<title>Popups</title><button id="open" onclick="for (let i = 0; i < 50; i++) window.open('/plain', '_blank')">Open 50</button>`,
  "/dialogs": `<title>Dialogs</title><script>let shown = 0; function loop() { shown++; alert('again ' + shown); setTimeout(loop, 0); } addEventListener('load', loop);</script>`,
  "/big": `<title>Big</title><p>${"0123456789 abcdefghijklmnopqrstuvwxyz ".repeat(1_350_000)}</p>`,
  "/endless": { endless: true },
};

const message = (error: unknown) => (error instanceof Error ? `${isStationBrowserError(error) ? `${error.code}: ` : ""}${error.message}` : String(error));

/** Chromium processes this process started since `before` (a set of pids). */
const newChromium = (before: Set<number>): ProcessInfo[] => processes().filter((info) => info.ppid === process.pid && !before.has(info.pid) && /chrom/i.test(info.name));
const childPids = () => new Set(processes().filter((info) => info.ppid === process.pid).map((info) => info.pid));

/** The Playwright engine drives its local browser over a pipe: there is no CDP URL to cut (the provider group cuts its CDP connection to Steel). */
const noCdpUrl = { Playwright: "the Playwright engine's local browser has no CDP URL to cut; the provider group cuts Playwright's CDP connection to Steel" };


/**
 * A CDP engine session connects through a TCP relay in front of its
 * Chromium's DevTools port; while an evaluate that never settles waits,
 * `cut` ends the relay's connection. Checked: outcome unknown naming the
 * connection, session-close (browserGone), the slot free, the session's
 * Chromium ended (its provider session released), and the worker still serves.
 */
async function cdpConnectionCut(stack: FaultStack, s: Scenario, cut: (relay: BlackholeProxy) => Promise<void> | void): Promise<void> {
  const client = stack.client();
  let relay: BlackholeProxy | undefined;
  stack.routeCdp(async (cdpUrl) => (relay = await startBlackholeProxy(Number(new URL(cdpUrl).port))).via(cdpUrl));
  try {
    const before = childPids();
    const { id } = await client.open();
    // Only this session goes through the relay.
    stack.routeCdp(undefined);
    const [browser] = newChromium(before);
    if (!browser || !relay) throw new Error("no Chromium or no relay for the session");
    await client.execute(id, { op: "navigate", url: stack.pages.url("/plain") });
    const closed = new Promise<string>((resolve) => stack.backend.manager.events.on("session-close", (event) => event.sessionId === id && resolve(event.reason)));
    const started = new Promise<void>((resolve) => stack.backend.manager.events.once("action-start", () => resolve()));
    const pending = client.execute(id, { op: "evaluate", expression: "new Promise(() => {})", timeoutMs: 20_000 }).then(
      () => "answered",
      (error: unknown) => message(error),
    );
    await started;
    await cut(relay);
    s.injected();
    const outcome = await pending;
    s.check("the action ends with outcome unknown, saying the connection is gone", /^outcome_unknown: .*(gone|closed|ended)/.test(outcome), outcome.slice(0, 200));
    s.equal("session-close, reason browserGone", await closed, "browserGone");
    s.equal("the session went through the relay", relay.connections, 1);
    s.check("the slot is free", !stack.backend.manager.list().some((info) => info.id === id), stack.backend.manager.list());
    s.check("the session's Chromium was ended (its provider session released)", !stillRunning(browser), browser);
    await stillServes(stack, s);
  } finally {
    stack.routeCdp(undefined);
    await relay?.close();
  }
}

/** Checks that another session opens and navigates: the worker still serves. */
async function stillServes(stack: FaultStack, s: Scenario): Promise<void> {
  const client = stack.client();
  const { id } = await client.open();
  const result = await client.execute(id, { op: "navigate", url: stack.pages.url("/plain") });
  await client.close(id);
  s.equal("the worker still serves another session", result.title, "Plain");
}

export async function browserScenarios(stack: FaultStack, rows: Row[]): Promise<void> {
  const client = stack.client();
  // Each scenario names the ops it sends to the engine.
  const scenario = scenarioOn(stack, rows);

  await scenario("Chromium SIGKILLed mid-action", "SIGKILL to the browser process while an evaluate waits", { ops: ["navigate", "evaluate"] }, async (s) => {
    for (let round = 0; round < 2; round++) {
      const before = childPids();
      const { id } = await client.open();
      const [browser] = newChromium(before);
      if (!browser) throw new Error("no new Chromium process for the session");
      await client.execute(id, { op: "navigate", url: stack.pages.url("/plain") });
      const closed = new Promise<string>((resolve) => stack.backend.manager.events.on("session-close", (event) => event.sessionId === id && resolve(event.reason)));
      const pending = client.execute(id, { op: "evaluate", expression: "new Promise(() => {})", timeoutMs: 20_000 }).then(
        () => "answered",
        (error: unknown) => message(error),
      );
      // The command is in the browser once the manager journals its start.
      await new Promise<void>((resolve) => stack.backend.manager.events.once("action-start", () => resolve()));
      process.kill(browser.pid, "SIGKILL");
      s.injected();
      const outcome = await pending;
      s.check("the action ends with an error, not an answer", outcome !== "answered", outcome);
      s.equal("the session ends, reason browserGone", await closed, "browserGone");
      const after = await client.execute(id, { op: "evaluate", expression: "document.title" }).then(
        () => "answered",
        (error: unknown) => message(error),
      );
      s.check("the session is gone: not_found", /^not_found/.test(after), after);
      s.check("the killed browser is not running", !stillRunning(browser), browser);
      await stillServes(stack, s);
    }
  });

  await scenario("page hangs its main thread", "while (true) {} in the page, then actions on it", { ops: ["navigate", "evaluate"] }, async (s) => {
    const { id } = await client.open();
    await client.execute(id, { op: "navigate", url: stack.pages.url("/plain") });
    s.injected();
    const hung = await client.execute(id, { op: "evaluate", expression: "(() => { while (true) {} })()", timeoutMs: 500 }).then(
      () => "answered",
      (error: unknown) => message(error),
    );
    s.check("the hung evaluate is outcome unknown", /^outcome_unknown/.test(hung), hung);
    await stillServes(stack, s);
    const closing = await client.close(id).then(
      () => "closed",
      (error: unknown) => message(error),
    );
    s.equal("the hung session still closes", closing, "closed");
  });

  await scenario("a page opens 50 popups", "one click, 50 window.open calls", { ops: ["navigate", "click", "pages", "diagnostics"] }, async (s) => {
    const { id } = await client.open();
    await client.execute(id, { op: "navigate", url: stack.pages.url("/popups") });
    s.injected(50);
    const clicked = await client.execute(id, { op: "click", selector: "#open", timeoutMs: 20_000 }).then(
      () => "ok",
      (error: unknown) => message(error),
    );
    s.check("the click answers: ok, or outcome unknown with where the page is", clicked === "ok" || /^outcome_unknown: .*selected page is now at/.test(clicked), clicked.slice(0, 160));
    const { pages } = await client.execute(id, { op: "pages" });
    s.check(`pages held to the limit (${limits.pagesPerSession})`, pages.length <= limits.pagesPerSession && pages.length > 1, pages.length);
    const { events } = await client.execute(id, { op: "diagnostics" });
    s.check("popups past the limit recorded as closed", events.some((event) => event.kind === "popup-closed"), events.map((event) => event.kind));
    const back = await client.execute(id, { op: "navigate", url: stack.pages.url("/plain") });
    s.equal("the session recovers", back.title, "Plain");
    await client.close(id);
    await stillServes(stack, s);
  });

  await scenario("a dialog loop", "alert() again each time one is dismissed", { ops: ["navigate", "evaluate", "diagnostics"] }, async (s) => {
    const { id } = await client.open();
    const opened = await client.execute(id, { op: "navigate", url: stack.pages.url("/dialogs") }).then(
      () => "navigated",
      (error: unknown) => message(error),
    );
    s.injected();
    s.check("the navigation answers", opened === "navigated" || /^outcome_unknown|^timeout/.test(opened), opened);
    const shown = await client.execute(id, { op: "evaluate", expression: "shown", timeoutMs: 5000 }).then(
      (result) => result.value,
      (error: unknown) => message(error),
    );
    s.check("a read between the dialogs answers: dialogs kept coming and were dismissed", typeof shown === "number" && shown > 1, shown);
    const { events, dropped } = await client.execute(id, { op: "diagnostics" });
    s.check(`diagnostics ring bounded (${limits.diagnostics.ring})`, events.length <= limits.diagnostics.ring, { events: events.length, dropped });
    // Known limit: a page that re-opens a dialog at once can starve a navigation away from it; it must still answer in time, then close.
    const away = await client.execute(id, { op: "navigate", url: stack.pages.url("/plain"), timeoutMs: 5000 }).then(
      (result) => result.title,
      (error: unknown) => message(error),
    );
    s.check("navigating away answers within its limit (navigated, or a clear timeout/unknown)", away === "Plain" || /^(outcome_unknown|timeout|action_failed)/.test(away), away.slice(0, 160));
    const closing = await client.close(id).then(
      () => "closed",
      (error: unknown) => message(error),
    );
    s.equal("the session closes", closing, "closed");
    await stillServes(stack, s);
  });

  await scenario("a 50 MB page", "a 51 MB HTML document, then reads of it", { ops: ["navigate", "text", "content"] }, async (s) => {
    const { toolset, tool } = stack.toolset(1, 60_000);
    const known = new Set((await client.list()).map((entry) => entry.id));
    await tool("open").execute({});
    const info = (await client.list()).find((entry) => !known.has(entry.id));
    s.injected();
    // Chromium may take longer than any limit to lay the page out on a loaded machine: every call must answer within its own.
    const loaded = await client.execute(info!.id, { op: "navigate", url: stack.pages.url("/big"), waitUntil: "commit", timeoutMs: 15_000 }).then(
      (result) => result.title,
      (error: unknown) => message(error),
    );
    s.check("the navigation answers within its limit", loaded !== undefined && (/^Big$|^$/.test(loaded) || /^(outcome_unknown|timeout)/.test(loaded)), loaded.slice(0, 160));
    const observed = await tool("observe").execute({ mode: "text" });
    const bytes = new TextEncoder().encode(observed.text).byteLength;
    s.check("the tool's reply is bounded (text truncated, or a clear failure)", bytes <= 64 * 1024 && (/truncated/i.test(observed.text) || /^outcome: failed — .*(timeout|busy)/.test(observed.text)), { bytes, text: observed.text.slice(0, 120) });
    const content = await client.execute(info!.id, { op: "content" }).then(
      (result) => `${new TextEncoder().encode(JSON.stringify(result)).byteLength} bytes`,
      (error: unknown) => message(error),
    );
    const size = /^(\d+) bytes$/.exec(content)?.[1];
    s.check("content is bounded or refused with a clear error", size === undefined ? /^(payload_too_large|timeout|outcome_unknown)/.test(content) : Number(size) <= limits.contentBytes + 64 * 1024, content.slice(0, 160));
    s.equal("close leaves nothing", (await toolset.close()).unresolved, []);
    await stillServes(stack, s);
  });

  await scenario("an endless download", `a download that never ends (limit ${browserDownloadMaxBytes} B)`, { ops: ["navigate", "evaluate", "downloads", "waitFor"] }, async (s) => {
    const { id } = await client.open();
    await client.execute(id, { op: "navigate", url: stack.pages.url("/plain") });
    s.injected();
    await client.execute(id, {
      op: "evaluate",
      expression: `(() => { const link = Object.assign(document.createElement("a"), { href: "/endless", download: "" }); document.body.append(link); link.click(); return true; })()`,
    });
    // Read the downloads until it settles: each read is a round trip, bounded in number.
    let state: string | undefined;
    let bytes = 0;
    for (let read = 0; read < 600 && (state === undefined || state === "in_progress"); read++) {
      const [download] = (await client.execute(id, { op: "downloads" })).downloads;
      state = download?.state;
      bytes = download?.bytes ?? 0;
      if (state === undefined || state === "in_progress") await client.execute(id, { op: "waitFor", state: "visible", selector: "p", timeoutMs: 100 }).catch(() => undefined);
    }
    s.equal("the download is stopped as too_large", state, "too_large");
    s.check("it stopped near the limit", bytes > browserDownloadMaxBytes && bytes < browserDownloadMaxBytes * 64, bytes);
    const after = await client.execute(id, { op: "navigate", url: stack.pages.url("/plain") });
    s.equal("the session still works", after.title, "Plain");
    await client.close(id);
    await stillServes(stack, s);
  });

  await scenario("CDP connection cut mid-action", "the relay in front of the session's DevTools port closes both sockets while an evaluate waits", { ops: ["navigate", "evaluate"], unsupported: noCdpUrl }, (s) =>
    cdpConnectionCut(stack, s, (relay) => relay.close()),
  );

  await scenario("CDP connection silently dropped mid-action", "the relay stops forwarding (no FIN, no reset) while an evaluate waits", { ops: ["navigate", "evaluate"], unsupported: noCdpUrl }, (s) =>
    cdpConnectionCut(stack, s, (relay) => relay.drop()),
  );
}
