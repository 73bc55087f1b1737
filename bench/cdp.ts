/**
 * CDP messages per action (issue 11 "Benchmarks"): raw playwright-core
 * against the engine (`PlaywrightBrowserAdapter`, default options), each
 * driving its own headless Chromium through a WebSocket relay
 * (test/helpers/cdp-relay.ts) that sees every CDP frame.
 *
 * Setup. Each side gets a headless Chromium started with
 * `--remote-debugging-port=0`, `--no-sandbox` (as Playwright launches it by
 * default) and the closed-network flags (`closedNetworkArgs`), by the tests'
 * test/helpers/cdp-chromium.ts; a relay in front of it; and
 * `chromium.connectOverCDP(relay)`. Raw drives the default context's page; the engine gets the same connection through `withPlaywright`, the
 * path hosted providers take (the local provider launches over a pipe, which
 * a WebSocket relay cannot see; the commands are the same code either way).
 * The form page is served on 127.0.0.1; nothing reaches the internet.
 *
 * Actions, each round in this order, on both sides:
 * navigate (`page.goto` / `navigate`, waitUntil load), observe
 * (`page.ariaSnapshot({ mode: "ai" })` / `accessibility`), text
 * (`page.innerText("body")` / `text`), fill, click and press (`locator.*` /
 * the command with a selector).
 *
 * Counting (relay adds no delay). An action's frames are those from its
 * start until the relay has been quiet for 100 ms with no command awaiting
 * its reply, so work an action leaves running after it answers is counted
 * with it ("after" says how many frames came after the answer). Commands go
 * client → browser; events come browser → client; replies are not counted
 * separately (one per command). Frames are logged as the client sees them:
 * a command when sent, a reply or event when handed over.
 *
 * Serial round trips: the depth of the command chain. A command gets depth
 * 1 + the deepest reply the client had already received when it sent it; the
 * action's figure is the largest depth. Commands sent together (before any of
 * their replies) share a depth; a command sent after a reply is assumed to
 * wait on it, so this is an upper bound on true dependency. With a fixed added
 * round trip, wall time grows by about this many round trips (plus one per
 * wait on an event, e.g. the load event of a navigation), which the second
 * phase shows.
 *
 * Delay phase: the same actions with 25 ms added each way in the relay (50 ms
 * round trip, order kept), both sides interleaved with alternating order;
 * prints median wall time per action, the engine/raw ratio, and the median
 * serial round trips under that delay.
 *
 * Last, per action, the CDP methods the engine sends more often than raw
 * (median count per action, and the code `Runtime.*` calls run).
 *
 * Run: `npx tsx bench/cdp.ts [rounds] [delayRounds]` (`npm run bench:cdp`;
 * default 20 counted rounds, 10 with delay). Environment: `CHROMIUM_PATH`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Page } from "playwright-core";
import { PlaywrightBrowserAdapter, withPlaywright } from "../src/playwright.js";
import { startCdpChromium, type CdpChromium } from "../test/helpers/cdp-chromium.js";
import { serialRoundTrips, startRelay, type Relay } from "../test/helpers/cdp-relay.js";
import { formCommand, rawFormAction } from "./form-actions.js";
import { fmt, median, positiveInteger, relayProvider, table } from "./relay-sides.js";

const rounds = positiveInteger(process.argv[2], 20, "rounds");
const delayRounds = positiveInteger(process.argv[3], 10, "delayRounds");
const quietMs = 100;
const oneWayDelayMs = 25;
const ops = ["navigate", "observe", "text", "fill", "click", "press"] as const;
type Op = (typeof ops)[number];

const formPage = `<!doctype html><title>Bench form</title>
<form onsubmit="event.preventDefault(); document.querySelector('#out').textContent = 'sent ' + (++window.sent)">
  <label>Name <input id="name"></label>
  <label>Email <input id="email" type="email" value="someone@example.test"></label>
  <label>Password <input id="password" type="password" value="hunter2"></label>
  <label><input type="checkbox" id="terms"> I agree</label>
  <button type="button" id="inc" onclick="document.querySelector('#count').textContent = String(++window.clicks)">Add</button>
  <button type="submit">Send</button>
  <p id="count">0</p><p id="out"></p>
</form><script>window.clicks = 0; window.sent = 0;</script>`;

/** One side: its relay and how it runs each action. */
interface Side {
  name: string;
  relay: Relay;
  run(op: Op, round: number): Promise<void>;
  close(): Promise<void>;
}

