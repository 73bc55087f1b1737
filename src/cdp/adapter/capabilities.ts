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
  "screenshot",
  "text",
  "evaluate",
  "accessibility",
  "inspect",
  "content",
  "diagnostics",
  "challenge",
];

/** The protocol's ops the CDP engine does not implement yet. */
export const cdpNotImplementedOps = (): CommandOp[] => commandOps.filter((op) => !cdpSupportedOps.includes(op));
