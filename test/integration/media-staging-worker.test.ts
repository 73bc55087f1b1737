/**
 * Media staging across real HTTP: the host's `stageFile` streams a 50 MB
 * body to the worker's staging route, the worker streams it into the
 * manager and the local provider's staging folder, and an `upload` with the
 * staged file id sets it into a real Chromium page's file input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserUseClient } from "../../src/client/index.js";
import { stageFile } from "../../src/index.js";
import { isNotFoundError, isValidationError } from "../../src/errors.js";
import { fiftyMegabytes, generatedStream } from "../helpers/generated-stream.js";
import { startWorkerStack, type WorkerStack } from "../helpers/worker-stack.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { createBrowserWorker } from "../../src/worker/index.js";
import { workerRoute } from "../../src/protocol/wire.js";

const token = "op-media-".padEnd(40, "x");
const tenantKey = "tenant-media-".padEnd(40, "k");
let stack: WorkerStack;

beforeAll(async () => {
  stack = await startWorkerStack({ token, tenantKey, maxSessions: 2 });
});
afterAll(async () => {
  await stack?.close();
});

describe("stageFile through client → worker (real HTTP, real Chromium)", () => {
  it("streams 50 MB to the worker, and upload { staged } sets it into the input without publishing", async () => {
    const options = { baseUrl: stack.worker.origin, stationId: "local", apiKey: tenantKey };
    const client = new BrowserUseClient(options);
    const { id } = await client.open();
    try {
      await client.execute(id, { op: "navigate", url: stack.fixtures.url("/media-upload.html") });
      const source = generatedStream(fiftyMegabytes);
      const staged = await stageFile(options, id, { name: "clip.mp4", mimeType: "video/mp4", stream: source.stream });
      expect(staged).toEqual({ fileId: expect.stringMatching(/^file_/), name: "clip.mp4", size: fiftyMegabytes });
      expect(source.chunksRead()).toBe(50);

      const result = await client.execute(id, { op: "upload", selector: "#media", files: [{ staged: staged.fileId }] });
      expect(result.files).toEqual([{ name: "clip.mp4", bytes: fiftyMegabytes }]);
      const read = async (selector: string) =>
        (await client.execute(id, { op: "evaluate", expression: `document.querySelector(${JSON.stringify(selector)}).textContent` })).value;
      expect(await read("#received")).toBe(`media: clip.mp4:${fiftyMegabytes}`);
      expect(await read("#published")).toBe("not published");
    } finally {
      await client.close(id);
    }
  });

  it("names the field of a bad file, and a tenant cannot stage into a session it does not see", async () => {
    const tenant = { baseUrl: stack.worker.origin, stationId: "local", apiKey: tenantKey };
    const client = new BrowserUseClient(tenant);
    const { id } = await client.open();
    try {
      const badName = await stageFile(tenant, id, { name: "../etc/passwd", bytes: new Uint8Array(4) }).catch((caught: unknown) => caught);
      expect(isValidationError(badName)).toBe(true);
      expect((badName as Error).message).toMatch(/^file\.name: expected a file name without slashes/);

      const operatorSession = await new BrowserUseClient({ baseUrl: stack.worker.origin, stationId: "local", apiKey: token, operator: true }).open();
      const foreign = await stageFile(tenant, operatorSession.id, { name: "a.txt", bytes: new Uint8Array(4) }).catch((caught: unknown) => caught);
      expect(isNotFoundError(foreign)).toBe(true);
      await stack.manager.closeSession(operatorSession.id);
    } finally {
      await client.close(id);
    }
  });
});

describe("the worker's staging route streams, bounded", () => {
  it("stops reading a body past the staging bound: the host's stream is cancelled after a few chunks", async () => {
    const adapter = new PlaywrightBrowserAdapter({ stagingMaxBytes: 1024 * 1024 });
    const manager = new BrowserSessionManager(adapter, 1, { ownsAdapter: true });
    const worker = createBrowserWorker({ manager, token, stationId: "local" });
    try {
      const { id } = await manager.open();
      const source = generatedStream(64 * 1024 * 1024);
      const request = new Request(`http://worker.test${workerRoute("local", "operator")}/files?sessionId=${encodeURIComponent(id)}&name=big.bin`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
        body: source.stream,
        duplex: "half",
      } as RequestInit);
      const response = await worker.fetch(request);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
        `file.stream: larger than ${1024 * 1024} bytes, the staging limit`,
      );
      await source.cancelled;
      // 1 MiB chunks: the bound is passed on the second; nothing past it was pulled from the host.
      expect(source.chunksRead()).toBeLessThanOrEqual(3);
    } finally {
      await worker.close();
    }
  });
});
