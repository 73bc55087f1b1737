import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { isCapacityError, isNotImplementedError, isValidationError } from "../../src/errors.js";
import { limits } from "../../src/protocol/limits.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { createLocalProvider, type LocalProvider } from "../../src/providers/local/index.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { fiftyMegabytes, generatedStream } from "../helpers/generated-stream.js";

let server: FixtureServer;
let tempRootDir: string;
let provider: LocalProvider;
let adapter: PlaywrightBrowserAdapter;
let handle: BrowserHandle;

const read = async (selector: string) =>
  (await adapter.execute(handle, { op: "evaluate", expression: `document.querySelector(${JSON.stringify(selector)}).textContent` })).value;

/** Every staging folder entry under the provider's temporary root. */
async function stagedEntries(): Promise<string[]> {
  const entries = await readdir(tempRootDir, { recursive: true });
  return entries.filter((entry) => entry.split("/").includes("staging") && !entry.endsWith("staging"));
}

beforeAll(async () => {
  server = await startFixtureServer();
  tempRootDir = await mkdtemp(join(tmpdir(), "station-media-"));
  provider = createLocalProvider({ tempRootDir });
  adapter = new PlaywrightBrowserAdapter({ provider, stagingMaxBytes: 64 * 1024 * 1024 });
});

afterAll(async () => {
  await adapter?.shutdown();
  await server?.close();
  await rm(tempRootDir, { recursive: true, force: true });
});

