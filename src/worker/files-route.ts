/**
 * The worker's staging route: `POST <execution route>/files?sessionId&name&mimeType`
 * with the file's raw bytes as the body (`application/octet-stream`). The
 * body is streamed to the manager's `stageFile` as it arrives; the engine
 * counts it and cancels it past its staging bound, so nothing is buffered
 * past that bound (and a declared `content-length` over it is refused before
 * reading). Answers `{ data: { fileId, name, size } }`.
 */
import { ValidationError } from "../errors.js";
import type { BrowserSessionManager } from "../lifecycle/manager.js";
import { limits } from "../protocol/limits.js";
import type { Answer } from "./answers.js";
import { dataAnswer } from "./answers.js";
import type { Caller } from "./auth.js";
import type { IncomingCall } from "./incoming.js";
import type { TenantScope } from "./tenant-scope.js";

/** The suffix of the staging route after either execution route. */
export const filesSuffix = "/files";

/** Streams one staged file into the manager; throws this package's errors (the worker turns them into answers). */
export async function stageFromCall(call: IncomingCall, caller: Caller, manager: BrowserSessionManager, scope: TenantScope, maxResponseBytes: number): Promise<Answer> {
  const query = call.query;
  const sessionId = query.get("sessionId");
  if (!sessionId) throw new ValidationError("query.sessionId", "required: the session to stage the file for");
  const name = query.get("name");
  if (!name) throw new ValidationError("query.name", "required: the file name");
  const mimeType = query.get("mimeType") ?? undefined;
  const declared = Number(call.header("content-length") ?? "0");
  if (declared > limits.staging.fileBytesMax) {
    throw new ValidationError("body", `${declared} bytes declared; at most ${limits.staging.fileBytesMax} bytes can be staged`);
  }
  scope.session(caller, sessionId);
  const staged = await manager.stageFile(sessionId, { name, ...(mimeType === undefined ? {} : { mimeType }), stream: call.bodyStream() }, call.signal);
  return dataAnswer(staged, maxResponseBytes, "stageFile");
}
