/**
 * What the client accepts under `data`, per worker method: the protocol's
 * session shapes (src/protocol/sessions.ts) for the session-level methods,
 * where every field the caller relies on is required and typed (fields a
 * newer worker adds pass through); anything else is a malformed response.
 */
import * as v from "valibot";
import {
  CheckpointSchema,
  ControlGrantSchema,
  ControlStateSchema,
  ManagedSessionInfoSchema,
  ReconcileReportSchema,
  RecordingFrameSchema,
  RecordingMetaSchema,
  type Checkpoint,
  type ControlGrant,
  type ControlState,
  type ManagedSessionInfo,
  type ReconcileReport,
  type RecordingFrame,
  type RecordingMeta,
} from "../protocol/sessions.js";
import type { WorkerMethod } from "../protocol/wire.js";

const text = v.string();
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** Methods that return nothing: any `data` (the worker sends `null` or `{ ok: true }`) is accepted and dropped. */
const NothingSchema = v.unknown();

/** `data` of each worker method, except `execute`/`action` (see {@link commandResultSchema}). */
export const responseSchemas = {
  open: ManagedSessionInfoSchema,
  close: NothingSchema,
  list: v.array(ManagedSessionInfoSchema),
  liveFrame: RecordingFrameSchema,
  controlAcquire: ControlGrantSchema,
  controlRenew: ControlGrantSchema,
  controlRelease: NothingSchema,
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
  liveFrame: RecordingFrame;
  controlAcquire: ControlGrant;
  controlRenew: ControlGrant;
  controlRelease: void;
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

/** An action's change in visible text (`textChange: true`): optional, and checked when present. */
const textChange = v.optional(v.looseObject({ added: v.array(text), removed: v.array(text), addedCount: count, removedCount: count }));

/** Commands whose result carries data besides (or instead of) `ok: true` (see `src/protocol/results.ts`). */
const dataResultSchemas: Record<string, v.GenericSchema> = {
  pages: v.looseObject({ pages: v.array(v.looseObject({ pageId: text, url: text })), selectedPageId: text }),
  downloads: v.looseObject({ downloads: v.array(v.looseObject({ downloadId: text })) }),
  downloadRead: v.looseObject({ downloadId: text, base64: text, more: v.boolean() }),
  inspect: v.looseObject({ elements: v.array(v.looseObject({ tag: text })), truncated: v.boolean() }),
  accessibility: v.looseObject({ snapshot: text, truncated: v.boolean() }),
  screenshot: v.looseObject({
    mimeType: v.picklist(["image/png", "image/jpeg"]),
    base64: text,
    width: count,
    height: count,
  }),
  text: v.looseObject({ text, truncated: v.boolean(), url: text, title: text }),
  content: v.looseObject({ html: text, truncated: v.boolean() }),
  evaluate: v.looseObject({}),
  diagnostics: v.looseObject({ events: v.array(v.looseObject({})) }),
  challenge: v.looseObject({ state: v.picklist(["none", "challenge", "blocked", "throttled"]), evidence: v.array(text) }),
  traceStop: v.looseObject({ mimeType: text, base64: text }),
  // `sensitive` may be absent (an older worker): callers then treat the text as a password.
  fill: v.looseObject({ ok: v.literal(true), sensitive: v.optional(v.boolean()), textChange }),
  type: v.looseObject({ ok: v.literal(true), sensitive: v.optional(v.boolean()), textChange }),
};

/** Every other command (navigation, interaction, `waitFor`, `dialog`, …) reports `ok: true`. */
const ActionLikeResultSchema = v.looseObject({ ok: v.literal(true), textChange });

/** The schema of a command result for `op` (an unknown op is refused by the worker before this matters). */
export function commandResultSchema(op: unknown): v.GenericSchema {
  const schema = typeof op === "string" && Object.hasOwn(dataResultSchemas, op) ? dataResultSchemas[op] : undefined;
  return schema ?? ActionLikeResultSchema;
}
