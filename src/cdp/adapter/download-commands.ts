/**
 * downloads · downloadRead · downloadDelete on the CDP engine: the session's
 * downloads as its browser reported them (`downloads.ts`), read back through
 * the provider's downloads API. A provider without one has them refused as
 * not implemented, naming it. A read's call to the provider (a hosted
 * provider's REST API) is cancelled at the command's deadline or with the
 * caller's signal: it fails, never hangs, and is not retried.
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
    const budget = AbortSignal.timeout(Math.max(0, context.deadlineAt - Date.now()));
    const signal = context.signal ? AbortSignal.any([context.signal, budget]) : budget;
    return downloadsOf(context, "downloadRead").read(command.downloadId, command.offset, command.length, signal);
  },

  async downloadDelete(context, command) {
    await downloadsOf(context, "downloadDelete").delete(command.downloadId);
    return { ok: true, downloadId: command.downloadId };
  },
};
