import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ProviderFiles, StagingFile } from "../types.js";

/**
 * The local provider's file API: a staging folder per session under the
 * provider's run directory (`<run>/staging/<session>/<n>/<name>`), removed
 * when the session is released (and with the run directory at shutdown).
 * Its paths are on this machine, where the local browser reads them.
 */
export interface SessionStagingFolders extends ProviderFiles {
  /** Removes a session's staging folder (idempotent). */
  remove(sessionId: string): Promise<void>;
}

export function createSessionStagingFolders(runPath: () => Promise<string>): SessionStagingFolders {
  let counter = 0;
  const folder = async (sessionId: string) => join(await runPath(), "staging", encodeURIComponent(sessionId));
  return {
    async stage(sessionId: string, file: StagingFile): Promise<{ path: string }> {
      const directory = join(await folder(sessionId), String(++counter));
      await mkdir(directory, { recursive: true, mode: 0o700 });
      const path = join(directory, file.name);
      await pipeline(Readable.fromWeb(file.data.stream() as import("node:stream/web").ReadableStream<Uint8Array>), createWriteStream(path, { flags: "wx", mode: 0o600 }));
      return { path };
    },
    async remove(sessionId: string): Promise<void> {
      await rm(await folder(sessionId), { recursive: true, force: true });
    },
  };
}
