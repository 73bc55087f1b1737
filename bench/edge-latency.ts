/**
 * Edge-direct latency (issue 17): wall time per action at 50 ms of added
 * round trip, the CDP engine (`CdpBrowserAdapter`, station-browser-use/cdp)
 * against the Playwright engine (`PlaywrightBrowserAdapter` through
 * `withPlaywright`, the path hosted providers take), side by side in one run.
 *
 * Setup. Each engine gets a headless Chromium of its own
 * (test/helpers/cdp-chromium.ts, `--remote-debugging-port=0` and the
 * closed-network flags) and the counting relay (test/helpers/cdp-relay.ts)
 * in front of it, holding every frame 25 ms each way (order kept): the
 * session's `cdpUrl` is the relay's. Both act on the same local form
 * (bench/form-actions.ts), served on 127.0.0.1, with the same commands:
 * navigate (waitUntil load), observe (`accessibility`, agent form; only
 * when the CDP engine lists it in `capabilities().ops`), text, fill, click,
 * press, screenshot. Rounds alternate which engine goes first; one warm-up
 * round is not counted.
 *
 * Per action it prints the median wall time of each engine, the median serial
 * CDP round trips (the depth of the command chain, `serialRoundTrips`;
 * counted from the action's start until the relay is quiet for 100 ms with
 * no command awaiting its reply, so trailing work counts), the CDP/Playwright
 * ratio and the difference. A command the CDP engine refuses
 * (`NotImplementedError`) is shown as such, never timed.
 *
 * Run: `npx tsx bench/edge-latency.ts [rounds]` (`npm run bench:edge`;
 * default 10 rounds). Environment: `CHROMIUM_PATH`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { CdpBrowserAdapter } from "../src/cdp.js";
import { isNotImplementedError } from "../src/errors.js";
import { PlaywrightBrowserAdapter, nodeWebSocket, withPlaywright } from "../src/playwright.js";
import type { BrowserAdapter, BrowserHandle } from "../src/protocol/adapter.js";
import type { BrowserCommandInput } from "../src/protocol/commands.js";
import { startCdpChromium, type CdpChromium } from "../test/helpers/cdp-chromium.js";
import { serialRoundTrips, startRelay, type Relay } from "../test/helpers/cdp-relay.js";
import { formCommand, formPage, type FormAction } from "./form-actions.js";
import { fmt, median, positiveInteger, relayProvider, table } from "./relay-sides.js";

const rounds = positiveInteger(process.argv[2], 10, "rounds");
const oneWayDelayMs = 25;
const quietMs = 100;
type Action = FormAction | "screenshot";
const actions: readonly Action[] = ["navigate", "observe", "text", "fill", "click", "press", "screenshot"];

const commandOf = (action: Action, round: number, url: string): BrowserCommandInput => (action === "screenshot" ? { op: "screenshot" } : formCommand(action, round, url));

interface Side {
  name: string;
  relay: Relay;
  adapter: BrowserAdapter & { shutdown(): Promise<void> };
  handle: BrowserHandle;
  /** Actions this engine refuses (`NotImplementedError`). */
  refused: Set<Action>;
}

interface Sample {
  ms: number;
  serial: number;
}

async function openSide(name: string, relay: Relay, adapter: Side["adapter"], url: string): Promise<Side> {
  const handle = await adapter.open();
  await adapter.execute(handle, { op: "navigate", url });
  const ops = adapter.capabilities?.().ops;
  const refused = new Set(actions.filter((action) => ops !== undefined && !ops.includes(commandOf(action, 0, url).op)));
  return { name, relay, adapter, handle, refused };
}

async function measure(side: Side, action: Action, round: number, url: string): Promise<Sample | undefined> {
  if (side.refused.has(action)) return undefined;
  await side.relay.quiet(quietMs);
  const from = side.relay.frames.length;
  const started = performance.now();
  try {
    await side.adapter.execute(side.handle, commandOf(action, round, url));
  } catch (error) {
    if (!isNotImplementedError(error)) throw error;
    side.refused.add(action);
    return undefined;
  }
  const ms = performance.now() - started;
  await side.relay.quiet(quietMs);
  return { ms, serial: serialRoundTrips(side.relay.frames.slice(from)) };
}

