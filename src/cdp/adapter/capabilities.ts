import { commandOps, type CommandOp } from "../../protocol/commands.js";

/**
 * The commands the CDP engine implements today; every other op of the
 * protocol is refused with `NotImplementedError` naming it.
 */
export const cdpSupportedOps: readonly CommandOp[] = [
  "navigate",
  "back",
  "forward",
  "reload",
  "newPage",
  "pages",
  "selectPage",
  "closePage",
  "dialog",
  "click",
  "fill",
  "type",
  "press",
  "select",
  "check",
  "uncheck",
  "hover",
  "focus",
  "scroll",
  "waitFor",
  "mouseClick",
  "mouseMove",
  "drag",
  "dragCoordinates",
  "upload",
  "downloads",
  "downloadRead",
  "downloadDelete",
  "screenshot",
  "text",
  "evaluate",
  "accessibility",
  "inspect",
  "content",
  "diagnostics",
  "challenge",
];

/** The download ops: they need the provider's downloads API (`BrowserProvider.downloads`). */
export const cdpDownloadOps: readonly CommandOp[] = ["downloads", "downloadRead", "downloadDelete"];

/** The ops the CDP engine runs with a provider (the download ops only when it has a downloads API). */
export const cdpOpsFor = (provider: { downloads?: unknown }): CommandOp[] => cdpSupportedOps.filter((op) => provider.downloads !== undefined || !cdpDownloadOps.includes(op));

/** The protocol's ops the CDP engine does not implement yet (with a provider: for that provider). */
export const cdpNotImplementedOps = (provider: { downloads?: unknown } = { downloads: true }): CommandOp[] => {
  const ops = cdpOpsFor(provider);
  return commandOps.filter((op) => !ops.includes(op));
};
