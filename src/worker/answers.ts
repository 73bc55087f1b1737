import { errorDetails, isStationBrowserError, type StationBrowserErrorDetails } from "../errors.js";
import { errorStatus, type WorkerErrorCode } from "../protocol/wire.js";
import { RequestRefusal } from "./body.js";

/** An HTTP answer, independent of the server that sends it. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer>;
  /** The request body was left unread: close the connection after answering. */
  closeConnection?: boolean;
  /** A body sent as it comes (server-sent events) instead of `body`. */
  stream?: ReadableStream<Uint8Array>;
}

const encoder = new TextEncoder();

const baseHeaders = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return { status, headers: { ...baseHeaders, ...headers }, body: encoder.encode(JSON.stringify(body)) };
}

/** `{ "error": { code, message, details } }` with the status of the code (or `status` when given). */
export function errorAnswer(
  code: WorkerErrorCode,
  message: string,
  options: { status?: number; headers?: Record<string, string>; details?: StationBrowserErrorDetails } = {},
): Answer {
  return json(options.status ?? errorStatus[code] ?? 500, { error: { code, message, details: options.details ?? {} } }, options.headers);
}

/** `details` with `redact` applied to every text in it (a field path or an id may quote what a caller sent). */
function redactDetails(details: StationBrowserErrorDetails, redact: (text: string) => string): StationBrowserErrorDetails {
  return Object.fromEntries(Object.entries(details).map(([field, value]) => [field, typeof value === "string" ? redact(value) : value]));
}

/**
 * `{ "data": … }` with 200, or a `payload_too_large` failure (500: the request
 * was fine, the answer is what is too big) when the body exceeds `maxBytes`.
 * The operation did run; the message says so.
 */
export function dataAnswer(data: unknown, maxBytes: number, what: string): Answer {
  const body = encoder.encode(JSON.stringify({ data: data === undefined ? null : data }));
  if (body.byteLength <= maxBytes) return { status: 200, headers: { ...baseHeaders }, body };
  return errorAnswer(
    "payload_too_large",
    `The answer to ${what} is ${body.byteLength} bytes, over this worker's ${maxBytes}-byte response limit. ${what} did run and its effects stand; only its answer was dropped. Ask for less (a smaller screenshot, a lower maxBytes) rather than repeating it.`,
    { status: 500 },
  );
}

/**
 * The answer for a failure. Errors of this package keep their code, message
 * and details (with any secret in `redact` removed from each text); anything
 * else is `internal` with a generic message, reported to `report` instead.
 */
export function failureAnswer(error: unknown, method: string | undefined, redact: (text: string) => string, report: (error: unknown) => void): Answer {
  if (error instanceof RequestRefusal) return errorAnswer(error.code, redact(error.message));
  if (isStationBrowserError(error)) return errorAnswer(error.code, redact(error.message), { details: redactDetails(errorDetails(error), redact) });
  report(error);
  return errorAnswer("internal", `Internal error while handling ${method ?? "the request"}; the worker's log has the details`);
}
