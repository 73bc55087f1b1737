import * as v from "valibot";
import {
  ActionFailedError,
  OutcomeUnknownError,
  PayloadTooLargeError,
  ProviderError,
  TimeoutError,
  ValidationError,
  isStationBrowserError,
  type StationBrowserError,
  type StationBrowserErrorDetails,
} from "../errors.js";
import { commandBudgetMs } from "../protocol/budget.js";
import { isObservationCommand } from "../protocol/command-ops.js";
import { callerLimits } from "../protocol/limits.js";
import type { BrowserCommand } from "../protocol/commands.js";
import { formatIssuePath, parseWith } from "../protocol/parse.js";
import { WorkerDataBodySchema, WorkerErrorBodySchema, readMethods, wireLimits, workerRequestSchemas, workerRoute } from "../protocol/wire.js";
import { Redactor } from "../redact.js";
import { describeCall, outcomeDetails, outcomeHint, type CallContext } from "./call-context.js";
import type { ResolvedBrowserUseClientOptions } from "./options.js";
import { BodyTooLarge } from "./read-body.js";
import { postFor, type HttpPost } from "./http-post.js";
import { workerError } from "./worker-errors.js";
import { neverSent } from "./never-sent.js";

const retryStatuses = [502, 503, 504];
/** Added to a command's own time budget for the worker's watchdog and the trip there and back. */
const commandMarginMs = 15_000;
/** Longest piece of server-provided text quoted in an error message. */
const quoteLimit = 2000;
const encoder = new TextEncoder();

/** One HTTP answer, read in full. */
interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** The worker is draining: a definite refusal, never retried. */
  draining: boolean;
}

/** Reads, and `execute` of an observation command: losing their answer leaves nothing unknown. */
const changesNothing = (context: CallContext): boolean => readMethods.has(context.method) || context.observation === true;

