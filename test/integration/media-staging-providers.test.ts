/**
 * Media staging through the hosted providers' file APIs: Steel's and
 * Browserbase's REST is mocked with msw at the wire format (multipart
 * `file`), and the CDP half is a real local Chromium, so the staged path the
 * provider answered is what `DOM.setFileInputFiles` hands the browser.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { createBrowserbaseProvider, createSteelProvider } from "../../src/playwright.js";
import { createBrowserbaseMock, baseURL as browserbaseBase } from "../helpers/browserbase-mock.js";
import { startCdpChromium, type CdpChromium } from "../helpers/cdp-chromium.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { fiftyMegabytes, generatedStream } from "../helpers/generated-stream.js";
import { createFakeSteel, steelBase } from "../helpers/steel-mock.js";
import { browserbaseUploadsStandIn, steelFilesStandIn, type ReceivedUpload } from "../helpers/upload-stand-ins.js";

const steelKey = "ste-media-key-7c1d0e93b2";
const browserbaseKey = "bb_media_key_51f9a2c0d7";

const server = setupServer();
let chrome: CdpChromium;
let fixtures: FixtureServer;
let vmRoot: string;
const cleanup: string[] = [];

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "bypass" });
  [chrome, fixtures] = await Promise.all([startCdpChromium(), startFixtureServer()]);
  vmRoot = await mkdtemp(join(tmpdir(), "station-steel-vm-"));
});
afterEach(() => server.resetHandlers());
afterAll(async () => {
  server.close();
  await Promise.all([chrome?.close(), fixtures?.close(), rm(vmRoot, { recursive: true, force: true }), ...cleanup.map((path) => rm(path, { force: true }))]);
});

const readText = async (adapter: PlaywrightBrowserAdapter, handle: Parameters<PlaywrightBrowserAdapter["execute"]>[0], selector: string) =>
  (await adapter.execute(handle, { op: "evaluate", expression: `document.querySelector(${JSON.stringify(selector)}).textContent` })).value;

describe("media staging through Steel's files API", () => {
  it("uploads the 50 MB stream as multipart `file` and sets the path Steel answered into the input", async () => {
    const steel = createFakeSteel({ apiKey: steelKey, websocketUrl: (session) => `${chrome.wsUrl}?sessionId=${session.id}` });
    const uploads: ReceivedUpload[] = [];
    server.use(steelFilesStandIn(steelBase, vmRoot, uploads), ...steel.handlers);
    const adapter = new PlaywrightBrowserAdapter({ provider: createSteelProvider({ apiKey: steelKey, baseURL: steelBase }) });
    try {
      const handle = await adapter.open();
      await adapter.execute(handle, { op: "navigate", url: fixtures.url("/media-upload.html") });
      const staged = await adapter.stageFile(handle, { name: "clip.mp4", mimeType: "video/mp4", stream: generatedStream(fiftyMegabytes).stream });
      expect(staged).toMatchObject({ name: "clip.mp4", size: fiftyMegabytes });

      expect(uploads).toHaveLength(1);
      const [upload] = uploads;
      expect(upload).toMatchObject({
        path: `/v1/sessions/${handle.id}/files`,
        apiKey: steelKey,
        contentType: expect.stringMatching(/^multipart\/form-data; boundary=/),
        fields: ["file"],
        fileName: "clip.mp4",
        fileType: "video/mp4",
        size: fiftyMegabytes,
      });

      await adapter.execute(handle, { op: "upload", selector: "#media", files: [{ staged: staged.fileId }] });
      // The browser read the file Steel stored, by the path Steel answered (its base name is the file's name).
      expect(upload!.storedAt.startsWith(join(vmRoot, handle.id))).toBe(true);
      expect(await readText(adapter, handle, "#received")).toBe(`media: clip.mp4:${fiftyMegabytes}`);
      expect(await readText(adapter, handle, "#published")).toBe("not published");
    } finally {
      await adapter.shutdown();
    }
  });
});

describe("media staging through Browserbase's uploads API", () => {
  it("uploads as multipart `file` and sets /tmp/.uploads/<name> into the input", async () => {
    const mock = createBrowserbaseMock({ apiKey: browserbaseKey, connectUrl: `${chrome.wsUrl}?signingKey=signing-secret-value` });
    const uploads: ReceivedUpload[] = [];
    server.use(browserbaseUploadsStandIn(browserbaseBase, uploads), ...mock.handlers);
    const adapter = new PlaywrightBrowserAdapter({
      provider: createBrowserbaseProvider({ apiKey: browserbaseKey, baseURL: browserbaseBase, persistSettleMs: 10, connectTimeoutMs: 10_000 }),
    });
    // A unique name: /tmp/.uploads is this machine's, shared by every run.
    const name = `clip-${crypto.randomUUID()}.mp4`;
    cleanup.push(join("/tmp/.uploads", name));
    try {
      const handle = await adapter.open();
      await adapter.execute(handle, { op: "navigate", url: fixtures.url("/media-upload.html") });
      const size = 5 * 1024 * 1024;
      const staged = await adapter.stageFile(handle, { name, mimeType: "video/mp4", stream: generatedStream(size).stream });
      expect(uploads).toEqual([
        expect.objectContaining({
          path: `/v1/sessions/${handle.id}/uploads`,
          apiKey: browserbaseKey,
          contentType: expect.stringMatching(/^multipart\/form-data; boundary=/),
          fields: ["file"],
          fileName: name,
          fileType: "video/mp4",
          size,
          storedAt: `/tmp/.uploads/${name}`,
        }),
      ]);
      await adapter.execute(handle, { op: "upload", selector: "#media", files: [{ staged: staged.fileId }] });
      expect(await readText(adapter, handle, "#received")).toBe(`media: ${name}:${size}`);
      expect(await readText(adapter, handle, "#published")).toBe("not published");
    } finally {
      await adapter.shutdown();
    }
  });
});
