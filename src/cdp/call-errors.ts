/**
 * The errors of CDP calls, all of the package's error family. Each carries
 * what the call was and how far it got ({@link cdpCallOf}), so a caller can
 * apply the outcome rule: a call that was sent and never answered
 * ({@link mayHaveRun}) may have run in the browser, and if it dispatched
 * input, the action's outcome is unknown.
 */
import { ActionFailedError, OutcomeUnknownError, PayloadTooLargeError, SessionClosedError, TimeoutError, type StationBrowserError } from "../errors.js";

const callMarker = Symbol.for("station-browser-use.cdp-call");

/** What a failed CDP call was and how far it got. */
export interface CdpCallInfo {
  method: string;
  /** The CDP session it was sent on; undefined for the browser's own session. */
  sessionId: string | undefined;
  /** Whether it was written to the socket. */
  sent: boolean;
  /** Whether the browser answered it (with an error). */
  answered: boolean;
}

/** How a connection or a session ended, as the errors of the calls it cut off say it. */
export interface CdpEnd {
  /** `connection closed (code 1006)`, `an incoming message of 70000000 bytes exceeds the limit of 67108864`, `session S detached` … */
  reason: string;
  /** An incoming message was too large. */
  tooLarge?: boolean;
  cause?: unknown;
}

function tag<Error extends StationBrowserError>(error: Error, info: CdpCallInfo): Error {
  Object.defineProperty(error, callMarker, { value: info, enumerable: false });
  return error;
}

const describe = (method: string, sessionId: string | undefined) => (sessionId === undefined ? `CDP ${method}` : `CDP ${method} (session ${sessionId})`);

/** The call info of an error from a CDP call, or undefined for any other error. */
export function cdpCallOf(error: unknown): CdpCallInfo | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  return (error as Record<symbol, CdpCallInfo | undefined>)[callMarker];
}

/**
 * True when a CDP call failed after it was sent and before any answer came
 * (a lost connection, a detached session, its deadline, a cancel): the
 * browser may have run it. False for a call never sent or answered with an error.
 *
 * @example
 * ```ts
 * try { await session.send("Input.dispatchMouseEvent", event); }
 * catch (error) { if (mayHaveRun(error)) return { outcome: "unknown" }; throw error; }
 * ```
 */
export function mayHaveRun(error: unknown): boolean {
  const info = cdpCallOf(error);
  return info !== undefined && info.sent && !info.answered;
}

/**
 * Thrown when the browser answers a CDP call with an error; the call ran and
 * failed. `cdpCode` and `cdpMessage` are the protocol's own.
 */
export class CdpProtocolError extends ActionFailedError {
  readonly method: string;
  readonly cdpCode: number;
  readonly cdpMessage: string;
  constructor(method: string, sessionId: string | undefined, answer: { code?: unknown; message?: unknown; data?: unknown }) {
    const cdpMessage = typeof answer.message === "string" ? answer.message : "no message";
    const data = typeof answer.data === "string" ? ` (${answer.data})` : "";
    super(`${describe(method, sessionId)} failed: ${cdpMessage}${data}`);
    this.name = "CdpProtocolError";
    this.method = method;
    this.cdpCode = typeof answer.code === "number" ? answer.code : 0;
    this.cdpMessage = cdpMessage;
    tag(this, { method, sessionId, sent: true, answered: true });
  }
}

/** A call refused before it was sent: the connection or session has ended. */
export function notSentError(method: string, sessionId: string | undefined, end: CdpEnd): StationBrowserError {
  return tag(new SessionClosedError(`${describe(method, sessionId)} was not sent: ${end.reason}`, { cause: end.cause }), {
    method,
    sessionId,
    sent: false,
    answered: false,
  });
}

/** A wait for an event ended because its session or connection did. */
export function waitEndedError(event: string, sessionId: string | undefined, end: CdpEnd): StationBrowserError {
  const where = sessionId === undefined ? "" : ` (session ${sessionId})`;
  return new SessionClosedError(`CDP ${event}${where} will not arrive: ${end.reason}`, { cause: end.cause });
}

/** A sent call cut off because the connection or session ended before it answered. */
export function cutOffError(method: string, sessionId: string | undefined, end: CdpEnd): StationBrowserError {
  const info = { method, sessionId, sent: true, answered: false };
  const message = `${describe(method, sessionId)} got no answer: ${end.reason}. It was sent, so whether it ran is unknown`;
  if (end.tooLarge) return tag(new PayloadTooLargeError(message, { cause: end.cause }), info);
  const closed = new SessionClosedError(end.reason, { cause: end.cause });
  return tag(new OutcomeUnknownError(message, { method, ...(sessionId === undefined ? {} : { sessionId }), cause: closed }), info);
}

/** A sent call whose deadline passed. */
export function deadlineError(method: string, sessionId: string | undefined, timeoutMs: number): StationBrowserError {
  return tag(new TimeoutError(`${describe(method, sessionId)} got no answer within ${timeoutMs} ms. It was sent, so whether it ran is unknown`), {
    method,
    sessionId,
    sent: true,
    answered: false,
  });
}

/** A call cancelled through its `AbortSignal`, before or after it was sent. */
export function cancelledError(method: string, sessionId: string | undefined, sent: boolean, reason: unknown): StationBrowserError {
  const when = sent ? "after it was sent, so whether it ran is unknown" : "before it was sent";
  return tag(new ActionFailedError(`${describe(method, sessionId)} was cancelled ${when}`, { cause: reason }), { method, sessionId, sent, answered: false });
}
