/**
 * downloads · downloadRead · downloadDelete on the CDP engine: the session's
 * downloads as its browser reported them (`downloads.ts`), read back through
 * the provider's downloads API. A provider without one has them refused as
 * not implemented, naming it.
 */
import { NotImplementedError } from "../../errors.js";
import type { CdpCommandContext, CdpHandlers } from "./context.js";
import type { CdpDownloads } from "./downloads.js";

function downloadsOf(context: CdpCommandContext, op: string): CdpDownloads {
  if (!context.downloads) {
    throw new NotImplementedError(`${op}: the ${context.providerName} provider has no downloads API the CDP engine can read files back through, so its downloads are not implemented`);
  }
  return context.downloads;
}

/** downloads · downloadRead · downloadDelete */
export const downloadHandlers: CdpHandlers<"downloads" | "downloadRead" | "downloadDelete"> = {
  async downloads(context) {
    return { downloads: downloadsOf(context, "downloads").list() };
  },

  async downloadRead(context, command) {
    return downloadsOf(context, "downloadRead").read(command.downloadId, command.offset, command.length, context.signal);
  },

  async downloadDelete(context, command) {
    await downloadsOf(context, "downloadDelete").delete(command.downloadId);
    return { ok: true, downloadId: command.downloadId };
  },
};