async function rawSide(relay: Relay, url: string): Promise<Side> {
  const browser: Browser = await chromium.connectOverCDP(relay.url);
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const page: Page = context.pages()[0] ?? (await context.newPage());
  await page.goto(url);
  return {
    name: "raw",
    relay,
    async run(op, round) {
      await rawFormAction(page, op, round, url);
    },
    close: () => browser.close(),
  };
}

const commandOf = formCommand;

async function engineSide(relay: Relay, url: string): Promise<Side> {
  const adapter = new PlaywrightBrowserAdapter({ provider: withPlaywright(relayProvider(relay.url)) });
  const handle = await adapter.open();
  await adapter.execute(handle, { op: "navigate", url });
  return {
    name: "engine",
    relay,
    run: async (op, round) => void (await adapter.execute(handle, commandOf(op, round, url))),
    close: () => adapter.shutdown(),
  };
}

/** What one action did on the wire. */
interface Sample {
  ms: number;
  commands: number;
  events: number;
  /** Frames after the action answered (its trailing work). */
  after: number;
  serial: number;
  methods: Map<string, number>;
  details: Map<string, number>;
}

async function measure(side: Side, op: Op, round: number): Promise<Sample> {
  await side.relay.quiet(quietMs);
  const from = side.relay.frames.length;
  const started = performance.now();
  await side.run(op, round);
  const ms = performance.now() - started;
  const answered = side.relay.frames.length;
  await side.relay.quiet(quietMs);
  const frames = side.relay.frames.slice(from);
  const methods = new Map<string, number>();
  const details = new Map<string, number>();
  for (const frame of frames) {
    if (frame.kind !== "command") continue;
    methods.set(frame.method!, (methods.get(frame.method!) ?? 0) + 1);
    if (frame.detail) details.set(`${frame.method}: ${frame.detail}`, (details.get(`${frame.method}: ${frame.detail}`) ?? 0) + 1);
  }
  return {
    ms,
    commands: frames.filter((frame) => frame.kind === "command").length,
    events: frames.filter((frame) => frame.kind === "event").length,
    after: side.relay.frames.length - answered,
    serial: serialRoundTrips(frames),
    methods,
    details,
  };
}

/** Runs every action `count` times on both sides, alternating which side goes first. */
async function collect(sides: readonly Side[], count: number): Promise<Map<string, Map<Op, Sample[]>>> {
  const samples = new Map(sides.map((side) => [side.name, new Map(ops.map((op) => [op, [] as Sample[]]))]));
  for (let round = 0; round < count; round++) {
    const order = round % 2 ? [...sides].reverse() : sides;
    for (const op of ops) for (const side of order) samples.get(side.name)!.get(op)!.push(await measure(side, op, round));
  }
  return samples;
}

/** Median count per key over samples (a key missing from a sample counts 0). */
function medianCounts(list: readonly Sample[], pick: (sample: Sample) => Map<string, number>): Map<string, number> {
  const keys = new Set(list.flatMap((sample) => [...pick(sample).keys()]));
  return new Map([...keys].map((key) => [key, median(list.map((sample) => pick(sample).get(key) ?? 0))]));
}

function printCounts(samples: Map<string, Map<Op, Sample[]>>): void {
  console.log(`\nCDP frames per action, no added delay (median of ${rounds} rounds; "after" = frames after the action answered)`);
  const rows = [["action", "raw cmds", "raw events", "raw serial", "raw after", "engine cmds", "engine events", "engine serial", "engine after", "cmds ×raw"]];
  for (const op of ops) {
    const raw = samples.get("raw")!.get(op)!;
    const engine = samples.get("engine")!.get(op)!;
    const m = (list: Sample[], pick: (sample: Sample) => number) => median(list.map(pick));
    rows.push([
      op,
      fmt(m(raw, (s) => s.commands)),
      fmt(m(raw, (s) => s.events)),
      fmt(m(raw, (s) => s.serial)),
      fmt(m(raw, (s) => s.after)),
      fmt(m(engine, (s) => s.commands)),
      fmt(m(engine, (s) => s.events)),
      fmt(m(engine, (s) => s.serial)),
      fmt(m(engine, (s) => s.after)),
      `${(m(engine, (s) => s.commands) / m(raw, (s) => s.commands)).toFixed(2)}×`,
    ]);
  }
  table(rows);
}

