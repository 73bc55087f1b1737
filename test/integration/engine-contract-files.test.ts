import { beforeEach, describe, expect, it } from "vitest";
import { ValidationError, isValidationError } from "../../src/errors.js";
import type { BrowserAdapter, BrowserHandle } from "../../src/protocol/adapter.js";
import { limits } from "../../src/protocol/limits.js";
import { bothEngines } from "../helpers/engines.js";
import { generatedStream } from "../helpers/generated-stream.js";
import { startFixtureServer } from "../helpers/fixture-server.js";
import { refOf } from "../helpers/snapshot-refs.js";

/**
 * The engine contract for files, run against both engines on a real local
 * Chromium: uploads of inline files and of files staged through the
 * provider's file API (the Playwright engine's local provider; the CDP
 * engine's stand-in provider stages into a folder on this machine, where its
 * Chromium runs), with the same commands and assertions.
 */
const file = (name: string, content: string) => ({ name, mimeType: "text/plain", base64: Buffer.from(content).toString("base64") });

describe.each(bothEngines({ stagingMaxBytes: 8 * 1024 * 1024, downloadMaxBytes: 1024 * 1024 }))("%s: uploads and downloads (real Chromium)", (_name, use) => {
  const browser = use();
  let handle: BrowserHandle;
  const run = <Command extends Parameters<BrowserAdapter["execute"]>[1]>(command: Command) => browser.adapter.execute(handle, command);
  const read = async (expression: string) => (await run({ op: "evaluate", expression })).value;
  const chosenFiles = (selector: string) => read(`Array.from(document.querySelector(${JSON.stringify(selector)}).files, (file) => file.name + ':' + file.size + ':' + file.type)`);
  const text = (selector: string) => read(`document.querySelector(${JSON.stringify(selector)}).textContent`);
  const stage = (input: Parameters<NonNullable<BrowserAdapter["stageFile"]>>[1]) => browser.adapter.stageFile!(handle, input);

  beforeEach(async () => {
    handle ??= await browser.open();
    await run({ op: "navigate", url: browser.server.url("/form.html") });
  });

  it("sets one file, and several on a multiple input, with input and change fired", async () => {
    await run({ op: "evaluate", expression: "window.seen = []; for (const kind of ['input', 'change']) document.addEventListener(kind, (event) => seen.push(kind + ':' + event.target.id)); 1" });
    const single = await run({ op: "upload", target: { by: "label", value: "Avatar" }, files: [file("me.txt", "hello")] });
    expect(single).toMatchObject({ ok: true, navigated: false, title: "Form", files: [{ name: "me.txt", bytes: 5 }] });
    expect(await chosenFiles("#avatar")).toEqual(["me.txt:5:text/plain"]);
    expect(await read("seen")).toEqual(["input:avatar", "change:avatar"]);
    const several = await run({ op: "upload", selector: "#attachments", files: [file("a.txt", "a"), { name: "b.bin", base64: Buffer.from([0, 255, 128]).toString("base64") }] });
    expect(several.files).toEqual([
      { name: "a.txt", bytes: 1 },
      { name: "b.bin", bytes: 3 },
    ]);
    expect(await chosenFiles("#attachments")).toEqual(["a.txt:1:text/plain", "b.bin:3:application/octet-stream"]);
    // The bytes arrive as given, binary too.
    expect(await read("document.querySelector('#attachments').files[1].arrayBuffer().then((buffer) => Array.from(new Uint8Array(buffer)))")).toEqual([0, 255, 128]);
  });

  it("refuses more than 16 files, more than 4 MiB decoded, and bad names, naming the field; nothing is uploaded", async () => {
    const many = Array.from({ length: limits.upload.files + 1 }, (_, index) => file(`f${index}.txt`, "x"));
    const tooMany = await run({ op: "upload", selector: "#attachments", files: many }).catch((caught: unknown) => caught);
    expect(tooMany).toBeInstanceOf(ValidationError);
    expect((tooMany as Error).message).toBe("command.files: at most 16 files per upload");
    const big = Buffer.alloc(limits.upload.decodedBytes / 2 + 1, 0x62).toString("base64");
    const tooBig = await run({ op: "upload", selector: "#attachments", files: [{ name: "one.bin", base64: big }, { name: "two.bin", base64: big }] }).catch((caught: unknown) => caught);
    expect(tooBig).toBeInstanceOf(ValidationError);
    expect((tooBig as Error).message).toMatch(/^command\.files: 4194306 bytes in total; at most 4194304/);
    for (const name of ["../a.txt", "..", "a\\b"]) {
      const error = await run({ op: "upload", selector: "#attachments", files: [{ name, base64: "YQ==" }] }).catch((caught: unknown) => caught);
      expect(isValidationError(error), name).toBe(true);
      expect((error as Error).message).toMatch(/^command\.files\[0\]\.name: /);
    }
    expect(await chosenFiles("#attachments")).toEqual([]);
  });

  it("refuses several files on a single-file input and a target that is not a file input, and sets none", async () => {
    const several = await run({ op: "upload", selector: "#avatar", files: [file("a.txt", "a"), file("b.txt", "b")] }).catch((caught: unknown) => caught);
    expect(several).toBeInstanceOf(ValidationError);
    expect((several as Error).message).toBe("command.files: 2 files given but the input accepts one (no `multiple` attribute)");
    expect(await chosenFiles("#avatar")).toEqual([]);
    const notFile = await run({ op: "upload", selector: "#user", files: [file("a.txt", "a")] }).catch((caught: unknown) => caught);
    expect(notFile).toBeInstanceOf(ValidationError);
    expect((notFile as Error).message).toBe("command.target: the target is not an <input type=file>");
    expect(await read("document.querySelector('#user').value")).toBe("");
  });

  it("stages files through the provider's file API and sets them by their staged paths, without publishing", async () => {
    await run({ op: "navigate", url: browser.server.url("/media-upload.html") });
    const size = 3 * 1024 * 1024;
    const clip = await stage({ name: "clip.mp4", mimeType: "video/mp4", stream: generatedStream(size).stream });
    expect(clip).toEqual({ fileId: expect.stringMatching(/^file_[0-9a-f-]{36}$/), name: "clip.mp4", size });
    const result = await run({ op: "upload", selector: "#media", files: [{ staged: clip.fileId }] });
    expect(result).toMatchObject({ ok: true, title: "Media upload", files: [{ name: "clip.mp4", bytes: size }] });
    expect(await text("#received")).toBe(`media: clip.mp4:${size}`);
    // Uploading only sets the input: the publish button was never pressed.
    expect(await text("#published")).toBe("not published");
    const first = await stage({ name: "a.txt", bytes: new TextEncoder().encode("hello") });
    const second = await stage({ name: "b.bin", stream: generatedStream(1024).stream });
    await run({ op: "upload", target: { by: "label", value: "Gallery" }, files: [{ staged: first.fileId }, { staged: second.fileId }] });
    expect(await text("#received")).toBe("gallery: a.txt:5,b.bin:1024");
  });

  it("sets staged files into file inputs inside a same-origin iframe, by frame chain and by frame-qualified ref", async () => {
    await run({ op: "navigate", url: browser.server.url("/media-upload-frame.html") });
    const inFrame = (selector: string) => read(`document.querySelector("#composer").contentDocument.querySelector(${JSON.stringify(selector)}).textContent`);
    await run({ op: "waitFor", target: { by: "label", value: "Media", frame: ["#composer"] } });
    const framed = await stage({ name: "framed.txt", bytes: new TextEncoder().encode("framed") });
    const result = await run({ op: "upload", target: { by: "label", value: "Media", frame: ["#composer"] }, files: [{ staged: framed.fileId }] });
    // The result is the page's, not the frame's.
    expect(result).toMatchObject({ ok: true, title: "Media upload in a frame", files: [{ name: "framed.txt", bytes: 6 }] });
    expect(await inFrame("#received")).toBe("media: framed.txt:6");
    const { snapshot } = await run({ op: "accessibility" });
    const gallery = refOf(snapshot, /Gallery/);
    expect(gallery).toMatch(/^f\d+e\d+$/);
    const first = await stage({ name: "a.txt", bytes: new TextEncoder().encode("hello") });
    const second = await stage({ name: "b.bin", stream: generatedStream(1024).stream });
    await run({ op: "upload", target: { by: "ref", ref: gallery }, files: [{ staged: first.fileId }, { staged: second.fileId }] });
    expect(await inFrame("#received")).toBe("gallery: a.txt:5,b.bin:1024");
    // The input's checks hold in the frame: nothing is set on what is not a file input.
    await expect(run({ op: "upload", target: { by: "selector", selector: "#publish", frame: ["#composer"] }, files: [{ staged: framed.fileId }] })).rejects.toThrow("command.target: the target is not an <input type=file>");
    expect(await inFrame("#received")).toBe("gallery: a.txt:5,b.bin:1024");
    expect(await inFrame("#published")).toBe("not published");
  });

  it("sets staged files into a file input inside a cross-origin iframe (out of process and in process), by frame chain and by frame-qualified ref", async () => {
    const other = await startFixtureServer();
    try {
      const frames = [
        ["out of process", browser.server.url("/media-upload.html").replace("127.0.0.1", "localhost")],
        ["in process", other.url("/media-upload.html")],
      ] as const;
      for (const [where, frame] of frames) {
        await run({ op: "navigate", url: browser.server.url(`/hostile-top.html?frame=${encodeURIComponent(frame)}`) });
        const received = (value: string) => run({ op: "waitFor", target: { by: "text", value, frame: ["#login"] }, timeoutMs: 5000 });
        await received("nothing yet");
        const framed = await stage({ name: "framed.txt", bytes: new TextEncoder().encode("framed") });
        const result = await run({ op: "upload", target: { by: "label", value: "Media", frame: ["#login"] }, files: [{ staged: framed.fileId }] });
        // The result is the page's, not the frame's.
        expect(result, where).toMatchObject({ ok: true, title: "Hostile", files: [{ name: "framed.txt", bytes: 6 }] });
        await received("media: framed.txt:6");
        const { snapshot } = await run({ op: "accessibility" });
        const gallery = refOf(snapshot, /Gallery/);
        expect(gallery, where).toMatch(/^f\d+e\d+$/);
        const first = await stage({ name: "a.txt", bytes: new TextEncoder().encode("hello") });
        const second = await stage({ name: "b.bin", bytes: new Uint8Array(1024) });
        await run({ op: "upload", target: { by: "ref", ref: gallery }, files: [{ staged: first.fileId }, { staged: second.fileId }] });
        await received("gallery: a.txt:5,b.bin:1024");
        // The input's checks hold in the frame: nothing is set on what is not a file input.
        await expect(run({ op: "upload", target: { by: "selector", selector: "#publish", frame: ["#login"] }, files: [{ staged: framed.fileId }] }), where).rejects.toThrow("command.target: the target is not an <input type=file>");
        await received("not published");
      }
    } finally {
      await other.close();
    }
  });

  it("refuses an unknown staged id, a mix of staged and inline files, and staged files the input cannot take, naming the field", async () => {
    await run({ op: "navigate", url: browser.server.url("/media-upload.html") });
    await expect(run({ op: "upload", selector: "#media", files: [{ staged: `file_${crypto.randomUUID()}` }] })).rejects.toThrow(/^command\.files\[0\]\.staged: no file file_.+ is staged for session/);
    const staged = await stage({ name: "a.txt", bytes: new Uint8Array(1) });
    await expect(run({ op: "upload", selector: "#gallery", files: [{ staged: staged.fileId }, { name: "b.txt", base64: "YQ==" }] })).rejects.toThrow("command.files: staged and inline files cannot be mixed in one upload");
    await expect(run({ op: "upload", selector: "#media", files: [{ staged: staged.fileId }, { staged: staged.fileId }] })).rejects.toThrow(/^command\.files: 2 files given but the input accepts one/);
    await expect(run({ op: "upload", selector: "#publish", files: [{ staged: staged.fileId }] })).rejects.toThrow("command.target: the target is not an <input type=file>");
    expect(await text("#received")).toBe("nothing yet");
    const tooLarge = await stage({ name: "huge.bin", stream: generatedStream(9 * 1024 * 1024).stream }).catch((caught: unknown) => caught);
    expect((tooLarge as Error).message).toBe(`file.stream: larger than ${8 * 1024 * 1024} bytes, the staging limit`);
  });

  const downloads = async () => (await run({ op: "downloads" })).downloads;

  it("keeps a download and reads it back in bounded chunks, then deletes it", async () => {
    await run({ op: "click", selector: "#download-link" });
    await expect.poll(async () => (await downloads()).find((entry) => entry.fileName === "report.txt")?.state).toBe("completed");
    const report = (await downloads()).find((entry) => entry.fileName === "report.txt")!;
    expect(report).toMatchObject({ downloadId: expect.stringMatching(/^d\d+$/), bytes: 2048, url: browser.server.url("/download") });
    const first = await run({ op: "downloadRead", downloadId: report.downloadId, length: 1000 });
    expect(first).toMatchObject({ downloadId: report.downloadId, offset: 0, bytes: 1000, totalBytes: 2048, more: true });
    expect(Buffer.from(first.base64, "base64").toString()).toBe("a".repeat(1000));
    const last = await run({ op: "downloadRead", downloadId: report.downloadId, offset: 2000 });
    expect(last).toMatchObject({ bytes: 48, more: false });
    await expect(run({ op: "downloadRead", downloadId: report.downloadId, offset: 3000 })).rejects.toThrow("command.offset: past the end of the 2048-byte download");
    expect((await run({ op: "diagnostics" })).events).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "download", text: report.downloadId, url: browser.server.url("/download") })]));
    expect(await run({ op: "downloadDelete", downloadId: report.downloadId })).toEqual({ ok: true, downloadId: report.downloadId });
    await expect(run({ op: "downloadRead", downloadId: report.downloadId })).rejects.toThrow(/does not exist/);
    expect((await downloads()).map((entry) => entry.downloadId)).not.toContain(report.downloadId);
  });

  it("bounds a download: one above the limit is deleted and reported too_large", async () => {
    await run({ op: "click", selector: "#big-download-link" });
    await expect.poll(async () => (await downloads()).find((entry) => entry.fileName === "big.bin")?.state, { timeout: 15_000 }).toBe("too_large");
    const big = (await downloads()).find((entry) => entry.fileName === "big.bin")!;
    expect(big.error).toMatch(/larger than the 1048576-byte download limit/);
    await expect(run({ op: "downloadRead", downloadId: big.downloadId })).rejects.toThrow(/too_large, not completed/);
  });
});
