import { ValidationError } from "../errors.js";
import { safeParseWith } from "../protocol/parse.js";
import { workerMethods, workerRequestSchemas, wireLimits, type WorkerMethod, type WorkerRequest } from "../protocol/wire.js";

/**
 * A body read up to a byte limit: its bytes, or the news that it was longer
 * (`too_large`) or that the large-body gate was full (`gate`).
 */
export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; receivedAtLeast: number; reason: "too_large" | "gate" };

/**
 * Admission for large bodies: once a body passes `threshold` bytes, `enter()`
 * must admit it, or reading stops. It bounds how many bodies of up to the
 * upload envelope are held in memory at once.
 */
export interface LargeBodyGate {
  threshold: number;
  enter(): boolean;
}

/** Reads a body, stopping (and dropping what came) as soon as it passes `limit` bytes or the gate refuses it. */
export type ReadBody = (limit: number, gate?: LargeBodyGate) => Promise<BodyRead>;

/** Tracks one body's size against the limit and the gate: the reason to stop, if any. */
export function bodyMeter(limit: number, gate: LargeBodyGate | undefined): (size: number) => "too_large" | "gate" | undefined {
  let admitted = false;
  return (size) => {
    if (size > limit) return "too_large";
    if (gate && !admitted && size > gate.threshold) {
      if (!gate.enter()) return "gate";
      admitted = true;
    }
    return undefined;
  };
}

/** A request failure found before anything ran: a 400 or 413. */
export class RequestRefusal extends Error {
  constructor(
    readonly code: "bad_request" | "payload_too_large",
    message: string,
  ) {
    super(message);
    this.name = "RequestRefusal";
  }
}

/** The most any request body may have on the wire: the envelope of an `upload` command. */
export const envelopeBytes = wireLimits.uploadRequestBytes;

/** A 413 for a body longer than `limit`. */
export function tooLarge(received: number, limit: number, exact: boolean): RequestRefusal {
  const size = exact ? `${received} bytes` : `more than ${limit} bytes`;
  const rule =
    limit >= envelopeBytes
      ? `at most ${envelopeBytes} bytes are accepted, even for an upload command`
      : `at most ${limit} bytes are accepted (${envelopeBytes} for an execute request with an upload command)`;
  return new RequestRefusal("payload_too_large", `The request body is ${size}; ${rule}. Nothing was executed.`);
}

/** Stateless between calls (no `stream` option), so one serves every request. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

const quote = (text: string, max: number) => JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);

/** Bytes → the JSON object of a worker request, or a 400 that says what is wrong. */
function decodeJson(bytes: Uint8Array): Record<string, unknown> {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new RequestRefusal("bad_request", "Malformed request body: it is not valid UTF-8");
  }
  if (text.trim() === "") throw new RequestRefusal("bad_request", 'Malformed JSON body: the body is empty; send a JSON object such as {"method":"list"}');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RequestRefusal("bad_request", `Malformed JSON body: ${(error as Error).message.slice(0, 200)}`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new RequestRefusal("bad_request", 'Malformed request: expected a JSON object with a "method" field');
  }
  return json as Record<string, unknown>;
}

function isUploadExecute(body: Record<string, unknown>): boolean {
  const command = body.command;
  return body.method === "execute" && typeof command === "object" && command !== null && (command as { op?: unknown }).op === "upload";
}

/**
 * Turns body bytes into a validated worker request: JSON, a known method,
 * the size rule (over `requestLimit` only for an upload command), then the
 * method's schema, whose failure names the field (`body.id: required`).
 *
 * @throws {RequestRefusal} 400 `bad_request` or 413 `payload_too_large`.
 * @throws {ValidationError} 400 `validation`, naming the field.
 */
export function parseWorkerRequest(bytes: Uint8Array, requestLimit: number): WorkerRequest {
  const oversize = bytes.byteLength > requestLimit;
  let body: Record<string, unknown>;
  try {
    body = decodeJson(bytes);
  } catch (error) {
    // Over the limit, the size is the first thing wrong with it.
    throw oversize ? tooLarge(bytes.byteLength, requestLimit, true) : error;
  }
  if (oversize && !isUploadExecute(body)) throw tooLarge(bytes.byteLength, requestLimit, true);
  const method = body.method;
  if (typeof method !== "string") {
    throw new RequestRefusal("bad_request", `Malformed request: "method" must be a string, one of ${workerMethods.join(", ")}`);
  }
  if (!(workerMethods as string[]).includes(method)) {
    throw new RequestRefusal("bad_request", `Unknown method ${quote(method, 64)}; expected one of ${workerMethods.join(", ")}`);
  }
  const parsed = safeParseWith(workerRequestSchemas[method as WorkerMethod], body, "body");
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

/** A field error about a request field, named from the body (`value` → `body.value`). */
export function bodyFieldError(error: ValidationError): ValidationError {
  return error.field.startsWith("body.") ? error : new ValidationError(`body.${error.field}`, error.message.slice(error.field.length + 2), { cause: error });
}
