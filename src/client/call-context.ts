import type { OutcomeUnknownDetails } from "../errors.js";
import type { WorkerMethod } from "../protocol/wire.js";

/** What a call was about; every error of the client names it. */
export interface CallContext {
  method: WorkerMethod;
  stationId: string;
  sessionId?: string;
  openTag?: string;
  checkpointId?: string;
  recordingId?: string;
  /** An `execute` of a command that changes nothing (observation): a lost answer is not an unknown outcome. */
  observation?: boolean;
}

/** `worker method open, station local, open tag t-1`. */
export function describeCall(context: CallContext): string {
  const parts = [`worker method ${context.method}`, `station ${context.stationId}`];
  if (context.sessionId !== undefined) parts.push(`session ${context.sessionId}`);
  if (context.openTag !== undefined) parts.push(`open tag ${context.openTag}`);
  if (context.checkpointId !== undefined) parts.push(`checkpoint ${context.checkpointId}`);
  if (context.recordingId !== undefined) parts.push(`recording ${context.recordingId}`);
  return parts.join(", ");
}

const observeSession = (context: CallContext) =>
  `observe session ${context.sessionId} (pages, inspect or a screenshot) before retrying: the command may have run`;
const leaseState = (context: CallContext) => `control("${context.sessionId}") shows the lease state`;
const recordingState = (context: CallContext) => `recording("${context.recordingId}") shows its state`;

/** What to check when a mutation's outcome is unknown, per method. */
const outcomeHints: Partial<Record<WorkerMethod, (context: CallContext) => string>> = {
  open: (context) =>
    `call reconcile("${context.openTag}") to find the session and adopt or close it; ` +
    `opening again with the same openTag returns that session instead of a second one`,
  execute: observeSession,
  action: observeSession,
  close: (context) => `list() shows whether session ${context.sessionId} is still open (closing it again answers not_found once it is closed)`,
  controlAcquire: (context) =>
    `control("${context.sessionId}") shows whether a lease is held; if one is, its token is lost and it expires on its own`,
  controlRenew: leaseState,
  controlRelease: leaseState,
  checkpoint: (context) => `checkpoints() shows whether a checkpoint of session ${context.sessionId} was saved`,
  resume: (context) =>
    `call reconcile("${context.openTag}") to find the session resumed from checkpoint ${context.checkpointId}; ` +
    `resuming again with the same openTag returns that session instead of a second one`,
  deleteCheckpoint: (context) => `checkpoints() shows whether checkpoint ${context.checkpointId} is gone`,
  recordingStart: (context) => `recordings() shows whether a recording of session ${context.sessionId} started`,
  recordingStop: recordingState,
  recordingDelete: recordingState,
};

/** What the caller should check before doing anything else after an unknown outcome. */
export function outcomeHint(context: CallContext): string {
  return outcomeHints[context.method]?.(context) ?? "check the worker's state before retrying";
}

/** The ids of a call, for {@link OutcomeUnknownError}'s fields. */
export function outcomeDetails(context: CallContext): OutcomeUnknownDetails {
  const { method, sessionId, openTag, checkpointId, recordingId } = context;
  return {
    method,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(openTag === undefined ? {} : { openTag }),
    ...(checkpointId === undefined ? {} : { checkpointId }),
    ...(recordingId === undefined ? {} : { recordingId }),
  };
}
