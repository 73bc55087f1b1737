import { open, stat } from "node:fs/promises";
import type { Download } from "playwright-core";
import { NotFoundError, ValidationError } from "../errors.js";
import { limits } from "../protocol/limits.js";
import type { DiagnosticsEvent, DownloadInfo, DownloadReadResult } from "../protocol/results.js";
import { sanitizeUrl } from "../protocol/url-policy.js";
import type { DownloadProgressEvent } from "./page-events.js";

interface DownloadRecord {
  info: DownloadInfo;
  download: Download;
  /** The URL as the page asked for it (to match Chromium's progress events); never reported. */
  rawUrl: string;
  path?: string;
  /** Chromium's id of the download, once its progress events are matched to it. */
  guid?: string;
  /** Bytes received when the download passed the limit and was cancelled. */
  cancelledAt?: number;
}

/**
 * Downloads of one session: at most `limits.downloads.perSession` kept (the
 * oldest is deleted), each at most `maxBytes`: a download is cancelled as
 * soon as Chromium reports more bytes than that (or announces a larger
 * size), its partial file deleted, and it is reported as `too_large`; the
 * size of a finished file is checked again. Bytes are read back in bounded
 * chunks.
 */
export class DownloadStore {
  private readonly records = new Map<string, DownloadRecord>();
  /** Progress of downloads Chromium announced that no record is matched to yet (by guid). */
  private readonly unmatched = new Map<string, { url: string; receivedBytes: number }>();
  /** Guids of evicted downloads: their last events are ignored, never matched to another download. */
  private readonly retired = new Set<string>();
  private counter = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly report: (event: Omit<DiagnosticsEvent, "seq" | "at">) => void,
  ) {}

  track(download: Download, pageId: string): void {
    const downloadId = `d${++this.counter}`;
    const record: DownloadRecord = {
      download,
      rawUrl: download.url(),
      info: { downloadId, fileName: download.suggestedFilename(), url: sanitizeUrl(download.url()), state: "in_progress" },
    };
    this.records.set(downloadId, record);
    this.report({ kind: "download", pageId, url: record.info.url, text: downloadId });
    this.evictOldest();
    for (const [guid, progress] of this.unmatched) {
      if (progress.url !== record.rawUrl) continue;
      this.unmatched.delete(guid);
      record.guid = guid;
      this.enforceLimit(record, progress.receivedBytes);
      break;
    }
    void this.settle(record);
  }

  /** Takes Chromium's word on a download's bytes as they arrive ({@link watchPageEvents}). */
  observe(event: DownloadProgressEvent): void {
    if (this.retired.has(event.guid)) {
      if (event.kind === "progress" && event.state !== "inProgress") this.retired.delete(event.guid);
      return;
    }
    const record = [...this.records.values()].find((each) => each.guid === event.guid);
    if (event.kind === "begin") {
      if (record) return;
      // Playwright's download event may come before or after this one: match by URL, oldest first.
      const waiting = [...this.records.values()].find((each) => each.guid === undefined && each.info.state === "in_progress" && each.rawUrl === event.url);
      if (waiting) waiting.guid = event.guid;
      else this.unmatched.set(event.guid, { url: event.url, receivedBytes: 0 });
      return;
    }
    const seen = event.state === "inProgress" ? Math.max(event.receivedBytes, event.totalBytes) : event.receivedBytes;
    if (event.state !== "inProgress") this.unmatched.delete(event.guid);
    const pending = this.unmatched.get(event.guid);
    if (pending) pending.receivedBytes = seen;
    // Progress of a download whose start was missed (its page was still being attached): it is the only unmatched one.
    const waiting = [...this.records.values()].filter((each) => each.guid === undefined && each.info.state === "in_progress");
    const matched = record ?? (pending === undefined && waiting.length === 1 ? waiting[0] : undefined);
    if (matched) matched.guid = event.guid;
    if (matched && event.state === "inProgress") this.enforceLimit(matched, seen);
  }

  /** Cancels a download once it passes the limit; `settle` then deletes it and reports it. */
  private enforceLimit(record: DownloadRecord, bytes: number): void {
    if (record.cancelledAt !== undefined || bytes <= this.maxBytes || record.info.state !== "in_progress") return;
    record.cancelledAt = bytes;
    record.download.cancel().catch(() => undefined);
  }

  private tooLarge(record: DownloadRecord, bytes: number, when: string): void {
    record.info = { ...record.info, state: "too_large", bytes, error: `larger than the ${this.maxBytes}-byte download limit (${when}); deleted` };
  }

  private evictOldest(): void {
    while (this.records.size > limits.downloads.perSession) {
      const [oldestId, oldest] = this.records.entries().next().value as [string, DownloadRecord];
      this.records.delete(oldestId);
      if (oldest.guid !== undefined && oldest.info.state === "in_progress") this.retired.add(oldest.guid);
      // One still arriving is cancelled first: Playwright deletes a download only once it has ended.
      void oldest.download
        .cancel()
        .catch(() => undefined)
        .then(() => oldest.download.delete())
        .catch(() => undefined);
    }
  }

  private async settle(record: DownloadRecord): Promise<void> {
    try {
      const path = await record.download.path();
      const { size } = await stat(path);
      if (size > this.maxBytes || record.cancelledAt !== undefined) {
        this.tooLarge(record, size, "checked once complete");
        await record.download.delete();
        return;
      }
      record.path = path;
      record.info = { ...record.info, state: "completed", bytes: size };
    } catch (error) {
      if (record.cancelledAt !== undefined) {
        this.tooLarge(record, record.cancelledAt, `cancelled at ${record.cancelledAt} bytes`);
        // Chromium drops the partial file on cancel; this removes whatever Playwright still holds.
        await record.download.delete().catch(() => undefined);
        return;
      }
      const failure = (await record.download.failure().catch(() => null)) ?? (error instanceof Error ? error.message.split("\n")[0] : "failed");
      record.info = { ...record.info, state: "failed", error: failure ?? "failed" };
    }
  }

  list(): DownloadInfo[] {
    return [...this.records.values()].map((record) => record.info);
  }

  private get(downloadId: string): DownloadRecord {
    const record = this.records.get(downloadId);
    if (!record) throw new NotFoundError(`Download ${downloadId} does not exist; list them with { op: "downloads" }`);
    return record;
  }

  async read(downloadId: string, offset = 0, length: number = limits.downloads.readBytesMax): Promise<DownloadReadResult> {
    const record = this.get(downloadId);
    if (record.info.state !== "completed" || !record.path) {
      throw new ValidationError("command.downloadId", `download ${downloadId} is ${record.info.state}, not completed`);
    }
    const totalBytes = record.info.bytes ?? 0;
    if (offset > totalBytes) throw new ValidationError("command.offset", `past the end of the ${totalBytes}-byte download`);
    const handle = await open(record.path, "r");
    try {
      const buffer = Buffer.alloc(Math.min(length, totalBytes - offset));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      return {
        downloadId,
        offset,
        bytes: bytesRead,
        totalBytes,
        base64: buffer.subarray(0, bytesRead).toString("base64"),
        more: offset + bytesRead < totalBytes,
      };
    } finally {
      await handle.close();
    }
  }

  async delete(downloadId: string): Promise<void> {
    const record = this.get(downloadId);
    this.records.delete(downloadId);
    await record.download.delete().catch(() => undefined);
  }
}
