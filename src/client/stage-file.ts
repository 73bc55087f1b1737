/**
 * The host's side of the worker's staging route (neutral: fetch and web
 * streams only). Apart from `BrowserUseClient`, so that `/agent` (whose
 * model-facing tools never stage files) does not carry it.
 */
import * as v from "valibot";
import { OutcomeUnknownError, ProviderError } from "../errors.js";
import { WorkerDataBodySchema, WorkerErrorBodySchema, workerRoute } from "../protocol/wire.js";
import { StagedFileSchema, type StageFileInput, type StagedFile } from "../protocol/staging.js";
import type { CallContext } from "./call-context.js";
import { resolveClientOptions, type BrowserUseClientOptions } from "./options.js";
import { readBoundedText } from "./read-body.js";
import { workerError } from "./worker-errors.js";

/**
 * Stages a file for a worker session: streams the host's bytes or stream
 * (never a path) to `POST <route>/files`, where the worker hands it to the
 * provider's file API. Then `client.execute(sessionId, { op: "upload",
 * target, files: [{ staged: fileId }] })` sets it into a file input (it
 * never submits). Never retried; redirects are refused.
 *
 * @example
 * ```ts
 * const { fileId } = await stageFile(clientOptions, sessionId, { name: "clip.mp4", mimeType: "video/mp4", stream });
 * await client.execute(sessionId, { op: "upload", selector: "#media", files: [{ staged: fileId }] });
 * ```
 * @throws {ValidationError} for a bad file or one over the worker's staging bound;
 *   {@link OutcomeUnknownError} when the answer was lost after sending (stage it again: an unused staged file goes with the session).
 */
export async function stageFile(options: BrowserUseClientOptions, sessionId: string, file: StageFileInput, signal?: AbortSignal): Promise<StagedFile> {
  const resolved = resolveClientOptions(options);
  // Not a JSON method of the execution route, but named like one in errors ("worker method stageFile, station …").
  const context: CallContext = { method: "stageFile" as CallContext["method"], stationId: resolved.stationId, sessionId };
  const body = file.bytes ?? file.stream;
  const query = new URLSearchParams({ sessionId, name: file.name, ...(file.mimeType === undefined ? {} : { mimeType: file.mimeType }) });
  const url = `${resolved.baseUrl}${workerRoute(resolved.stationId, resolved.operator ? "operator" : "tenant")}/files?${query}`;
  const controller = new AbortController();
  const abort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", abort, { once: true });
  let response: Response;
  try {
    response = await resolved.fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${resolved.apiKey}`, accept: "application/json", "content-type": "application/octet-stream" },
      body: body as BodyInit,
      redirect: "manual",
      signal: controller.signal,
      // A stream body needs half duplex (fetch's rule); bytes do not mind it.
      duplex: "half",
    } as RequestInit);
  } catch (error) {
    signal?.removeEventListener("abort", abort);
    throw new OutcomeUnknownError(`stageFile: the request to the worker failed after it may have been sent; stage the file again (session ${sessionId})`, {
      cause: error,
    });
  }
  try {
    if (response.status >= 300 && response.status < 400) {
      throw new ProviderError(`stageFile: the worker answered with a redirect (HTTP ${response.status}); redirects are refused: check baseUrl`, { status: response.status });
    }
    const json = JSON.parse(await readBoundedText(response, 64 * 1024, controller.signal)) as unknown;
    if (response.status >= 400) {
      const failure = v.safeParse(WorkerErrorBodySchema, json);
      if (failure.success) throw workerError(failure.output.error.code, failure.output.error.message, response.status, context, failure.output.error.details);
    }
    const data = v.safeParse(WorkerDataBodySchema, json);
    const staged = data.success ? v.safeParse(StagedFileSchema, data.output.data) : undefined;
    if (!staged?.success) throw new ProviderError(`stageFile: the worker's answer (HTTP ${response.status}) is not a staged file (session ${sessionId})`, { status: response.status });
    return staged.output;
  } finally {
    signal?.removeEventListener("abort", abort);
  }
}
