/**
 * Downloads of one CDP engine session (neutral code), with the Playwright
 * engine's results and limits (src/engine/downloads.ts): the browser saves
 * each file in the provider's download folder, by its guid or, where the
 * provider says so (Browserbase), by its own name
 * (`Browser.setDownloadBehavior` `allowAndName` / `allow`, events on), and its own
 * events (`Browser.downloadWillBegin`, `Browser.downloadProgress`) give the
 * list — name, sanitised URL, state and size. A download that reports more
 * than `maxBytes` (received, or announced) is cancelled
 * (`Browser.cancelDownload`) and reported `too_large`; a finished one larger
 * than that is deleted and reported so too. At most
 * `limits.downloads.perSession` are kept (the oldest is cancelled and
 * deleted). The bytes are read back through the provider's downloads API, in
 * bounded chunks: no local disk is needed. A file the provider does not
 * have (yet) is a `NotFoundError` naming the download.
 */
import { isNotFoundError, NotFoundError, ValidationError } from "../../errors.js";
import { limits } from "../../protocol/limits.js";
import type { DownloadInfo, DownloadReadResult } from "../../protocol/results.js";
import { sanitizeUrl } from "../../protocol/url-policy.js";
import type { ProviderDownloads } from "../../providers/types.js";
import type { CdpConnection } from "../connection.js";
import type { CdpEvents } from "../protocol.js";
import type { DiagnosticsRing } from "../../protocol/diagnostics-ring.js";

interface DownloadRecord {
  info: DownloadInfo;
  guid: string;
  /** Where the browser saves it (on its machine). */
  path: string;
  /** Bytes seen when it passed the limit and was cancelled. */
  cancelledAt?: number;
}

/** What the store asks of the session: whether a frame is one of its pages', and that page's id. */
export type FrameOwner = (frameId: string) => string | undefined;

export class CdpDownloads {
  readonly #records = new Map<string, DownloadRecord>();
  readonly #byGuid = new Map<string, DownloadRecord>();
  #counter = 0;

  private constructor(
    readonly sessionId: string,
    readonly connection: CdpConnection,
    readonly provider: ProviderDownloads,
    readonly folder: string,
    readonly maxBytes: number,
    readonly diagnostics: DiagnosticsRing,
    readonly owner: FrameOwner,
  ) {
    const { browser } = connection;
    browser.on("Browser.downloadWillBegin", (event) => this.#begin(event));
    browser.on("Browser.downloadProgress", (event) => void this.#progress(event));
  }

  /** Points the browser's downloads at the provider's folder for the session, with events on, and follows them. */
  static async start(sessionId: string, connection: CdpConnection, provider: ProviderDownloads, maxBytes: number, diagnostics: DiagnosticsRing, owner: FrameOwner): Promise<CdpDownloads> {
    const folder = await provider.folder(sessionId);
    const downloads = new CdpDownloads(sessionId, connection, provider, folder, maxBytes, diagnostics, owner);
    await connection.browser.send("Browser.setDownloadBehavior", { behavior: provider.behavior ?? "allowAndName", downloadPath: folder, eventsEnabled: true });
    return downloads;
  }

  #begin(event: CdpEvents["Browser.downloadWillBegin"]): void {
    const pageId = this.owner(event.frameId);
    // The browser may be shared: only downloads of this session's pages are its own.
    if (pageId === undefined) return;
    const downloadId = `d${++this.#counter}`;
    const record: DownloadRecord = {
      guid: event.guid,
      // Until the browser reports where it saved the file (`downloadProgress` `filePath`).
      path: `${this.folder.replace(/[/\\]$/, "")}/${this.provider.behavior === "allow" ? event.suggestedFilename : event.guid}`,
      info: { downloadId, fileName: event.suggestedFilename, url: sanitizeUrl(event.url), state: "in_progress" },
    };
    this.#records.set(downloadId, record);
    this.#byGuid.set(event.guid, record);
    this.diagnostics.push({ kind: "download", pageId, url: record.info.url, text: downloadId });
    this.#evictOldest();
  }

  async #progress(event: CdpEvents["Browser.downloadProgress"]): Promise<void> {
    const record = this.#byGuid.get(event.guid);
    if (!record || record.info.state !== "in_progress") return;
    if (event.filePath) record.path = event.filePath;
    if (event.state === "inProgress") {
      const seen = Math.max(event.receivedBytes, event.totalBytes);
      if (seen > this.maxBytes && record.cancelledAt === undefined) {
        record.cancelledAt = event.receivedBytes;
        await this.connection.browser.send("Browser.cancelDownload", { guid: event.guid }).catch(() => undefined);
      }
      return;
    }
    this.#byGuid.delete(event.guid);
    if (event.state === "canceled") {
      if (record.cancelledAt !== undefined) {
        const at = Math.max(record.cancelledAt, event.receivedBytes);
        this.#tooLarge(record, at, `cancelled at ${at} bytes`);
      } else {
        record.info = { ...record.info, state: "failed", error: "canceled" };
      }
      // The browser drops the partial file on cancel; this removes whatever is left.
      await this.provider.delete(this.sessionId, record.path).catch(() => undefined);
      return;
    }
    if (event.receivedBytes > this.maxBytes || record.cancelledAt !== undefined) {
      this.#tooLarge(record, event.receivedBytes, "checked once complete");
      await this.provider.delete(this.sessionId, record.path).catch(() => undefined);
      return;
    }
    record.info = { ...record.info, state: "completed", bytes: event.receivedBytes };
  }

