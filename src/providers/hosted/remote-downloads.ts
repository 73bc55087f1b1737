/**
 * A hosted provider's downloads for the CDP engine (neutral code): the
 * session's browser saves each download on the provider's machine, and its
 * bytes come back through the provider's file API, whole, when read. A read
 * from offset 0 fetches the file afresh; the chunks after it come from that
 * copy (one file held at a time, dropped once its last chunk is read or it is
 * deleted), so a file is not fetched once per chunk.
 */
import type { ProviderDownloads } from "../types.js";

/** What a provider's file API does for {@link createRemoteDownloads}. */
export interface RemoteDownloadFiles {
  /** Where the browser saves downloads, as a path on the provider's machine. */
  folder: string;
  /** How the browser names them (`Browser.setDownloadBehavior`'s `behavior`). */
  behavior: "allow" | "allowAndName";
  /** The whole file the browser saved at `path`; `NotFoundError` when the provider does not have it (yet). */
  fetch(sessionId: string, path: string, signal?: AbortSignal): Promise<Uint8Array>;
  /** Deletes it on the provider's side (idempotent); absent where its API cannot. */
  delete?(sessionId: string, path: string): Promise<void>;
}

export function createRemoteDownloads(files: RemoteDownloadFiles): ProviderDownloads {
  let held: { sessionId: string; path: string; bytes: Uint8Array } | undefined;
  const holds = (sessionId: string, path: string) => held?.sessionId === sessionId && held.path === path;
  return {
    behavior: files.behavior,
    deletes: files.delete !== undefined,
    folder: async () => files.folder,
    async read(sessionId, path, offset, length, signal) {
      if (offset === 0 || !holds(sessionId, path)) held = { sessionId, path, bytes: await files.fetch(sessionId, path, signal) };
      const { bytes } = held!;
      if (offset + length >= bytes.byteLength) held = undefined;
      return bytes.slice(offset, offset + length);
    },
    async delete(sessionId, path) {
      if (holds(sessionId, path)) held = undefined;
      await files.delete?.(sessionId, path);
    },
  };
}

/** The last segment of a path as the browser reported it (`/` or `\` separated). */
export const baseName = (path: string): string => path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
