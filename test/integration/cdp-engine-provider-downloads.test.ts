/**
 * Downloads on Browserbase and Steel through the CDP engine: each hosted
 * session's CDP URL is a real local Chromium, and the provider's REST API is
 * an msw stand-in at its wire format serving the files that Chromium saved
 * (test/helpers/download-stand-ins.ts). The list comes from the browser's
 * events; the bytes come back through the provider's API when read.
 */
import { existsSync } from "node:fs";
import { readFile, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CdpBrowserAdapter } from "../../src/cdp/adapter/index.js";
import { nodeWebSocket } from "../../src/engine/node-websocket.js";
import { isNotFoundError } from "../../src/errors.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import type { BrowserCommandInput } from "../../src/protocol/commands.js";
import { createBrowserbaseRestProvider } from "../../src/providers/browserbase/rest.js";
import { createSteelRestProvider } from "../../src/providers/steel/rest.js";
import { startCdpChromium, type CdpChromium } from "../helpers/cdp-chromium.js";
import { baseURL as browserbaseBase, createBrowserbaseMock } from "../helpers/browserbase-mock.js";
import { browserbaseDownloadsStandIn, createHold, steelFilesDownloadStandIn, type DownloadRequest, type Hold } from "../helpers/download-stand-ins.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { createFakeSteel, steelBase } from "../helpers/steel-mock.js";

const keys = { browserbase: "bb_live_downloads_key_5d20c7e1f9", steel: "ste-downloads-key-8a41b6e0c3" };
const downloadMaxBytes = 1024 * 1024;

let chrome: CdpChromium;
let fixtures: FixtureServer;
const server = setupServer();

beforeAll(async () => {
  [chrome, fixtures] = await Promise.all([startCdpChromium(), startFixtureServer()]);
  server.listen({ onUnhandledRequest: "bypass" });
});
afterEach(() => server.resetHandlers());
afterAll(async () => {
  server.close();
  await Promise.all([chrome?.close(), fixtures?.close()]);
});

/** Everything a caller could see, serialized, must not contain the key. */
function expectNoKey(key: string, outputs: unknown[]): void {
  for (const output of outputs) {
    const text = output instanceof Error ? `${output.name}: ${output.message} ${String(output.cause ?? "")} ${output.stack ?? ""}` : JSON.stringify(output);
    expect(text).not.toContain(key);
  }
}

const fromBase64 = (base64: string) => new Uint8Array(Buffer.from(base64, "base64"));

/** A session of `adapter` on the form page, and a way to run commands that keeps every output. */
async function openOnForm(adapter: CdpBrowserAdapter, outputs: unknown[]) {
  const handle = await adapter.open();
  const run = async (command: BrowserCommandInput, signal?: AbortSignal) => {
    try {
      const result = await adapter.execute(handle, command, signal);
      outputs.push(result);
      return result;
    } catch (error) {
      outputs.push(error);
      throw error;
    }
  };
  await run({ op: "navigate", url: fixtures.url("/form.html") });
  return { handle, run };
}

async function completed(run: (command: BrowserCommandInput) => Promise<unknown>, fileName: string, state = "completed") {
  const list = async () => ((await run({ op: "downloads" })) as { downloads: Array<{ downloadId: string; fileName: string; state: string; bytes?: number; error?: string }> }).downloads;
  const newest = async () => (await list()).reverse().find((entry) => entry.fileName === fileName);
  await expect.poll(async () => (await newest())?.state, { timeout: 15_000 }).toBe(state);
  return (await newest())!;
}

/** Reads the 2048-byte report back in chunks and checks each against the file the browser saved. */
async function readsReportBack(run: (command: BrowserCommandInput) => Promise<unknown>, downloadId: string, saved: Uint8Array) {
  const first = (await run({ op: "downloadRead", downloadId, length: 1000 })) as { base64: string };
  expect(first).toMatchObject({ downloadId, offset: 0, bytes: 1000, totalBytes: 2048, more: true });
  const second = (await run({ op: "downloadRead", downloadId, offset: 1000, length: 1000 })) as { base64: string };
  expect(second).toMatchObject({ offset: 1000, bytes: 1000, more: true });
  const last = (await run({ op: "downloadRead", downloadId, offset: 2000 })) as { base64: string };
  expect(last).toMatchObject({ offset: 2000, bytes: 48, totalBytes: 2048, more: false });
  expect(new Uint8Array([...fromBase64(first.base64), ...fromBase64(second.base64), ...fromBase64(last.base64)])).toEqual(saved);
  await expect(run({ op: "downloadRead", downloadId, offset: 3000 })).rejects.toThrow("command.offset: past the end of the 2048-byte download");
}

/**
 * Reads `downloadId` while the stand-in holds its answer, ended by the caller's
 * `signal` (or, without one, by the command's deadline), and checks the read
 * failed and its request was given up, not left pending.
 */