/** True for a worker's `{ "error": { "code": "draining" } }` body. */
function isDrainingAnswer(text: string): boolean {
  const parsed = v.safeParse(WorkerErrorBodySchema, safeJson(text));
  return parsed.success && parsed.output.error.code === "draining";
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Per-call state shared with the POST loop. */
interface Attempt {
  context: CallContext;
  read: boolean;
  signal: AbortSignal;
  /** True once a request may have left this process. */
  sent: boolean;
  /** This call's deadline (ms). */
  timeoutMs: number;
  answer?: Answer;
}

/**
 * The HTTP side of {@link BrowserUseClient}: one POST per call through the
 * given `fetch`, or on Node over `node:http` (`http-post.ts`); a small loop
 * of its own rather than ky, which weighed 14 KB of the `/agent` bundle for
 * one POST and a retry,
 * with redirects refused, reads retried, mutations never retried, bounded
 * bodies, one deadline per call and every failure mapped into the package's
 * error family. The API key is scrubbed from every message it builds, in
 * every form (JSON, URL-encoded, base64, …) and any start of 8 or more characters.
 */
export class WorkerTransport {
  // Private fields: the API key inside stays out of `console.log` and JSON.
  readonly #options: ResolvedBrowserUseClientOptions;
  /** Hides the API key in every form a worker or a network error may quote it in. */
  readonly #redactor = new Redactor();
  readonly #headers: Record<string, string>;
  readonly #url: string;
  readonly #post: HttpPost;

  constructor(options: ResolvedBrowserUseClientOptions) {
    this.#options = options;
    this.#post = postFor(options.fetch, options.ownFetch);
    this.#redactor.add(options.apiKey, "[redacted]");
    this.#url = options.baseUrl + workerRoute(options.stationId, options.operator ? "operator" : "tenant");
    this.#headers = { authorization: `Bearer ${options.apiKey}`, accept: "application/json", "content-type": "application/json" };
  }

  /** The worker's base URL (no trailing slash): where its other pages, such as the live view, live. */
  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  /** Sends `body`, returns its validated `data`. Throws a package error for every failure. */
  async call<const Schema extends v.GenericSchema>(
    context: CallContext,
    body: Record<string, unknown>,
    schema: Schema,
    signal?: AbortSignal,
  ): Promise<v.InferOutput<Schema>> {
    const data = await this.#send(context, body, signal);
    const result = v.safeParse(schema, data);
    if (result.success) return result.output;
    const issue = result.issues[0];
    throw this.unreadable(context, 200, `${formatIssuePath("data", issue)}: ${issue.message}`);
  }

  /** A malformed answer: for a mutation whose worker may have acted, the outcome is unknown. */
  unreadable(context: CallContext, status: number, reason: string): StationBrowserError {
    const what = `the worker's answer could not be read (HTTP ${status}, ${this.#quote(reason, 300)})`;
    const workerMayHaveActed = status < 300 || status >= 500;
    if (!changesNothing(context) && workerMayHaveActed) {
      return new OutcomeUnknownError(`${context.method}: ${what}; it may have run (${describeCall(context)}). To find out: ${outcomeHint(context)}`, outcomeDetails(context));
    }
    return new ProviderError(`${context.method}: ${what} (${describeCall(context)})`, { status });
  }

  async #send(context: CallContext, body: Record<string, unknown>, callerSignal?: AbortSignal): Promise<unknown> {
    const json = this.#encode(context, body);
    if (callerSignal?.aborted) throw new ActionFailedError(`${context.method}: cancelled before it was sent (${describeCall(context)})`);
    const deadline = new AbortController();
    const timeoutMs = this.#deadlineMs(body);
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, deadline.signal]) : deadline.signal;
    const read = readMethods.has(context.method);
    const attempt: Attempt = { context, read, signal, sent: false, timeoutMs };
    try {
      await this.#exchange(attempt, json);
    } catch (error) {
      throw this.#transportFailure(attempt, error, deadline.signal.aborted && !callerSignal?.aborted);
    } finally {
      clearTimeout(timer);
    }
    if (attempt.answer === undefined) throw this.unreadable(context, 0, "no answer was recorded");
    return this.#interpret(context, attempt.answer);
  }

  /**
   * The call's deadline: the client's `timeoutMs`, stretched for a command
   * given a longer `timeoutMs` of its own or a typing cadence (its time
   * budget, plus the longest pacing wait for a mutation, plus a margin for
   * the worker's watchdog), so a slow but legal command is not cut off.
   */
  #deadlineMs(body: Record<string, unknown>): number {
    const command = body.command as BrowserCommand | undefined;
    if (body.method !== "execute" || typeof command !== "object" || command === null || !("timeoutMs" in command || "keyDelaysMs" in command)) {
      return this.#options.timeoutMs;
    }
    const pacing = isObservationCommand(command) ? 0 : callerLimits.pacing.waitMaxMs;
    return Math.max(this.#options.timeoutMs, commandBudgetMs(command) + pacing + commandMarginMs);
  }

  /** Validates the request against the wire schema and its size limit: nothing is sent when either fails. */
  #encode(context: CallContext, body: Record<string, unknown>): string {
    parseWith(workerRequestSchemas[context.method], body, context.method);
    let json: string;
    try {
      json = JSON.stringify(body);
    } catch (error) {
      throw new ValidationError(`${context.method}.command`, "expected JSON-compatible values", { cause: error });
    }
    const command = body.command as { op?: unknown } | undefined;
    const limit = command?.op === "upload" ? wireLimits.uploadRequestBytes : wireLimits.requestBytes;
    // UTF-8 takes at most 3 bytes per UTF-16 unit: a short body is under the limit without counting its bytes.
    if (json.length * 3 <= limit) return json;
    const bytes = encoder.encode(json).byteLength;
    if (bytes > limit) {
      throw new PayloadTooLargeError(`${context.method}: the request is ${bytes} bytes; at most ${limit} are accepted; nothing was sent (${describeCall(context)})`);
    }
    return json;
  }

  /**
   * The POST, and for a read its retries: after a network failure or a
   * 502/503/504 (not a draining worker's 503, which is final), waiting
   * `delayMs` doubled per retry up to `maxDelayMs`. Our own refusals (a
   * redirect, an oversize answer) and cancellations are final; so is every
   * failure of a mutation. A read whose retries end on 502/503/504 leaves its
   * last answer in `attempt.answer`, interpreted like any other.
   */
  async #exchange(attempt: Attempt, json: string): Promise<void> {
    const { limit, delayMs, maxDelayMs, sleep = pause } = this.#options.retry;
    for (let retry = 0; ; retry++) {
      const last = !attempt.read || retry >= limit;
      try {
        const answer = await this.#postOnce(attempt, json);
        if (last || answer.draining || !retryStatuses.includes(answer.status)) return;
      } catch (error) {
        if (last || isStationBrowserError(error) || attempt.signal.aborted) throw error;
      }
      await sleep(Math.min(delayMs * 2 ** retry, maxDelayMs), attempt.signal);
    }
  }

  /** One POST: refuses redirects and reads the whole body (bounded), so a body cut off counts as a network error. */
  async #postOnce(attempt: Attempt, json: string): Promise<Answer> {
    attempt.signal.throwIfAborted();
    attempt.sent = true;
    let answer;
    try {
      answer = await this.#post({ url: this.#url, headers: this.#headers, body: json, limit: wireLimits.responseBytes, signal: attempt.signal });
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      const reason = `larger than ${error.limit} bytes`;
      throw attempt.read
        ? new PayloadTooLargeError(`${attempt.context.method}: the worker's answer is ${reason} (${describeCall(attempt.context)})`)
        : this.unreadable(attempt.context, error.status, reason);
    }
    const { status, text } = answer;
    if (status === 0 || (status >= 300 && status < 400)) {
      throw new ProviderError(
        `${attempt.context.method}: the worker answered with a redirect (${status === 0 ? "an opaque redirect" : `HTTP ${status}`}); redirects are refused, not followed: check baseUrl (${describeCall(attempt.context)})`,
        { status },
      );
    }
    return (attempt.answer = { status, contentType: answer.contentType ?? "no content type", text, draining: status === 503 && isDrainingAnswer(text) });
  }

  #interpret(context: CallContext, answer: Answer): unknown {
    let json: unknown;
    try {
      json = JSON.parse(answer.text);
    } catch {
      throw this.unreadable(context, answer.status, `not JSON: ${answer.contentType}, ${JSON.stringify(this.#quote(answer.text, 80))}`);
    }
    if (answer.status >= 400) {
      const failure = v.safeParse(WorkerErrorBodySchema, json);
      if (failure.success) {
        const { code, message, details } = failure.output.error;
        return this.#throwWorkerError(context, code, message, answer.status, details);
      }
    } else if (answer.status >= 200 && answer.status < 300) {
      const success = v.safeParse(WorkerDataBodySchema, json);
      if (success.success) return success.output.data;
    }
    throw this.unreadable(context, answer.status, `expected { "data": … } or { "error": { "code", "message" } }, got ${this.#quote(answer.text, 80)}`);
  }

  #throwWorkerError(context: CallContext, code: string, message: string, status: number, details: StationBrowserErrorDetails | undefined): never {
    // Texts in details are server-provided too: bounded and without the API key.
    const quoted = details && Object.fromEntries(Object.entries(details).map(([field, value]) => [field, typeof value === "string" ? this.#quote(value, 300) : value]));
    throw workerError(this.#quote(code, 64), this.#quote(message, quoteLimit), status, context, quoted);
  }

  #transportFailure(attempt: Attempt, error: unknown, timedOut: boolean): StationBrowserError {
    if (isStationBrowserError(error)) return error;
    const { context } = attempt;
    const where = describeCall(context);
    const cancelled = attempt.signal.aborted && !timedOut;
    const refused = !timedOut && !cancelled && neverSent(error);
    const cause = cancelled || timedOut ? undefined : error;
    if (!changesNothing(context) && attempt.sent && !refused) {
      const what = timedOut
        ? `no answer within ${attempt.timeoutMs} ms`
        : cancelled
          ? "cancelled after the request was sent"
          : `the connection failed after the request was sent (${this.#errorText(error)})`;
      return new OutcomeUnknownError(`${context.method}: ${what}; the worker may have run it (${where}). To find out: ${outcomeHint(context)}`, {
        cause,
        ...outcomeDetails(context),
      });
    }
    if (timedOut) return new TimeoutError(`${context.method}: no answer within ${attempt.timeoutMs} ms (${where})`);
    if (cancelled) return new ActionFailedError(`${context.method}: cancelled (${where})`);
    const safe = refused && !attempt.read ? "; nothing was sent, so it is safe to retry" : "";
    return new ProviderError(`${context.method}: could not reach the worker at ${new URL(this.#url).origin} (${this.#errorText(error)})${safe} (${where})`, {
      cause,
    });
  }

  #errorText(error: unknown): string {
    const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
    const detail = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : undefined;
    const message = error instanceof Error ? error.message : String(error);
    return this.#quote(detail ? `${message}: ${detail}` : message, 300);
  }

  /** Server- or network-provided text, bounded and without the API key. */
  #quote(text: string, limit: number): string {
    const scrubbed = this.#redactor.apply(text);
    return scrubbed.length > limit ? `${scrubbed.slice(0, limit)}…` : scrubbed;
  }
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