describe("media staging, local provider (real Chromium)", () => {
  beforeEach(async () => {
    handle ??= await adapter.open();
    await adapter.execute(handle, { op: "navigate", url: server.url("/media-upload.html") });
  });

  it("stages a 50 MB stream and sets it into the file input by its staged path, without publishing", async () => {
    const { stream } = generatedStream(fiftyMegabytes);
    const staged = await adapter.stageFile(handle, { name: "clip.mp4", mimeType: "video/mp4", stream });
    expect(staged).toEqual({ fileId: expect.stringMatching(/^file_[0-9a-f-]{36}$/), name: "clip.mp4", size: fiftyMegabytes });
    expect(await stagedEntries()).toEqual(expect.arrayContaining([expect.stringMatching(/staging\/.+\/clip\.mp4$/)]));

    const result = await adapter.execute(handle, { op: "upload", selector: "#media", files: [{ staged: staged.fileId }] });
    expect(result.files).toEqual([{ name: "clip.mp4", bytes: fiftyMegabytes }]);
    expect(await read("#received")).toBe(`media: clip.mp4:${fiftyMegabytes}`);
    // Uploading only sets the input: the publish button was never pressed.
    expect(await read("#published")).toBe("not published");
    expect(server.requests.filter((request) => request.includes("/published"))).toEqual([]);
  });

  it("sets several staged files on a multiple input, from bytes too", async () => {
    const first = await adapter.stageFile(handle, { name: "a.txt", bytes: new TextEncoder().encode("hello") });
    const second = await adapter.stageFile(handle, { name: "b.bin", stream: generatedStream(3 * 1024 * 1024).stream });
    await adapter.execute(handle, { op: "upload", selector: "#gallery", files: [{ staged: first.fileId }, { staged: second.fileId }] });
    expect(await read("#received")).toBe(`gallery: a.txt:5,b.bin:${3 * 1024 * 1024}`);
  });

  it("refuses a stream past the staging bound, cancels it and keeps nothing", async () => {
    const before = await stagedEntries();
    const source = generatedStream(65 * 1024 * 1024);
    const error = await adapter.stageFile(handle, { name: "huge.mp4", stream: source.stream }).catch((caught: unknown) => caught);
    expect(isValidationError(error)).toBe(true);
    expect((error as Error).message).toBe(`file.stream: larger than ${64 * 1024 * 1024} bytes, the staging limit`);
    await source.cancelled;
    expect(await stagedEntries()).toEqual(before);
  });

  it("never reads a host path: a path-like string is refused, naming the field", async () => {
    for (const [file, field] of [
      [{ name: "passwd", bytes: "/etc/passwd" }, "file.bytes"],
      [{ name: "passwd", stream: "/etc/passwd" }, "file.stream"],
      [{ name: "passwd", path: "/etc/passwd" }, "file.path"],
      [{ name: "../passwd", bytes: new Uint8Array(1) }, "file.name"],
      // Not a file name: joined to the staging folder they would name a directory (Browserbase's: /tmp).
      [{ name: "..", bytes: new Uint8Array(1) }, "file.name"],
      [{ name: ".", bytes: new Uint8Array(1) }, "file.name"],
    ] as const) {
      const error = await adapter.stageFile(handle, file as never).catch((caught: unknown) => caught);
      expect(isValidationError(error), JSON.stringify(file)).toBe(true);
      expect((error as Error).message.startsWith(`${field}:`), (error as Error).message).toBe(true);
    }
    // A refused file's stream is cancelled, so the host's producer is not left waiting.
    const source = generatedStream(1024);
    await expect(adapter.stageFile(handle, { name: "a/b.txt", stream: source.stream })).rejects.toThrow(/^file\.name:/);
    await source.cancelled;
  });

  it("refuses an unknown staged id and a mix of staged and inline files, naming the field", async () => {
    await expect(
      adapter.execute(handle, { op: "upload", selector: "#media", files: [{ staged: `file_${crypto.randomUUID()}` }] }),
    ).rejects.toThrow(/^command\.files\[0\]\.staged: no file file_.+ is staged for session/);
    const staged = await adapter.stageFile(handle, { name: "a.txt", bytes: new Uint8Array(1) });
    await expect(
      adapter.execute(handle, { op: "upload", selector: "#gallery", files: [{ staged: staged.fileId }, { name: "b.txt", base64: "YQ==" }] }),
    ).rejects.toThrow("command.files: staged and inline files cannot be mixed in one upload");
    await expect(adapter.execute(handle, { op: "upload", selector: "#media", files: [{ staged: "/etc/passwd" }] })).rejects.toThrow(
      /^command\.files\[0\]/,
    );
  });

  it("keeps at most 16 staged files per session, counting stagings under way", async () => {
    const session = await adapter.open();
    try {
      const attempts = await Promise.allSettled(
        Array.from({ length: limits.staging.filesPerSession + 2 }, (_, index) => adapter.stageFile(session, { name: `f${index}.txt`, bytes: new Uint8Array(1) })),
      );
      expect(attempts.filter((attempt) => attempt.status === "fulfilled")).toHaveLength(limits.staging.filesPerSession);
      const refused = attempts.filter((attempt): attempt is PromiseRejectedResult => attempt.status === "rejected");
      expect(refused.map((attempt) => isCapacityError(attempt.reason))).toEqual([true, true]);
    } finally {
      await adapter.close(session);
    }
  });

  it("removes the session's staging folder when the session closes", async () => {
    const session = await adapter.open();
    await adapter.stageFile(session, { name: "gone.txt", bytes: new Uint8Array(10) });
    expect((await stagedEntries()).some((entry) => entry.endsWith("gone.txt"))).toBe(true);
    await adapter.close(session);
    expect((await stagedEntries()).some((entry) => entry.includes(encodeURIComponent(session.id)))).toBe(false);
  });
});

describe("media staging, a provider without a file API", () => {
  it("refuses with a not-implemented error", async () => {
    const bare = createLocalProvider({ tempRootDir });
    const withoutFiles = Object.assign(Object.create(bare) as LocalProvider, { files: undefined });
    const plain = new PlaywrightBrowserAdapter({ provider: withoutFiles });
    try {
      const session = await plain.open();
      const source = generatedStream(1024);
      const error = await plain.stageFile(session, { name: "a.txt", stream: source.stream }).catch((caught: unknown) => caught);
      expect(isNotImplementedError(error)).toBe(true);
      expect((error as Error).message).toMatch(/the local provider has no file API/);
      await source.cancelled;
    } finally {
      await plain.shutdown();
    }
  });
});