/** Runs every action `count` times on both sides, alternating which side goes first. */
async function collect(sides: readonly Side[], count: number, url: string): Promise<Map<string, Map<Action, Sample[]>>> {
  const samples = new Map(sides.map((side) => [side.name, new Map(actions.map((action) => [action, [] as Sample[]]))]));
  for (let round = 0; round < count; round++) {
    const order = round % 2 ? [...sides].reverse() : sides;
    for (const action of actions) {
      for (const side of order) {
        const sample = await measure(side, action, round, url);
        if (sample) samples.get(side.name)!.get(action)!.push(sample);
      }
    }
  }
  return samples;
}

function print(samples: Map<string, Map<Action, Sample[]>>, sides: readonly Side[]): void {
  const [cdp, playwright] = sides as [Side, Side];
  console.log(`\nWall time per action with ${2 * oneWayDelayMs} ms added round trip (${oneWayDelayMs} ms each way), median of ${rounds} round${rounds === 1 ? "" : "s"}`);
  const rows = [["action", "CDP ms", "CDP serial", "Playwright ms", "Playwright serial", "CDP ×Playwright", "CDP − Playwright ms"]];
  let cdpSum = 0;
  let playwrightSum = 0;
  for (const action of actions) {
    const ours = samples.get(cdp.name)!.get(action)!;
    const theirs = samples.get(playwright.name)!.get(action)!;
    const theirMs = median(theirs.map((sample) => sample.ms));
    if (cdp.refused.has(action) || ours.length === 0) {
      rows.push([action, "not implemented", "", theirMs.toFixed(1), fmt(median(theirs.map((sample) => sample.serial))), "", ""]);
      continue;
    }
    const ourMs = median(ours.map((sample) => sample.ms));
    cdpSum += ourMs;
    playwrightSum += theirMs;
    rows.push([
      action,
      ourMs.toFixed(1),
      fmt(median(ours.map((sample) => sample.serial))),
      theirMs.toFixed(1),
      fmt(median(theirs.map((sample) => sample.serial))),
      `${(ourMs / theirMs).toFixed(2)}×`,
      (ourMs - theirMs).toFixed(1),
    ]);
  }
  rows.push(["sum (both ran)", cdpSum.toFixed(1), "", playwrightSum.toFixed(1), "", `${(cdpSum / playwrightSum).toFixed(2)}×`, (cdpSum - playwrightSum).toFixed(1)]);
  table(rows);
  console.log(`(serial: CDP round trips one after another, counted on the relay; at ${2 * oneWayDelayMs} ms each they set the floor of the wall time)`);
}

async function main(): Promise<void> {
  const server = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end(formPage));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const browsers: CdpChromium[] = [];
  const relays: Relay[] = [];
  const sides: Side[] = [];
  try {
    const engines = [
      { name: "cdp", make: (cdpUrl: string) => new CdpBrowserAdapter({ provider: relayProvider(cdpUrl), webSocket: nodeWebSocket }) },
      { name: "playwright", make: (cdpUrl: string) => new PlaywrightBrowserAdapter({ provider: withPlaywright(relayProvider(cdpUrl)) }) },
    ];
    for (const engine of engines) {
      const browser = await startCdpChromium();
      browsers.push(browser);
      const relay = await startRelay(browser.wsUrl);
      relays.push(relay);
      sides.push(await openSide(engine.name, relay, engine.make(relay.url), url));
    }
    const { Browser: version } = (await (await fetch(`http://127.0.0.1:${browsers[0]!.port}/json/version`)).json()) as { Browser: string };
    console.log(`Edge-direct latency: the CDP engine vs the Playwright engine, each through the relay, ${version}, ${new Date().toISOString()}`);
    for (const relay of relays) relay.delayMs = oneWayDelayMs;
    // Warm-up: one round, not counted.
    await collect(sides, 1, url);
    print(await collect(sides, rounds, url), sides);
  } finally {
    for (const side of sides) await side.adapter.shutdown().catch(() => undefined);
    for (const relay of relays) await relay.close();
    for (const browser of browsers) await browser.close();
    server.close();
  }
}

await main();
