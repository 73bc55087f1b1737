/**
 * Turning a hosted provider SDK's failure into this package's error family.
 * Both SDKs (Browserbase, Steel) are generated the same way: an `APIError`
 * with `status`, `headers` and the JSON body in `error`, and subclasses for
 * connection failures, timeouts and aborts. Neutral code.
 */
import { neverSent } from "../../client/never-sent.js";
import {
  CapacityError,
  NotFoundError,
  OutcomeUnknownError,
  ProviderError,
  type StationBrowserError,
} from "../../errors.js";
import { retryAfterMs } from "./rate-limit.js";

/** The SDK's error classes, so failures are recognised with `instanceof`. */
export interface ProviderErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

/** How a provider call failed, before it is turned into an error. */
export type FailureKind =
  /**
   * Nothing of the request left this process: the runtime refused before
   * sending (Deno without `--allow-env` for a variable the SDK reads, or
   * without `--allow-net`), or the connection was never made. It took no effect.
   */
  | "not_sent"
  /** No response: connection refused or reset, or timed out; the request may have been received. */
  | "no_response"
  /** The caller cancelled; the request may have been received. */
  | "aborted"
  /** An HTTP error answer with this status. */
  | "status"
  /** Anything else (a bug, a malformed answer). */
  | "other";

/** A provider failure read off an SDK error. */
export interface ProviderFailure {
  kind: FailureKind;
  status?: number;
  /** The answer's headers, lower-case names. */
  headers: Record<string, string>;
  /** The provider's own message (credentials removed). */
  message: string;
}

/** What the failing call was, to phrase the error and judge its outcome. */
export interface ProviderCallContext {
  /** Provider name, e.g. `browserbase`. */
  provider: string;
  /** What was attempted, e.g. `create session` or `release session bb_1`. */
  operation: string;
  /** True when the call changes provider state (create, release): its outcome matters. */
  mutating: boolean;
  /** Values to remove from every message (API keys). */
  secrets: readonly string[];
}

/** Removes every secret (and URL-encoded forms of it) from a text. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join("[redacted]");
  }
  return out;
}

function lowerCaseHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers || typeof headers !== "object") return out;
  const entries =
    typeof (headers as { entries?: unknown }).entries === "function" && typeof (headers as { get?: unknown }).get === "function"
      ? [...(headers as Headers).entries()]
      : Object.entries(headers as Record<string, unknown>);
  for (const [name, value] of entries) if (typeof value === "string") out[name.toLowerCase()] = value;
  return out;
}

/** The message a provider put in its error body, else the SDK's message. */
function providerMessage(error: Error): string {
  const body = (error as { error?: unknown }).error;
  if (body && typeof body === "object") {
    const message = (body as { message?: unknown }).message;
    if (typeof message === "string" && message.length > 0) return message;
  }
  return error.message;
}

const isA = (error: Error, type: ProviderErrorClasses[keyof ProviderErrorClasses]): boolean =>
  (error as unknown) instanceof (type as unknown as abstract new () => unknown);

/** Reads what happened off an SDK error. */
export function readProviderFailure(error: unknown, classes: ProviderErrorClasses, secrets: readonly string[]): ProviderFailure {
  if (!(error instanceof Error)) return { kind: "other", headers: {}, message: redactSecrets(String(error), secrets) };
  const message = redactSecrets(providerMessage(error), secrets);
  if (isA(error, classes.APIUserAbortError) || error.name === "AbortError") return { kind: "aborted", headers: {}, message };
  if (isA(error, classes.APIConnectionError) || isA(error, classes.APIConnectionTimeoutError)) {
    // The SDK wraps what fetch threw as `cause`; its own message only says "Connection error.".
    const cause = (error as { cause?: unknown }).cause;
    if (neverSent(cause)) return { kind: "not_sent", headers: {}, message: redactSecrets(messageChain(cause), secrets) };
    return { kind: "no_response", headers: {}, message };
  }
  if (isA(error, classes.APIError)) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number") return { kind: "status", status, headers: lowerCaseHeaders((error as { headers?: unknown }).headers), message };
    return { kind: "no_response", headers: {}, message };
  }
  // Not the SDK's own error: the runtime refused something while the SDK prepared the request. Deno's
  // NotCapable for an environment variable (the SDKs read DEBUG before each request is sent) is one.
  if (neverSent(error)) return { kind: "not_sent", headers: {}, message };
  return { kind: "other", headers: {}, message };
}

/** An error's message followed by its causes' (`fetch failed: connect ECONNREFUSED …`), three deep at most. */
function messageChain(error: unknown): string {
  const messages: string[] = [];
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 3; depth++) {
    const message = current instanceof Error ? current.message : typeof current === "object" ? undefined : String(current);
    if (message) messages.push(message);
    current = (current as { cause?: unknown }).cause;
  }
  return messages.join(": ");
}

/** Deno's refusal names the permission and the flag; say the exact grant (`--allow-env=DEBUG`). */
function permissionHint(message: string): string {
  const refusal = /Requires \w+ access to "([^"]+)", run again with the (--allow-[\w-]+) flag/.exec(message);
  return refusal ? ` (with Deno, grant ${refusal[2]}=${refusal[1]})` : "";
}

/**
 * The error to throw for a failed provider call.
 * - Refused before anything was sent (see `src/client/never-sent.ts`) →
 *   `ProviderError`, also for a mutation: it took no effect.
 * - 404 → `NotFoundError`; 429 → `CapacityError` (after the bounded wait),
 *   with the wait the last 429 asked for as `retryAfterMs`.
 * - A mutation with no answer, cancelled after it was sent, or answered
 *   with 5xx → `OutcomeUnknownError`: it may have taken effect.
 * - Everything else → `ProviderError` carrying the status.
 * Messages carry the provider's words with credentials removed; the SDK
 * error is not kept as `cause`, so nothing of the request leaks through it.
 */
export function toProviderError(failure: ProviderFailure, context: ProviderCallContext): StationBrowserError {
  const where = `${context.provider}: ${context.operation}`;
  const { status, message } = failure;
  if (failure.kind === "not_sent") {
    return new ProviderError(`${where} failed before anything was sent, so it took no effect: ${message}${permissionHint(message)}`);
  }
  if (failure.kind === "status" && status === 404) return new NotFoundError(`${where}: not found (404): ${message}`);
  if (failure.kind === "status" && status === 429) {
    return new CapacityError(`${where}: the provider is at capacity (429): ${message}`, { retryAfterMs: retryAfterMs(failure.headers) });
  }
  // "other" on a mutation: the request went out and something broke while its answer was read
  // (a reset mid-body, a body cut off by the request time limit): it may have taken effect.
  const unanswered = failure.kind === "no_response" || failure.kind === "aborted" || failure.kind === "other";
  if (context.mutating && (unanswered || (status !== undefined && status >= 500))) {
    const what =
      failure.kind === "aborted" ? "was cancelled" : failure.kind === "other" ? "lost its answer" : status === undefined ? "got no answer" : `got ${status}`;
    return new OutcomeUnknownError(`${where} ${what} after the request was sent, so it may have taken effect: ${message}`);
  }
  if (status === 401 || status === 403) {
    return new ProviderError(`${where}: the provider refused the credentials (${status}): ${message}`, { status });
  }
  return new ProviderError(
    `${where} failed${status === undefined ? "" : ` (${status})`}: ${message}`,
    status === undefined ? {} : { status },
  );
}