async function readIsAbandoned(
  run: (command: BrowserCommandInput, signal?: AbortSignal) => Promise<unknown>,
  hold: Hold,
  downloadId: string,
  controller?: AbortController,
): Promise<void> {
  hold.on = true;
  const arrived = hold.arrived();
  const read = run({ op: "downloadRead", downloadId }, controller?.signal).catch((caught: unknown) => caught);
  await arrived;
  controller?.abort();
  expect(await read).toBeInstanceOf(Error);
  await expect.poll(() => hold.abandoned, { timeout: 20_000 }).toBe(1);
}

describe("CDP engine on Browserbase: downloads come back from Browserbase's session downloads zip", () => {
  function setUp() {
    const requests: DownloadRequest[] = [];
    const synced = { value: true };
    const hold = createHold();
    const mock = createBrowserbaseMock({ apiKey: keys.browserbase, connectUrl: chrome.wsUrl });
    // The relative "downloads" of Browserbase's guide resolves in the browser's working directory, its profile here.
    const folder = () => join(chrome.userDataDir, "downloads");
    server.use(browserbaseDownloadsStandIn({ base: browserbaseBase, apiKey: keys.browserbase, folder, requests, synced, hold }), ...mock.handlers);
    const adapter = new CdpBrowserAdapter({ provider: createBrowserbaseRestProvider({ apiKey: keys.browserbase, baseURL: browserbaseBase }), webSocket: nodeWebSocket, downloadMaxBytes });
    return { adapter, requests, synced, hold, folder };
  }

  it("lists the download ops, reads a download back in chunks from one fetch of the zip, says clearly when Browserbase has not stored it yet, and deletes it", async () => {
    const { adapter, requests, synced, folder } = setUp();
    const outputs: unknown[] = [];
    try {
      expect(adapter.capabilities().ops).toEqual(expect.arrayContaining(["downloads", "downloadRead", "downloadDelete"]));
      expect(adapter.capabilities().notImplemented).not.toContain("downloadRead");
      const { handle, run } = await openOnForm(adapter, outputs);
      await run({ op: "click", selector: "#download-link" });
      const report = await completed(run, "report.txt");
      expect(report).toMatchObject({ downloadId: expect.stringMatching(/^d\d+$/), bytes: 2048, url: fixtures.url("/download") });
      // The browser saved it by its own name in "downloads" (behavior "allow"), inside its profile, not in this process's directory.
      const saved = new Uint8Array(await readFile(join(folder(), "report.txt")));
      expect(saved.byteLength).toBe(2048);
      expect(existsSync(join(process.cwd(), "downloads"))).toBe(false);

      // Not stored by Browserbase yet: a clear error naming the download, asked once, not retried.
      synced.value = false;
      const early = await run({ op: "downloadRead", downloadId: report.downloadId }).catch((caught: unknown) => caught);
      expect(isNotFoundError(early)).toBe(true);
      expect((early as Error).message).toBe(
        `download ${report.downloadId} (report.txt): report.txt is not in Browserbase's downloads of session ${handle.id} yet: Browserbase stores a finished download shortly after the browser saves it; read it again in a moment`,
      );
      expect(requests).toHaveLength(1);

      synced.value = true;
      await readsReportBack(run, report.downloadId, saved);
      // One zip for the three chunks (the read from offset 0 fetched it), each asked with the key and Accept: application/zip.
      expect(requests).toHaveLength(2);
      expect(requests.every((request) => request.path === `/v1/sessions/${handle.id}/downloads` && request.method === "GET")).toBe(true);
      expect(requests.every((request) => request.apiKey === keys.browserbase && request.accept === "application/zip")).toBe(true);

      expect(await run({ op: "downloadDelete", downloadId: report.downloadId })).toEqual({ ok: true, downloadId: report.downloadId });
      await expect(run({ op: "downloadRead", downloadId: report.downloadId })).rejects.toThrow(/does not exist/);
      // Browserbase's API has no delete route: nothing was sent.
      expect(requests).toHaveLength(2);
      await adapter.close(handle);
    } finally {
      await adapter.shutdown();
    }
    expectNoKey(keys.browserbase, outputs);
  });

  it("bounds a download (too_large) as on the local provider, and a read whose answer never comes ends with the caller's signal, not a hang", async () => {
    const { adapter, requests, hold } = setUp();
    const outputs: unknown[] = [];
    try {
      const { handle, run } = await openOnForm(adapter, outputs);
      await run({ op: "click", selector: "#big-download-link" });
      const big = await completed(run, "big.bin", "too_large");
      // Browserbase cannot delete what it stored: the result says so instead of "deleted".
      expect(big.error).toMatch(/^larger than the 1048576-byte download limit \((cancelled at \d+ bytes|checked once complete)\); dropped \(the provider keeps its copy\)$/);
      await expect(run({ op: "downloadRead", downloadId: big.downloadId })).rejects.toThrow(/too_large, not completed/);

      await run({ op: "click", selector: "#download-link" });
      const report = await completed(run, "report.txt");
      await readIsAbandoned(run, hold, report.downloadId, new AbortController());
      // Never retried: one request, the one abandoned.
      expect(requests).toHaveLength(1);
      await adapter.close(handle);
    } finally {
      await adapter.shutdown();
    }
    expectNoKey(keys.browserbase, outputs);
  });
});