function printDelayed(samples: Map<string, Map<Op, Sample[]>>): void {
  console.log(`\nWall time per action with ${2 * oneWayDelayMs} ms added round trip (${oneWayDelayMs} ms each way), median of ${delayRounds} rounds`);
  const rows = [["action", "raw ms", "raw serial", "engine ms", "engine serial", "engine ×raw", "engine − raw ms"]];
  const all = { raw: [] as number[], engine: [] as number[] };
  for (const op of ops) {
    const raw = samples.get("raw")!.get(op)!;
    const engine = samples.get("engine")!.get(op)!;
    const rawMs = median(raw.map((s) => s.ms));
    const engineMs = median(engine.map((s) => s.ms));
    all.raw.push(...raw.map((s) => s.ms));
    all.engine.push(...engine.map((s) => s.ms));
    rows.push([
      op,
      rawMs.toFixed(1),
      fmt(median(raw.map((s) => s.serial))),
      engineMs.toFixed(1),
      fmt(median(engine.map((s) => s.serial))),
      `${(engineMs / rawMs).toFixed(2)}×`,
      (engineMs - rawMs).toFixed(1),
    ]);
  }
  const rawAll = ops.reduce((total, op) => total + median(samples.get("raw")!.get(op)!.map((s) => s.ms)), 0);
  const engineAll = ops.reduce((total, op) => total + median(samples.get("engine")!.get(op)!.map((s) => s.ms)), 0);
  rows.push(["sum of medians", rawAll.toFixed(1), "", engineAll.toFixed(1), "", `${(engineAll / rawAll).toFixed(2)}×`, (engineAll - rawAll).toFixed(1)]);
  table(rows);
}

function printExtraMethods(samples: Map<string, Map<Op, Sample[]>>): void {
  console.log(`\nCDP commands the engine sends beyond raw, per action (median count per action, engine − raw)`);
  const extras = (raw: Sample[], engine: Sample[], pick: (sample: Sample) => Map<string, number>) => {
    const rawCounts = medianCounts(raw, pick);
    return [...medianCounts(engine, pick)]
      .map(([key, count]) => [key, count - (rawCounts.get(key) ?? 0)] as const)
      .filter(([, extra]) => extra > 0)
      .sort((a, b) => b[1] - a[1]);
  };
  for (const op of ops) {
    const raw = samples.get("raw")!.get(op)!;
    const engine = samples.get("engine")!.get(op)!;
    const methods = extras(raw, engine, (sample) => sample.methods);
    console.log(`${op}: ${methods.length ? methods.map(([method, extra]) => `+${fmt(extra)} ${method}`).join(", ") : "none"}`);
    for (const [code, extra] of extras(raw, engine, (sample) => sample.details)) console.log(`    +${fmt(extra)} runs ${code}`);
  }
  console.log(`("runs": code of Runtime.evaluate/callFunctionOn calls the engine makes that raw does not make as often, cut to 90 characters)`);
}

async function main(): Promise<void> {
  const server = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end(formPage));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const browsers: CdpChromium[] = [];
  const relays: Relay[] = [];
  const sides: Side[] = [];
  try {
    for (const make of [rawSide, engineSide]) {
      const browser = await startCdpChromium();
      browsers.push(browser);
      const relay = await startRelay(browser.wsUrl);
      relays.push(relay);
      sides.push(await make(relay, url));
    }
    const { Browser: version } = (await (await fetch(`http://127.0.0.1:${browsers[0]!.port}/json/version`)).json()) as { Browser: string };
    console.log(`CDP per action: raw playwright-core vs engine (default options), ${version}, ${new Date().toISOString()}`);
    // Warm-up: one round, not counted.
    await collect(sides, 1);
    const counted = await collect(sides, rounds);
    printCounts(counted);
    for (const relay of relays) relay.delayMs = oneWayDelayMs;
    const delayed = await collect(sides, delayRounds);
    printDelayed(delayed);
    printExtraMethods(counted);
  } finally {
    for (const side of sides) await side.close().catch(() => undefined);
    for (const relay of relays) await relay.close();
    for (const browser of browsers) await browser.close();
    server.close();
  }
}

await main();
