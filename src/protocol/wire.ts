/**
 * The worker's HTTP wire format (DESIGN.md "Worker and client"): one JSON POST
 * route per station, `{ "method": … }` bodies, `{ "data": … }` on success and
 * `{ "error": { "code", "message", "details" } }` on failure. The worker parses requests
 * with these schemas and the client validates responses with them; nothing
 * else declares a wire shape.
 */
import * as v from "valibot";
import { errorFamily, type StationBrowserErrorCode, type StationBrowserErrorDetails } from "../errors.js";
import { integerIn, nonEmptyString } from "./fields.js";
import { callerLimits } from "./limits.js";
import { OpenOptionsSchema } from "./open-options.js";
import { performActions } from "./perform.js";

const sessionId = nonEmptyString(128, "session id");
const opaqueId = (what: string) => v.pipe(nonEmptyString(128, what), v.regex(/^[A-Za-z0-9_.:-]+$/, `expected a ${what}`));
const token = nonEmptyString(256, "control token");
const ttlMs = v.optional(integerIn(callerLimits.manager.controlTtlMinMs, callerLimits.manager.controlTtlMaxMs));
const request = <const Method extends string, const Entries extends v.ObjectEntries>(method: Method, entries: Entries) =>
  v.strictObject({ method: v.literal(method), ...entries });

/** One schema per worker method. `command` is checked by the command parser, not here. */
export const workerRequestSchemas = {
  open: request("open", { options: v.optional(OpenOptionsSchema) }),
  execute: request("execute", { id: sessionId, command: v.unknown(), controlToken: v.optional(token) }),
  action: request("action", {
    id: sessionId,
    action: v.picklist(performActions, `expected one of ${performActions.join(", ")}`),
    value: v.optional(v.string("expected a string")),
    controlToken: v.optional(token),
  }),
  close: request("close", { id: sessionId, controlToken: v.optional(token) }),
  list: request("list", {}),
  liveFrame: request("liveFrame", { id: sessionId }),
  liveView: request("liveView", { id: sessionId, ttlMs: v.optional(integerIn(callerLimits.liveView.tokenTtlMinMs, callerLimits.liveView.tokenTtlMaxMs)) }),
  controlAcquire: request("controlAcquire", { id: sessionId, ttlMs }),
  controlRenew: request("controlRenew", { id: sessionId, token, ttlMs }),
  controlRelease: request("controlRelease", { id: sessionId, token }),
  control: request("control", { id: sessionId }),
  checkpoint: request("checkpoint", { id: sessionId }),
  checkpoints: request("checkpoints", {}),
  resume: request("resume", { checkpointId: opaqueId("checkpoint id"), openTag: v.optional(opaqueId("open tag")) }),
  deleteCheckpoint: request("deleteCheckpoint", { checkpointId: opaqueId("checkpoint id") }),
  recordingStart: request("recordingStart", { id: sessionId }),
  recordingStop: request("recordingStop", { recordingId: opaqueId("recording id") }),
  recording: request("recording", { recordingId: opaqueId("recording id") }),
  recordings: request("recordings", {}),
  recordingFrame: request("recordingFrame", { recordingId: opaqueId("recording id"), frameId: opaqueId("frame id") }),
  recordingDelete: request("recordingDelete", { recordingId: opaqueId("recording id") }),
  reconcile: request("reconcile", { openTag: opaqueId("open tag") }),
  reconcileAll: request("reconcileAll", { adopt: v.optional(v.boolean("expected true or false")) }),
} as const;

/** Every worker method. */
export type WorkerMethod = keyof typeof workerRequestSchemas;
export const workerMethods = /* @__PURE__ */ Object.keys(workerRequestSchemas) as WorkerMethod[];

/** A request body of the given method. */
export type WorkerRequest<Method extends WorkerMethod = WorkerMethod> = v.InferOutput<(typeof workerRequestSchemas)[Method]>;

/**
 * Methods that change nothing: the client retries them on network errors and
 * 502/503/504. Every other method is a mutation and is never retried.
 */
export const readMethods: ReadonlySet<WorkerMethod> = new Set<WorkerMethod>([
  "list",
  "liveFrame",
  "liveView",
  "control",
  "checkpoints",
  "recording",
  "recordings",
  "recordingFrame",
  "reconcile",
]);

/** Methods a draining worker still serves. */
export const drainingMethods: ReadonlySet<WorkerMethod> = new Set<WorkerMethod>([
  "list",
  "close",
  "control",
  "reconcile",
  "reconcileAll",
  // Cleanup is not new work: a human can hand control back, recordings can stop, old state can go.
  "controlRelease",
  "recordingStop",
  "deleteCheckpoint",
  "recordingDelete",
]);

/** Methods only the operator may call (not a tenant key, nor the token acting as a tenant). */
export const operatorMethods: ReadonlySet<WorkerMethod> = new Set<WorkerMethod>(["reconcileAll"]);

/** Error codes the worker adds to the package's own. */
export type WorkerErrorCode = StationBrowserErrorCode | "bad_request";

/** The HTTP status each error code is sent with: the family's (see `errorFamily`), and 400 for `bad_request`. */
export const errorStatus: Readonly<Record<WorkerErrorCode, number>> = /* @__PURE__ */ statusTable();

function statusTable(): Record<WorkerErrorCode, number> {
  const table = { bad_request: 400 } as Record<WorkerErrorCode, number>;
  for (const [code, { status }] of Object.entries(errorFamily)) table[code as StationBrowserErrorCode] = status;
  return table;
}

const optionalString = v.optional(v.string());
const optionalNumber = v.optional(v.number());

/**
 * The `details` of a failure body: the data its error carries (which fields
 * each code has is in `errorFamily`). Unknown fields are let through, so a
 * newer worker may add some; a known field of the wrong type makes the
 * answer unreadable, like any malformed answer.
 */
export const WorkerErrorDetailsSchema = v.looseObject({
  field: optionalString,
  ref: optionalString,
  count: optionalNumber,
  retryAfterMs: optionalNumber,
  status: optionalNumber,
  requestId: optionalString,
  method: optionalString,
  sessionId: optionalString,
  openTag: optionalString,
  checkpointId: optionalString,
  recordingId: optionalString,
} satisfies { [Field in keyof StationBrowserErrorDetails]-?: v.GenericSchema<undefined | StationBrowserErrorDetails[Field]> });

/** A failure body. Older workers leave `details` out. */
export const WorkerErrorBodySchema = v.strictObject({
  error: v.strictObject({ code: v.string(), message: v.string(), details: v.optional(WorkerErrorDetailsSchema) }),
});

/** A success body; `data` is checked per method by the client. */
export const WorkerDataBodySchema = v.strictObject({ data: v.unknown() });

/** Request bodies: 128 KiB, or 8 MiB for an `upload` command. Responses: 33 MiB. */
export const wireLimits = {
  requestBytes: 128 * 1024,
  uploadRequestBytes: 8 * 1024 * 1024,
  responseBytes: 33 * 1024 * 1024,
  tokenMinLength: 32,
} as const;

/** The route of a station, operator or tenant, with the station id encoded. */
export function workerRoute(stationId: string, scope: "operator" | "tenant"): string {
  const station = encodeURIComponent(stationId);
  return scope === "operator" ? `/api/v1/stations/${station}/execution/browser` : `/api/v1/tenant/stations/${station}/execution/browser`;
}
