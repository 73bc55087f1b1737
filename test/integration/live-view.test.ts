/**
 * The live view, end to end: a real worker on real HTTP over a real Chromium,
 * and its live view page driven in a second real Chromium. Frames arrive by
 * the screencast (or by polling where the engine has none), "Take control"
 * takes the lease, a click on the (scaled) image lands on the right point of
 * the page, automation is refused meanwhile, and releasing hands it back.
 */
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserUseClient } from "../../src/client/index.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { isControlLeaseError, isNotFoundError } from "../../src/errors.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import type { BrowserAdapter } from "../../src/protocol/adapter.js";
import { closedNetworkArgs, findChromium } from "../../src/providers/local/index.js";
import { createBrowserWorker } from "../../src/worker/index.js";
import { failure } from "../helpers/failure.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { startWorkerServer, type WorkerServer } from "../helpers/worker-server.js";

const token = "op-live-".padEnd(40, "x");
const acmeKey = "tenant-acme-".padEnd(40, "k");
const globexKey = "tenant-globex-".padEnd(40, "k");

/** A clock the view tokens read; only a test moves it. */
const clock = { offsetMs: 0, now: () => Date.now() + clock.offsetMs };

interface Stack {
  adapter: BrowserAdapter;
  manager: BrowserSessionManager;
  worker: WorkerServer;
  errors: unknown[];
}

async function startStack(adapter: BrowserAdapter): Promise<Stack> {
  const manager = new BrowserSessionManager(adapter, 4);
  const errors: unknown[] = [];
  const worker = await startWorkerServer(
    createBrowserWorker({ manager, token, stationId: "local", tenants: { [acmeKey]: "acme", [globexKey]: "globex" }, clock, onError: (error) => errors.push(error) }),
  );
  return { adapter, manager, worker, errors };
}

const clientOf = (stack: Stack, apiKey: string, operator = false) => new BrowserUseClient({ baseUrl: stack.worker.origin, stationId: "local", apiKey, operator });

/** The Playwright adapter, counting the screencast watches that are running; `stopped()` resolves at the next stop. */
function countingScreencasts(inner: PlaywrightBrowserAdapter) {
  let running = 0;
  let wake: () => void = () => undefined;
  const adapter: BrowserAdapter = {
    ...withoutScreencast(inner),
    async screencast(handle, listener) {
      const watch = await inner.screencast(handle, listener);
      running++;
      let stopped = false;
      return {
        async stop() {
          await watch.stop();
          if (!stopped) (stopped = true), running--, wake();
        },
      };
    },
  };
  return { adapter, running: () => running, stopped: () => new Promise<void>((resolve) => (wake = resolve)) };
}

/** The Playwright adapter without its screencast: the live view must fall back to polling frames. */
function withoutScreencast(inner: PlaywrightBrowserAdapter): BrowserAdapter {
  return {
    open: (options, signal, context) => inner.open(options, signal, context),
    execute: (handle, command, signal) => inner.execute(handle, command, signal),
    close: (handle) => inner.close(handle),
    capabilities: () => inner.capabilities(),
  };
}

let fixtures: FixtureServer;
let engine: PlaywrightBrowserAdapter;
let stack: Stack;
let casts: ReturnType<typeof countingScreencasts>;
let viewerBrowser: Browser;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  engine = new PlaywrightBrowserAdapter();
  casts = countingScreencasts(engine);
  stack = await startStack(casts.adapter);
  viewerBrowser = await chromium.launch({ executablePath: findChromium(), args: [...closedNetworkArgs] });
});
afterAll(async () => {
  await viewerBrowser?.close();
  await stack?.worker.close();
  await stack?.manager.close();
  await engine?.shutdown();
  await fixtures?.close();
});

/** A viewer 800 px wide: the 1280 px frame is shown scaled by 0.625. */
async function openViewer(url: string): Promise<Page> {
  const viewer = await viewerBrowser.newPage({ viewport: { width: 800, height: 700 } });
  await viewer.goto(url);
  return viewer;
}

/** Resolves once the viewer's image shows a frame after `seen` frames. */
async function nextFrame(viewer: Page, seen: number): Promise<number> {
  const handle = await viewer.waitForFunction((count) => {
    const frames = Number(document.getElementById("frame")!.dataset.frames ?? "0");
    return frames > count ? frames : 0;
  }, seen);
  return (await handle.jsonValue()) as number;
}

