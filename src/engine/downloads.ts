import { open, stat } from "node:fs/promises";
import type { Download } from "playwright-core";
import { NotFoundError, ValidationError } from "../errors.js";
import { limits } from "../protocol/limits.js";
import type { DiagnosticsEvent, DownloadInfo, DownloadReadResult } from "../protocol/results.js";
import { sanitizeUrl } from "../protocol/url-policy.js";

interface DownloadRecord {
  info: DownloadInfo;
  download: Download;
  path?: string;
}

/**
 * Downloads of one session: at most `limits.downloads.perSession` kept (the
 * oldest is deleted), each at most `maxBytes` (larger ones are deleted and
 * reported as `too_large`). Bytes are read back in bounded chunks.
 */
export class DownloadStore {
  private readonly records = new Map<string, DownloadRecord>();
  private counter = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly report: (event: Omit<DiagnosticsEvent, "seq" | "at">) => void,
  ) {}

  track(download: Download, pageId: string): void {
    const downloadId = `d${++this.counter}`;
    const record: DownloadRecord = {
      download,
      info: { downloadId, fileName: download.suggestedFilename(), url: sanitizeUrl(download.url()), state: "in_progress" },
    };
    this.records.set(downloadId, record);
    this.report({ kind: "download", pageId, url: record.info.url, text: downloadId });
    this.evictOldest();
    void this.settle(record);
  }

  private evictOldest(): void {
    while (this.records.size > limits.downloads.perSession) {
      const [oldestId, oldest] = this.records.entries().next().value as [string, DownloadRecord];
      this.records.delete(oldestId);
      oldest.download.delete().catch(() => undefined);
    }
  }

  private async settle(record: DownloadRecord): Promise<void> {
    try {
      const path = await record.download.path();
      const { size } = await stat(path);
      if (size > this.maxBytes) {
        record.info = { ...record.info, state: "too_large", bytes: size, error: `larger than the ${this.maxBytes}-byte download limit; deleted` };
        await record.download.delete();
        return;
      }
      record.path = path;
      record.info = { ...record.info, state: "completed", bytes: size };
    } catch (error) {
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