  #tooLarge(record: DownloadRecord, bytes: number, when: string): void {
    record.info = { ...record.info, state: "too_large", bytes, error: `larger than the ${this.maxBytes}-byte download limit (${when}); ${this.provider.deletes === false ? "dropped (the provider keeps its copy)" : "deleted"}` };
  }

  #evictOldest(): void {
    while (this.#records.size > limits.downloads.perSession) {
      const [oldestId, oldest] = this.#records.entries().next().value as [string, DownloadRecord];
      this.#records.delete(oldestId);
      void this.#forget(oldest);
    }
  }

  /** Cancels a download still arriving, and deletes its file. */
  async #forget(record: DownloadRecord): Promise<void> {
    const arriving = this.#byGuid.get(record.guid) === record;
    this.#byGuid.delete(record.guid);
    if (arriving) await this.connection.browser.send("Browser.cancelDownload", { guid: record.guid }).catch(() => undefined);
    await this.provider.delete(this.sessionId, record.path).catch(() => undefined);
  }

  list(): DownloadInfo[] {
    return [...this.#records.values()].map((record) => record.info);
  }

  #get(downloadId: string): DownloadRecord {
    const record = this.#records.get(downloadId);
    if (!record) throw new NotFoundError(`Download ${downloadId} does not exist; list them with { op: "downloads" }`);
    return record;
  }

  async read(downloadId: string, offset = 0, length: number = limits.downloads.readBytesMax, signal?: AbortSignal): Promise<DownloadReadResult> {
    const record = this.#get(downloadId);
    if (record.info.state !== "completed") throw new ValidationError("command.downloadId", `download ${downloadId} is ${record.info.state}, not completed`);
    const totalBytes = record.info.bytes ?? 0;
    if (offset > totalBytes) throw new ValidationError("command.offset", `past the end of the ${totalBytes}-byte download`);
    const bytes = await this.provider.read(this.sessionId, record.path, offset, Math.min(length, totalBytes - offset), signal).catch((error: unknown) => {
      throw isNotFoundError(error) ? new NotFoundError(`download ${downloadId} (${record.info.fileName}): ${error.message}`, { cause: error }) : error;
    });
    return { downloadId, offset, bytes: bytes.byteLength, totalBytes, base64: toBase64(bytes), more: offset + bytes.byteLength < totalBytes };
  }

  async delete(downloadId: string): Promise<void> {
    const record = this.#get(downloadId);
    this.#records.delete(downloadId);
    await this.#forget(record);
  }
}

/** Standard base64 of `bytes`, with web APIs only (`btoa` over chunks). */
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  const chunk = 0x8000;
  for (let index = 0; index < bytes.length; index += chunk) binary += String.fromCharCode(...bytes.subarray(index, index + chunk));
  return btoa(binary);
}