/** Waits until the shown frame has the colour `expected` at a fraction of its width and height (away from the buttons' letters). */
async function waitForColour(viewer: Page, at: { x: number; y: number }, expected: [number, number, number]): Promise<void> {
  await viewer.waitForFunction(
    ({ at, expected }) => {
      const image = document.getElementById("frame") as HTMLImageElement;
      if (!image.naturalWidth) return false;
      const canvas = document.createElement("canvas");
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext("2d")!;
      context.drawImage(image, 0, 0);
      const [r, g, b] = context.getImageData(Math.floor(canvas.width * at.x), Math.floor(canvas.height * at.y), 1, 1).data;
      return [r!, g!, b!].every((value, index) => Math.abs(value - expected[index]!) <= 24);
    },
    { at, expected },
  );
}

/** Clicks the viewer's image at a fraction of its shown size. */
async function clickImage(viewer: Page, at: { x: number; y: number }, button: "left" | "right" = "left"): Promise<void> {
  const box = (await viewer.locator("#frame").boundingBox())!;
  expect(box.width).toBeCloseTo(800, 0);
  await viewer.mouse.click(box.x + box.width * at.x, box.y + box.height * at.y, { button });
}

const inputs = (viewer: Page, count: number) => viewer.waitForFunction((expected) => Number(document.body.dataset.inputs ?? "0") >= expected, count);

