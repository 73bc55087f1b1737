import {
  ActionFailedError,
  AmbiguousTargetError,
  AuthenticationError,
  BrowserNotFoundError,
  BusyError,
  CapacityError,
  ControlLeaseError,
  DrainingError,
  InternalError,
  JournalError,
  NotFoundError,
  NotImplementedError,
  OutcomeUnknownError,
  PayloadTooLargeError,
  ProfileInUseError,
  ProfileError,
  ReconcileRequiredError,
  ProviderError,
  SessionClosedError,
  StaleRefError,
  TimeoutError,
  UrlPolicyError,
  ValidationError,
  type StationBrowserError,
} from "../errors.js";
import type { WorkerErrorCode } from "../protocol/wire.js";
import { describeCall, outcomeDetails, outcomeHint, type CallContext } from "./call-context.js";

type Build = (message: string, status: number) => StationBrowserError;

/** One constructor per worker error code; the worker's message is kept. */
const builders: Record<Exclude<WorkerErrorCode, "validation" | "bad_request" | "outcome_unknown">, Build> = {
  busy: (message) => new BusyError(message),
  capacity: (message) => new CapacityError(message),
  not_found: (message) => new NotFoundError(message),
  control_lease: (message) => new ControlLeaseError(message),
  provider: (message, status) => new ProviderError(message, { status }),
  timeout: (message) => new TimeoutError(message),
  stale_ref: (message) => new StaleRefError(/\bRef (\S+)/.exec(message)?.[1] ?? "", message),
  ambiguous_target: (message) => new AmbiguousTargetError(Number(/matched (\d+)/.exec(message)?.[1] ?? 0), message),
  url_policy: (message) => new UrlPolicyError(message),
  profile_in_use: (message) => new ProfileInUseError(message),
  profile: (message) => new ProfileError(message),
  reconcile_required: (message) => new ReconcileRequiredError(message),
  browser_not_found: (message) => new BrowserNotFoundError(message),
  action_failed: (message) => new ActionFailedError(message),
  not_implemented: (message) => new NotImplementedError(message),
  session_closed: (message) => new SessionClosedError(message),
  journal: (message) => new JournalError(message),
  unauthorized: (message) => new AuthenticationError("unauthorized", message),
  forbidden: (message) => new AuthenticationError("forbidden", message),
  payload_too_large: (message) => new PayloadTooLargeError(message),
  draining: (message) => new DrainingError(message),
  internal: (message) => new InternalError(message),
};

/** `command.url: required` → field `command.url`, problem `required`. */
function validationError(message: string, where: string): ValidationError {
  const match = /^([^\s:]+): (.*)$/s.exec(message);
  return match ? new ValidationError(match[1]!, `${match[2]} ${where}`) : new ValidationError("request", `${message} ${where}`);
}

/**
 * The error class of a worker's `{ error: { code, message } }`, so that guards
 * such as `isBusyError` work on the client. The message is the worker's, with
 * the method and ids of the call added.
 */
export function workerError(code: string, message: string, status: number, context: CallContext): StationBrowserError {
  const where = `(${describeCall(context)})`;
  if (code === "validation" || code === "bad_request") return validationError(message, where);
  if (code === "outcome_unknown") {
    return new OutcomeUnknownError(`${message} ${where}; to find out: ${outcomeHint(context)}`, outcomeDetails(context));
  }
  const build = Object.hasOwn(builders, code) ? builders[code as keyof typeof builders] : undefined;
  if (build) return build(`${message} ${where}`, status);
  return new ProviderError(`the worker answered with an unknown error code "${code}" (HTTP ${status}): ${message} ${where}`, { status });
}
