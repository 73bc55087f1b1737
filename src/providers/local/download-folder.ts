import { mkdir, open, rm } from "node:fs/promises";
import { join, relative, isAbsolute } from "node:path";
import { ValidationError } from "../../errors.js";
import type { ProviderDownloads } from "../types.js";

/**
 * The local providers' downloads for the CDP engine: a folder per session on
 * this machine, where the local Chromium saves what it downloads; the bytes
 * are read back from the path the browser reported, in bounded chunks.
 * `folderOf` says where a session's folder goes (made on first use); a path
 * outside it is never read or deleted.
 */
export function createDownloadFolders(folderOf: (sessionId: string) => Promise<string>): ProviderDownloads {
  return {
    async folder(sessionId) {
      const folder = await folderOf(sessionId);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      return folder;
    },
    async read(sessionId, path, offset, length) {
      await assertInside(await folderOf(sessionId), path);
      const handle = await open(path, "r");
      try {
        const buffer = new Uint8Array(length);
        const { bytesRead } = await handle.read(buffer, 0, length, offset);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    async delete(sessionId, path) {
      await assertInside(await folderOf(sessionId), path);
      await rm(path, { force: true });
    },
  };
}

/** `<root>/downloads/<session>`: the download folder of a session under a provider's run directory. */
export const downloadFolderUnder = (root: () => Promise<string>) => async (sessionId: string) => join(await root(), "downloads", encodeURIComponent(sessionId));

async function assertInside(folder: string, path: string): Promise<void> {
  const inside = relative(folder, path);
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) throw new ValidationError("path", "a download outside the session's download folder is never read");
}
