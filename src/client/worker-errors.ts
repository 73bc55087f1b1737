import { OutcomeUnknownError, ProviderError, createError, errorFamily, type StationBrowserError, type StationBrowserErrorDetails } from "../errors.js";
import { describeCall, outcomeDetails, outcomeHint, type CallContext } from "./call-context.js";

/**
 * The error of a worker's `{ error: { code, message, details } }`, rebuilt
 * from its code and details so that guards such as `isBusyError` and fields
 * such as `StaleRefError.ref` work on the client. The message is the
 * worker's, with the method and ids of the call added. A body without
 * `details` (an older worker) still gets its class; a `ProviderError` then
 * carries the HTTP status.
 */
export function workerError(
  code: string,
  message: string,
  status: number,
  context: CallContext,
  details: StationBrowserErrorDetails | undefined,
): StationBrowserError {
  const where = `(${describeCall(context)})`;
  if (code === "bad_request") return createError("validation", `${message} ${where}`);
  if (!Object.hasOwn(errorFamily, code)) {
    return new ProviderError(`the worker answered with an unknown error code "${code}" (HTTP ${status}): ${message} ${where}`, { status });
  }
  if (code === "outcome_unknown") {
    // The call's own ids are what the caller knows and what the hint names.
    return new OutcomeUnknownError(`${message} ${where}; to find out: ${outcomeHint(context)}`, { ...details, ...outcomeDetails(context) });
  }
  return createError(code as keyof typeof errorFamily, `${message} ${where}`, details ?? (code === "provider" ? { status } : {}));
}
