import type { CommandOp } from "./commands.js";

/** Observation commands stay allowed while a human holds control; the rest mutate. */
export const observationOps: ReadonlySet<CommandOp> = new Set<CommandOp>([
  "pages",
  "waitFor",
  "downloads",
  "downloadRead",
  "inspect",
  "accessibility",
  "screenshot",
  "text",
  "content",
  "diagnostics",
  "challenge",
]);

/** True when the command only observes (allowed while a human holds control). */
export function isObservationCommand(command: { op: string }): boolean {
  return observationOps.has(command.op as CommandOp);
}
