/**
 * Browserbase's session downloads as the provider's `downloads` (neutral
 * code). As Browserbase's downloads guide says, the browser saves downloads
 * by their own name in `downloads` (`Browser.setDownloadBehavior` `allow`,
 * events on); Browserbase stores each finished one with a Unix timestamp
 * added to its name (`report.pdf` → `report-1719265797164.pdf`).
 * `sessions.downloads.list` (`GET /v1/sessions/{id}/downloads`, `Accept:
 * application/zip`) answers a zip of all of them: a read fetches it and
 * takes the newest entry of the file's name. Its API has no route to delete
 * one: a deleted download is forgotten here and stays in Browserbase's storage.
 */
import { NotFoundError, ProviderError } from "../../errors.js";
import { BodyTooLarge, readBoundedBytes } from "../../client/read-body.js";
import { limits } from "../../protocol/limits.js";
import { baseName, createRemoteDownloads } from "../hosted/remote-downloads.js";
import { unzipEntry, zipEntries, type ZipEntry } from "../hosted/unzip.js";
import type { ProviderDownloads } from "../types.js";

/** Where Browserbase's browser saves downloads (its guide's `downloadPath`). */
export const browserbaseDownloadFolder = "downloads";

/** The archive holds every download of the session, each at most the download limit. */
const archiveBytesMax = limits.downloads.fileBytes * limits.downloads.perSession;

type ListDownloads = (sessionId: string, signal: AbortSignal | undefined) => Promise<Response>;

/** The entry Browserbase stored `name` as: `name` itself or `<stem>-<timestamp><ext>`, the newest first. */
export function storedEntryOf(entries: readonly ZipEntry[], name: string): ZipEntry | undefined {
  const dot = name.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  let found: { entry: ZipEntry; stamp: number } | undefined;
  for (const entry of entries) {
    const stored = baseName(entry.name);
    if (!stored.startsWith(stem) || !stored.endsWith(ext)) continue;
    const middle = stored.slice(stem.length, stored.length - ext.length);
    const stamp = middle === "" ? 0 : /^-\d{1,16}$/.test(middle) ? Number(middle.slice(1)) : -1;
    if (stamp >= 0 && (!found || stamp >= found.stamp)) found = { entry, stamp };
  }
  return found?.entry;
}

export function createBrowserbaseDownloads(list: ListDownloads): ProviderDownloads {
  return createRemoteDownloads({
    folder: browserbaseDownloadFolder,
    behavior: "allow",
    async fetch(sessionId, path, signal) {
      const what = `browserbase: downloads of session ${sessionId}`;
      let archive: Uint8Array;
      try {
        archive = await readBoundedBytes(await list(sessionId, signal), archiveBytesMax, signal);
      } catch (error) {
        if (error instanceof BodyTooLarge) throw new ProviderError(`${what}: the archive is larger than ${archiveBytesMax} bytes`);
        throw error;
      }
      const name = baseName(path);
      const entry = storedEntryOf(zipEntries(archive, what), name);
      if (!entry) {
        throw new NotFoundError(`${name} is not in Browserbase's downloads of session ${sessionId} yet: Browserbase stores a finished download shortly after the browser saves it; read it again in a moment`);
      }
      return unzipEntry(archive, entry, limits.downloads.fileBytes, what);
    },
    // No delete: Browserbase's API has no route for it, so the stored file stays there.
  });
}