describe("CDP engine on Steel: downloads come back from Steel's session files", () => {
  function setUp() {
    const requests: DownloadRequest[] = [];
    const hold = createHold();
    const filesFolder = join(chrome.userDataDir, "steel-files");
    const cloud = createFakeSteel({ apiKey: keys.steel, websocketUrl: (session) => `${chrome.wsUrl}?sessionId=${session.id}` });
    server.use(...steelFilesDownloadStandIn({ base: steelBase, folder: filesFolder, requests, hold }), ...cloud.handlers);
    const provider = createSteelRestProvider({ apiKey: keys.steel, baseURL: steelBase, filesFolder });
    const adapter = new CdpBrowserAdapter({ provider, webSocket: nodeWebSocket, downloadMaxBytes });
    return { adapter, requests, hold, filesFolder };
  }

  it("reads a download back in chunks from one file fetch, says clearly when Steel does not have it, and deletes it on Steel", async () => {
    const { adapter, requests, filesFolder } = setUp();
    const outputs: unknown[] = [];
    try {
      expect(adapter.capabilities().ops).toEqual(expect.arrayContaining(["downloads", "downloadRead", "downloadDelete"]));
      const { handle, run } = await openOnForm(adapter, outputs);
      await run({ op: "click", selector: "#download-link" });
      const report = await completed(run, "report.txt");
      // Saved by its guid in the files folder (behavior "allowAndName").
      const [guid] = await readdir(filesFolder);
      expect(guid).toMatch(/^[0-9a-f-]{36}$/);
      const saved = new Uint8Array(await readFile(join(filesFolder, guid!)));
      await readsReportBack(run, report.downloadId, saved);
      expect(requests).toEqual([{ method: "GET", path: `/v1/sessions/${handle.id}/files/${guid}`, apiKey: keys.steel, accept: "application/octet-stream" }]);

      expect(await run({ op: "downloadDelete", downloadId: report.downloadId })).toEqual({ ok: true, downloadId: report.downloadId });
      expect(requests.at(-1)).toMatchObject({ method: "DELETE", path: `/v1/sessions/${handle.id}/files/${guid}`, apiKey: keys.steel });
      expect(await readdir(filesFolder)).toEqual([]);

      // Gone on Steel's side: a clear error naming the download, asked once.
      await run({ op: "click", selector: "#download-link" });
      const again = await completed(run, "report.txt");
      const [second] = await readdir(filesFolder);
      await rm(join(filesFolder, second!));
      const before = requests.length;
      const missing = await run({ op: "downloadRead", downloadId: again.downloadId }).catch((caught: unknown) => caught);
      expect(isNotFoundError(missing)).toBe(true);
      expect((missing as Error).message).toBe(`download ${again.downloadId} (report.txt): ${second} is not in Steel's files of session ${handle.id}`);
      expect(requests).toHaveLength(before + 1);
      await adapter.close(handle);
    } finally {
      await adapter.shutdown();
    }
    expectNoKey(keys.steel, outputs);
  });

  it("deletes a too_large download on Steel, and a read whose answer never comes ends with the caller's signal, not a hang", async () => {
    const { adapter, requests, hold, filesFolder } = setUp();
    const outputs: unknown[] = [];
    try {
      const { handle, run } = await openOnForm(adapter, outputs);
      await run({ op: "click", selector: "#big-download-link" });
      const big = await completed(run, "big.bin", "too_large");
      expect(big.error).toMatch(/^larger than the 1048576-byte download limit \(.*\); deleted$/);
      await expect.poll(() => requests.filter((request) => request.method === "DELETE")).toHaveLength(1);
      expect(requests[0]?.path).toMatch(new RegExp(`^/v1/sessions/${handle.id}/files/[0-9a-f-]{36}$`));

      await run({ op: "click", selector: "#download-link" });
      const report = await completed(run, "report.txt");
      expect(await readdir(filesFolder)).toHaveLength(1);
      await readIsAbandoned(run, hold, report.downloadId, new AbortController());
      expect(requests.filter((request) => request.method === "GET")).toHaveLength(1);
      await adapter.close(handle);
    } finally {
      await adapter.shutdown();
    }
    expectNoKey(keys.steel, outputs);
  });

  it("cancels a read's request to Steel at the command's deadline when no answer comes (no caller signal)", async () => {
    const { adapter, requests, hold } = setUp();
    const outputs: unknown[] = [];
    try {
      const { handle, run } = await openOnForm(adapter, outputs);
      await run({ op: "click", selector: "#download-link" });
      const report = await completed(run, "report.txt");
      // The request itself is given up (the deadline's signal reached the fetch), not left pending.
      await readIsAbandoned(run, hold, report.downloadId);
      expect(requests.filter((request) => request.method === "GET")).toHaveLength(1);
      await adapter.close(handle);
    } finally {
      await adapter.shutdown();
    }
    expectNoKey(keys.steel, outputs);
  });
});
