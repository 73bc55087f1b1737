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
  type StationBrowserErrorClass,
} from "../errors.js";
import type { WorkerErrorCode } from "../protocol/wire.js";
import { describeCall, outcomeDetails, outcomeHint, type CallContext } from "./call-context.js";

type Build = (message: string, status: number) => StationBrowserError;


/** Codes whose class carries nothing but the message. */
const plainClasses = {
  busy: BusyError,
  capacity: CapacityError,
  not_found: NotFoundError,
  control_lease: ControlLeaseError,
  timeout: TimeoutError,
  url_policy: UrlPolicyError,
  profile_in_use: ProfileInUseError,
  profile: ProfileError,
  reconcile_required: ReconcileRequiredError,
  browser_not_found: BrowserNotFoundError,
  action_failed: ActionFailedError,
  not_implemented: NotImplementedError,
  session_closed: SessionClosedError,
  journal: JournalError,
  payload_too_large: PayloadTooLargeError,
  draining: DrainingError,
  internal: InternalError,
} satisfies Partial<Record<WorkerErrorCode, StationBrowserErrorClass>>;
type PlainCode = keyof typeof plainClasses;

/** The other codes' constructors, from the worker's message. */
const builders: Record<Exclude<WorkerErrorCode, "validation" | "bad_request" | "outcome_unknown" | PlainCode>, Build> = {
  provider: (message, status) => new ProviderError(message, { status }),
  stale_ref: (message) => new StaleRefError(/\bRef (\S+)/.exec(message)?.[1] ?? "", message),
  ambiguous_target: (message) => new AmbiguousTargetError(Number(/matched (\d+)/.exec(message)?.[1] ?? 0), message),
  unauthorized: (message) => new AuthenticationError("unauthorized", message),
  forbidden: (message) => new AuthenticationError("forbidden", message),
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
  if (Object.hasOwn(plainClasses, code)) return new plainClasses[code as PlainCode](`${message} ${where}`);
  const build = Object.hasOwn(builders, code) ? builders[code as keyof typeof builders] : undefined;
  if (build) return build(`${message} ${where}`, status);
  return new ProviderError(`the worker answered with an unknown error code "${code}" (HTTP ${status}): ${message} ${where}`, { status });
}