describe("live view page (screencast)", () => {
  it("shows frames that follow the page; Take control, a click on the scaled image lands on the page, automation is refused, release hands back", async () => {
    const acme = clientOf(stack, acmeKey);
    const { id } = await acme.open();
    await acme.execute(id, { op: "navigate", url: fixtures.url("/live-target.html") });
    const live = await acme.createLiveView(id, { ttlMs: 60_000 });
    expect(live.url.startsWith(`${stack.worker.origin}/live/${encodeURIComponent(id)}?token=`)).toBe(true);
    expect(Date.parse(live.expiresAt)).toBeGreaterThan(Date.now());
    expect(live.providerUrl).toBeUndefined();

    const viewer = await openViewer(live.url);
    const first = await nextFrame(viewer, 0);
    expect(await viewer.evaluate(() => document.body.dataset.mode)).toBe("stream");
    await waitForColour(viewer, { x: 0.1, y: 0.1 }, [200, 0, 0]);
    // A change on the page comes as a new frame.
    await acme.execute(id, { op: "evaluate", expression: "document.getElementById('a').style.background = 'rgb(255, 255, 255)'" });
    await nextFrame(viewer, first);
    await waitForColour(viewer, { x: 0.1, y: 0.1 }, [255, 255, 255]);

    // Take control: the lease is the human's, automation is refused.
    const changes: string[] = [];
    stack.manager.events.on("control-change", ({ reason }) => changes.push(reason));
    await viewer.getByRole("button", { name: "Take control" }).click();
    await viewer.waitForSelector('body[data-control="human"]');
    expect(await acme.control(id)).toMatchObject({ mode: "human" });
    const refused = await failure(acme.execute(id, { op: "click", selector: "#a" }));
    expect(isControlLeaseError(refused), String(refused)).toBe(true);

    // The click on the image (800 px wide, the page 1280) lands on D's centre: (960, 600) in page CSS pixels.
    await clickImage(viewer, { x: 0.75, y: 0.75 });
    await inputs(viewer, 1);
    const [clicked] = (await acme.execute(id, { op: "pages" })).pages;
    const match = /^clicked d at (\d+),(\d+)$/.exec(clicked!.title);
    expect(match, clicked!.title).not.toBeNull();
    expect(Math.abs(Number(match![1]) - 960)).toBeLessThanOrEqual(2);
    expect(Math.abs(Number(match![2]) - 600)).toBeLessThanOrEqual(2);

    // Keys go to the page too: focus the field by a click, then type.
    const field = await acme.execute(id, { op: "inspect" });
    const box = field.elements.find((element) => element.id === "field")?.box;
    expect(box, JSON.stringify(field.elements).slice(0, 400)).toBeDefined();
    await clickImage(viewer, { x: (box!.x + box!.width / 2) / 1280, y: (box!.y + box!.height / 2) / 800 });
    await viewer.keyboard.press("h");
    await viewer.keyboard.press("i");
    await inputs(viewer, 4);
    const typed = await acme.execute(id, { op: "inspect" });
    expect(typed.elements.find((element) => element.id === "field")?.value).toBe("hi");

    // A wheel on the image scrolls the page (a mouseMove to the point, then a scroll).
    const box2 = (await viewer.locator("#frame").boundingBox())!;
    await viewer.mouse.move(box2.x + box2.width / 2, box2.y + box2.height / 2);
    await viewer.mouse.wheel(0, 400);
    await inputs(viewer, 6);
    // The page notes its scroll position when it scrolls (waitFor is an observation: allowed under the lease).
    await acme.execute(id, { op: "waitFor", selector: "#scrolled[data-y]" });
    const { text } = await acme.execute(id, { op: "text" });
    expect(text).toMatch(/scrolled to [1-9]\d*/);

    // A page the human's click opens (a popup) becomes the selected page, and the view follows it.
    const link = typed.elements.find((element) => element.id === "popup")!.box;
    await clickImage(viewer, { x: (link.x + link.width / 2) / 1280, y: (link.y + link.height / 2) / 800 });
    await inputs(viewer, 7);
    const listed = await acme.execute(id, { op: "pages" });
    expect(listed.pages.find((each) => each.selected)?.title).toBe("Second page");
    // Where the target page is yellow (D), the second page is white.
    await waitForColour(viewer, { x: 0.9, y: 0.6 }, [255, 255, 255]);

    // Release hands back.
    await viewer.getByRole("button", { name: "Release control" }).click();
    await viewer.waitForSelector('body[data-control="automation"]');
    // The page stops sending input at once; the worker answers the release once it has read the page.
    await viewer.getByText("Control handed back").waitFor();
    expect(await acme.control(id)).toEqual({ mode: "automation" });
    const target = listed.pages.find((each) => !each.selected)!;
    await expect(acme.execute(id, { op: "selectPage", pageId: target.pageId })).resolves.toMatchObject({ ok: true });
    await expect(acme.execute(id, { op: "click", selector: "#a" })).resolves.toMatchObject({ ok: true });
    expect(changes).toEqual(["acquired", "released"]);

    // Leaving the page while holding control releases it (sendBeacon on pagehide).
    await viewer.getByRole("button", { name: "Take control" }).click();
    await viewer.waitForSelector('body[data-control="human"]');
    const released = new Promise<void>((resolve) => stack.manager.events.on("control-change", ({ reason }) => reason === "released" && resolve()));
    const left = casts.stopped();
    expect(casts.running()).toBe(1);
    await viewer.goto("about:blank");
    await released;
    expect(await acme.control(id)).toEqual({ mode: "automation" });
    // The viewer left: its screencast watch stopped.
    await left;
    expect(casts.running()).toBe(0);
    await viewer.close();
    await acme.close(id);
  });

  it("refuses a missing, forged, expired or other-session token with 401/403 and no frame", async () => {
    const acme = clientOf(stack, acmeKey);
    const [one, two] = [await acme.open(), await acme.open()];
    const link = new URL((await acme.createLiveView(one.id, { ttlMs: 10_000 })).url);
    const good = link.searchParams.get("token")!;
    const forged = good.slice(0, -2) + (good.endsWith("AA") ? "BB" : "AA");
    const route = (sessionId: string, sub: string, presented?: string) =>
      `/live/${encodeURIComponent(sessionId)}${sub}${presented === undefined ? "" : `?token=${encodeURIComponent(presented)}`}`;
    const answers: { status: number; text: string }[] = [];
    const get = async (path: string) => {
      const answer = await stack.worker.post(path, undefined, undefined, { method: "GET" });
      answers.push(answer);
      return answer;
    };
    for (const sub of ["", "/frame", "/stream"]) {
      expect((await get(route(one.id, sub))).status).toBe(401);
      expect((await get(route(one.id, sub, "v1.garbage"))).status).toBe(401);
      expect((await get(route(one.id, sub, forged))).status).toBe(401);
      expect((await get(route(two.id, sub, good))).status).toBe(403);
    }
    const control = await stack.worker.post(route(two.id, "/control", good), undefined, { action: "acquire" });
    expect(control.status).toBe(403);
    expect(await acme.control(two.id)).toEqual({ mode: "automation" });
    // The right token works…
    expect((await get(route(one.id, "/frame", good))).json?.data).toMatchObject({ mimeType: "image/png", width: 1280, height: 800, scale: 1 });
    // …until it expires.
    clock.offsetMs = 11_000;
    try {
      for (const sub of ["", "/frame", "/stream"]) expect((await get(route(one.id, sub, good))).status).toBe(401);
    } finally {
      clock.offsetMs = 0;
    }
    const refusals = answers.filter((answer) => answer.status !== 200);
    expect(refusals.length).toBe(15);
    for (const answer of refusals) {
      expect(answer.text).not.toContain("base64");
      expect(answer.text).not.toContain(good);
    }
    await acme.close(one.id);
    await acme.close(two.id);
  });

  it("issues a view link only for the caller's own sessions; the token stays out of results, errors and diagnostics", async () => {
    const acme = clientOf(stack, acmeKey);
    const globex = clientOf(stack, globexKey);
    const operator = clientOf(stack, token, true);
    const { id } = await acme.open();
    await acme.execute(id, { op: "navigate", url: fixtures.url("/live-target.html") });
    const refused = await failure(globex.createLiveView(id));
    expect(isNotFoundError(refused), String(refused)).toBe(true);
    const issued = await operator.createLiveView(id);
    const viewToken = new URL(issued.url).searchParams.get("token")!;
    expect(viewToken.length).toBeGreaterThan(40);

    // Use it (page, frame, control with a wrong lease token, a malformed body), then read everything back.
    const viewer = await openViewer(issued.url);
    await nextFrame(viewer, 0);
    await viewer.close();
    const wrongLease = await stack.worker.post(`/live/${encodeURIComponent(id)}/control?token=${encodeURIComponent(viewToken)}`, undefined, { action: "renew", controlToken: "nope" });
    expect(wrongLease.status).toBe(423);
    const malformed = await stack.worker.post(`/live/${encodeURIComponent(id)}/control?token=${encodeURIComponent(viewToken)}`, undefined, { action: "input", controlToken: viewToken, input: { op: "click" } });
    expect(malformed.status).toBe(400);
    const outputs = [
      wrongLease.text,
      malformed.text,
      JSON.stringify(await acme.list()),
      JSON.stringify(await acme.control(id)),
      JSON.stringify(await acme.execute(id, { op: "diagnostics" })),
      JSON.stringify(await acme.execute(id, { op: "pages" })),
      JSON.stringify(await stack.manager.audit()),
      JSON.stringify(stack.errors.map(String)),
    ];
    for (const output of outputs) expect(output).not.toContain(viewToken);
    await acme.close(id);
  });
});

