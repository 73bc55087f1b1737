/**
 * What the client accepts under `data`, per worker method: the protocol's
 * session shapes (src/protocol/sessions.ts) for the session-level methods,
 * where every field the caller relies on is required and typed (fields a
 * newer worker adds pass through); anything else is a malformed response.
 * Command results (`execute`, `action`) are checked against the protocol's
 * result schemas (src/protocol/results.ts) in the same way.
 */
import * as v from "valibot";
import {
  CheckpointSchema,
  ControlGrantSchema,
  ControlStateSchema,
  LiveFrameSchema,
  LiveViewAnswerSchema,
  ControlReleaseSchema,
  ManagedSessionInfoSchema,
  ReconcileReportSchema,
  RecordingFrameSchema,
  RecordingMetaSchema,
  type Checkpoint,
  type ControlGrant,
  type ControlState,
  type LiveFrame,
  type LiveViewAnswer,
  type ControlRelease,
  type ManagedSessionInfo,
  type ReconcileReport,
  type RecordingFrame,
  type RecordingMeta,
} from "../protocol/sessions.js";
import type { CommandOp } from "../protocol/commands.js";
import { formatIssuePath } from "../protocol/parse.js";
import { commandResultSchemas } from "../protocol/results.js";
import type { WorkerMethod } from "../protocol/wire.js";

/** Methods that return nothing: any `data` (the worker sends `null` or `{ ok: true }`) is accepted and dropped. */
const NothingSchema = v.unknown();

/** `data` of each worker method, except `execute`/`action` (see {@link commandResultSchema}). */
export const responseSchemas = {
  open: ManagedSessionInfoSchema,
  close: NothingSchema,
  list: v.array(ManagedSessionInfoSchema),
  liveFrame: LiveFrameSchema,
  liveView: LiveViewAnswerSchema,
  controlAcquire: ControlGrantSchema,
  controlRenew: ControlGrantSchema,
  controlRelease: ControlReleaseSchema,
  control: ControlStateSchema,
  checkpoint: CheckpointSchema,
  checkpoints: v.array(CheckpointSchema),
  resume: ManagedSessionInfoSchema,
  deleteCheckpoint: NothingSchema,
  recordingStart: RecordingMetaSchema,
  recordingStop: RecordingMetaSchema,
  recording: RecordingMetaSchema,
  recordings: v.array(RecordingMetaSchema),
  recordingFrame: RecordingFrameSchema,
  recordingDelete: NothingSchema,
  reconcile: v.array(ManagedSessionInfoSchema),
  reconcileAll: ReconcileReportSchema,
} satisfies Record<Exclude<WorkerMethod, "execute" | "action">, v.GenericSchema>;

/** The result the client returns for each method (the manager's own types). */
export interface ResponseDataMap {
  open: ManagedSessionInfo;
  close: void;
  list: ManagedSessionInfo[];
  liveFrame: LiveFrame;
  liveView: LiveViewAnswer;
  controlAcquire: ControlGrant;
  controlRenew: ControlGrant;
  controlRelease: ControlRelease;
  control: ControlState;
  checkpoint: Checkpoint;
  checkpoints: Checkpoint[];
  resume: ManagedSessionInfo;
  deleteCheckpoint: void;
  recordingStart: RecordingMeta;
  recordingStop: RecordingMeta;
  recording: RecordingMeta;
  recordings: RecordingMeta[];
  recordingFrame: RecordingFrame;
  recordingDelete: void;
  reconcile: ManagedSessionInfo[];
  reconcileAll: ReconcileReport;
}

// Compile-time check that each schema's output fits the type the client promises.
type SchemaFits<Method extends keyof ResponseDataMap> = v.InferOutput<(typeof responseSchemas)[Method]> extends ResponseDataMap[Method]
  ? true
  : ResponseDataMap[Method] extends void
    ? true
    : false;
type Assert<Condition extends true> = Condition;
type ResponseSchemasFit = Assert<{ [Method in keyof ResponseDataMap]: SchemaFits<Method> }[keyof ResponseDataMap]>;

/** The result of an op this client does not know (a newer worker's): passed on as it came. */
const UnknownOpResultSchema = v.unknown();
/** The first problem is the one reported: stop there. */
const firstIssueOnly = { abortEarly: true };

/**
 * The schema of a command result for `op`: the protocol's own
 * ({@link commandResultSchemas}), or for an op this client does not know
 * (which a worker refuses, unless it is newer) none.
 */
function commandResultSchema(op: unknown): v.GenericSchema {
  return typeof op === "string" && Object.hasOwn(commandResultSchemas, op) ? commandResultSchemas[op as CommandOp] : UnknownOpResultSchema;
}

/**
 * Why `data` is not a result of `op`, naming the first bad field
 * (`result.url: expected string, received 42`, `result.title: required`),
 * or `undefined` when it is one.
 */
export function commandResultProblem(op: unknown, data: unknown): string | undefined {
  const parsed = v.safeParse(commandResultSchema(op), data, firstIssueOnly);
  if (parsed.success) return undefined;
  const [issue] = parsed.issues;
  const problem = issue.received === "undefined" ? "required" : issue.expected === null ? issue.message : `expected ${issue.expected}, received ${issue.received}`;
  return `the ${String(op)} result does not match the protocol: ${formatIssuePath("result", issue)}: ${problem}`;
}