describe("live view through the worker's fetch handler", () => {
  it("streams screencast frames as server-sent events from a standard Response, and refuses taking control while draining", async () => {
    const manager = new BrowserSessionManager(engine, 1);
    const worker = createBrowserWorker({ manager, token, stationId: "local" });
    const session = await manager.open();
    try {
      const issued = await worker.fetch(
        new Request("http://worker.test/api/v1/stations/local/execution/browser", {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ method: "liveView", id: session.id }),
        }),
      );
      const { data } = (await issued.json()) as { data: { path: string } };
      const [path, query] = data.path.split("?") as [string, string];
      const response = await worker.fetch(new Request(`http://worker.test${path}/stream?${query}`));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const reader = response.body!.getReader();
      let text = "";
      while (!text.includes("\n\n")) text += new TextDecoder().decode((await reader.read()).value);
      expect(text).toMatch(/^event: frame\ndata: \{"base64":"\/9j\//);
      await reader.cancel();
      // A draining worker still shows the page, but no one takes control any more.
      await worker.drain();
      const control = await worker.fetch(new Request(`http://worker.test${path}/control?${query}`, { method: "POST", body: JSON.stringify({ action: "acquire" }) }));
      expect(control.status).toBe(503);
      expect(((await control.json()) as { error: { code: string } }).error.code).toBe("draining");
      expect((await worker.fetch(new Request(`http://worker.test${path}?${query}`))).status).toBe(200);
    } finally {
      await manager.close();
    }
  });
});

describe("live view page (polling where no screencast is available)", () => {
  let polled: Stack;
  beforeAll(async () => {
    polled = await startStack(withoutScreencast(engine));
  });
  afterAll(async () => {
    await polled?.worker.close();
    await polled?.manager.close();
  });

  it("polls frames that follow the page, and maps a click on the scaled image", async () => {
    const acme = clientOf(polled, acmeKey);
    const { id } = await acme.open();
    await acme.execute(id, { op: "navigate", url: fixtures.url("/live-target.html") });
    const viewer = await openViewer((await acme.createLiveView(id)).url);
    const first = await nextFrame(viewer, 0);
    expect(await viewer.evaluate(() => document.body.dataset.mode)).toBe("poll");
    await acme.execute(id, { op: "evaluate", expression: "document.getElementById('b').style.background = 'rgb(255, 255, 255)'" });
    await nextFrame(viewer, first);
    await waitForColour(viewer, { x: 0.6, y: 0.1 }, [255, 255, 255]);

    await viewer.getByRole("button", { name: "Take control" }).click();
    await viewer.waitForSelector('body[data-control="human"]');
    await clickImage(viewer, { x: 0.25, y: 0.75 });
    await inputs(viewer, 1);
    const [clicked] = (await acme.execute(id, { op: "pages" })).pages;
    const match = /^clicked c at (\d+),(\d+)$/.exec(clicked!.title);
    expect(match, clicked!.title).not.toBeNull();
    expect(Math.abs(Number(match![1]) - 320)).toBeLessThanOrEqual(2);
    expect(Math.abs(Number(match![2]) - 600)).toBeLessThanOrEqual(2);
    await viewer.getByRole("button", { name: "Release control" }).click();
    await viewer.waitForSelector('body[data-control="automation"]');
    // The page stops sending input at once; the worker answers the release once it has read the page.
    await viewer.getByText("Control handed back").waitFor();
    expect(await acme.control(id)).toEqual({ mode: "automation" });
    await viewer.close();
    await acme.close(id);
  });
});
