/**
 * One error family for the whole SDK. Every error is a {@link StationBrowserError}
 * with a stable `code`; guards such as {@link isValidationError} recognise errors
 * across duplicate copies of this package through a `Symbol.for` marker. Each
 * code, its class, its HTTP status and the detail fields its class carries are
 * declared once, in {@link errorFamily}.
 */

const marker = Symbol.for("station-browser-use.error");

/** Stable machine-readable codes, one per error class: the keys of {@link errorFamily}. */
export type StationBrowserErrorCode = keyof typeof errorFamily;

/**
 * The data an error carries besides its code and message, one field per
 * property of a class of the family (which class carries which is in
 * {@link errorFamily}). A worker sends it as `details`; the client rebuilds
 * the error from it.
 */
export interface StationBrowserErrorDetails {
  /** {@link ValidationError}: the path of the offending field. */
  field?: string;
  /** {@link StaleRefError}: the stale ref. */
  ref?: string;
  /** {@link AmbiguousTargetError}: how many elements matched. */
  count?: number;
  /** {@link CapacityError}, {@link RateLimitedError}: how long to wait before trying again (ms). */
  retryAfterMs?: number;
  /** {@link ProviderError}: the provider's HTTP status. */
  status?: number;
  /** {@link ProviderError}: the provider's request id. */
  requestId?: string;
  /** {@link OutcomeUnknownError}: the method that may have run. */
  method?: string;
  /** {@link OutcomeUnknownError}: the ids it concerned. */
  sessionId?: string;
  openTag?: string;
  checkpointId?: string;
  recordingId?: string;
}

/** Options shared by every error constructor. */
export interface StationBrowserErrorOptions {
  /** The underlying error, kept for debugging. */
  cause?: unknown;
}

/**
 * Base class of every error thrown by station-browser-use.
 *
 * @example
 * ```ts
 * try { await adapter.execute(handle, command); }
 * catch (error) { if (isStationBrowserError(error)) console.log(error.code); }
 * ```
 */
export class StationBrowserError extends Error {
  readonly code: StationBrowserErrorCode;
  readonly [marker] = true;

  /** `options` may carry the detail fields the code's class has (see {@link errorFamily}); they are set here. */
  constructor(code: StationBrowserErrorCode, message: string, options: StationBrowserErrorOptions & StationBrowserErrorDetails = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "StationBrowserError";
    this.code = code;
    for (const field of errorFamily[code]?.details ?? []) (this as unknown as Record<string, unknown>)[field] = options[field];
  }
}

/**
 * The constructor of an error class of the family made by `errorClass`: a
 * message and options, which may carry the detail fields `Details` the class
 * has (read-only properties of its errors, undefined when not given).
 */
export interface StationBrowserErrorClass<Details extends StationBrowserErrorDetails = Record<never, never>> {
  new (message: string, options?: StationBrowserErrorOptions & Details): StationBrowserErrorWith<Details>;
  readonly prototype: StationBrowserErrorWith<Details>;
}

/** An error of the family with the read-only detail fields `Details` (undefined when not given). */
export type StationBrowserErrorWith<Details extends StationBrowserErrorDetails> = StationBrowserError & {
  readonly [Key in keyof Details]-?: Details[Key] | undefined;
};

/**
 * An error class of the family with its own code and nothing else (one line
 * per class instead of one block), named after its code: `not_found` →
 * `NotFoundError`. The detail fields a class carries are its code's in
 * {@link errorFamily}, set from the options by the base constructor; a class
 * with details says their type with {@link StationBrowserErrorClass}.
 */
/* @__NO_SIDE_EFFECTS__ */
function errorClass(code: StationBrowserErrorCode): StationBrowserErrorClass {
  const name = `${code.replace(/(?:^|_)(.)/g, (_match, letter: string) => letter.toUpperCase())}Error`;
  return class extends StationBrowserError {
    constructor(message: string, options?: StationBrowserErrorOptions) {
      super(code, message, options);
      this.name = name;
    }
  };
}

/**
 * Thrown when a command, option or payload is malformed. `field` is the path of
 * the offending field, e.g. `command.target.frame[3]`.
 */
export class ValidationError extends StationBrowserError {
  declare readonly field: string;
  constructor(field: string, problem: string, options?: StationBrowserErrorOptions) {
    super("validation", `${field}: ${problem}`, { ...options, field });
    this.name = "ValidationError";
  }
}

/** Thrown when a session already runs an action; actions are never queued. */
export const BusyError = errorClass("busy");
export type BusyError = StationBrowserError;

/** Thrown when no more sessions may be opened (local limit or provider 429). */
export const CapacityError = errorClass("capacity") as StationBrowserErrorClass<{ retryAfterMs?: number | undefined }>;
/** How long the provider asked to wait before trying again (`retryAfterMs`, ms), when it said (a 429's `retry-after`). */
export type CapacityError = InstanceType<typeof CapacityError>;

/**
 * Thrown when an action may not run yet: its profile's pacing budget is
 * spent (actions per minute or per day), the profile is paused after the
 * site throttled it, or the wait for its turn would be longer than allowed.
 * Nothing was sent to the page. `retryAfterMs` says when it may run.
 */
export const RateLimitedError = errorClass("rate_limited") as StationBrowserErrorClass<{ retryAfterMs?: number | undefined }>;
/** `retryAfterMs`: how long until the action may run (ms), when known. */
export type RateLimitedError = InstanceType<typeof RateLimitedError>;

/** Thrown when a session, page, download or other resource does not exist. */
export const NotFoundError = errorClass("not_found");
export type NotFoundError = StationBrowserError;

/** Thrown when a mutating action needs the human control lease it lacks. */
export const ControlLeaseError = errorClass("control_lease");
export type ControlLeaseError = StationBrowserError;

/**
 * Thrown when an action may have been dispatched but its completion could not
 * be confirmed. It is never retried automatically.
 */
export const OutcomeUnknownError = errorClass("outcome_unknown") as StationBrowserErrorClass<OutcomeUnknownDetails>;
/** What to check: the method that may have run and the ids it concerned (`method`, `sessionId`, …), when known. */
export type OutcomeUnknownError = InstanceType<typeof OutcomeUnknownError>;

/** The structured part of an {@link OutcomeUnknownError}. */
export interface OutcomeUnknownDetails {
  method?: string;
  sessionId?: string;
  openTag?: string;
  checkpointId?: string;
  recordingId?: string;
}

/** Thrown when a hosted provider's API answers with an error. */
export const ProviderError = errorClass("provider") as StationBrowserErrorClass<{ status?: number | undefined; requestId?: string | undefined }>;
/** `status` and `requestId`: the provider's HTTP status and request id, when known. */
export type ProviderError = InstanceType<typeof ProviderError>;

/** Thrown when an operation does not finish within its time limit. */
export const TimeoutError = errorClass("timeout");
export type TimeoutError = StationBrowserError;

/**
 * Thrown when a `{ by: "ref" }` target names a ref from an older accessibility
 * snapshot (the page navigated or a newer snapshot was taken since). A stale
 * ref is never re-matched to another element.
 */
export class StaleRefError extends StationBrowserError {
  /** The stale ref (undefined when rebuilt from an older worker's answer, which did not send it). */
  declare readonly ref: string | undefined;
  constructor(ref: string | undefined, message: string, options?: StationBrowserErrorOptions) {
    super("stale_ref", message, { ...options, ref });
    this.name = "StaleRefError";
  }
}

/** Thrown when a target matches more than one element and no `nth` was given. */
export class AmbiguousTargetError extends StationBrowserError {
  /** How many elements matched (undefined when rebuilt from an older worker's answer, which did not send it). */
  declare readonly count: number | undefined;
  constructor(count: number | undefined, message: string, options?: StationBrowserErrorOptions) {
    super("ambiguous_target", message, { ...options, count });
    this.name = "AmbiguousTargetError";
  }
}

/** Thrown when a URL is refused by the navigation policy (before any request). */
export const UrlPolicyError = errorClass("url_policy");
export type UrlPolicyError = StationBrowserError;

/** Thrown when a profile is already open; a profile is open at most once per owner. */
export const ProfileInUseError = errorClass("profile_in_use");
export type ProfileInUseError = StationBrowserError;

/**
 * Thrown when a profile's stored state is unusable: the provider reports it
 * failed to persist (final), or it never became ready in time.
 */
export const ProfileError = errorClass("profile");
export type ProfileError = StationBrowserError;

/**
 * Thrown by `open` while an earlier open has an unknown outcome: nothing new is
 * admitted until `reconcile()` has found that session or proved it absent.
 */
export const ReconcileRequiredError = errorClass("reconcile_required");
export type ReconcileRequiredError = StationBrowserError;

/** Thrown when no Chromium executable can be found; the message says how to install one. */
export const BrowserNotFoundError = errorClass("browser_not_found");
export type BrowserNotFoundError = StationBrowserError;

/** Thrown when the browser refused or failed an action (element hidden, detached, timed out…). */
export const ActionFailedError = errorClass("action_failed");
export type ActionFailedError = StationBrowserError;

/** Thrown by a command or feature that is part of the protocol but not implemented yet. */
export const NotImplementedError = errorClass("not_implemented");
export type NotImplementedError = StationBrowserError;

/** Thrown when a session was closed (or its browser went away) while in use. */
export const SessionClosedError = errorClass("session_closed");
export type SessionClosedError = StationBrowserError;

/**
 * Thrown when the action journal cannot be written. Actions are then refused
 * rather than run unrecorded, until the manager is reopened.
 */
export const JournalError = errorClass("journal");
export type JournalError = StationBrowserError;

/** Thrown when a worker refuses the credentials (`unauthorized`) or the route for them (`forbidden`). */
export class AuthenticationError extends StationBrowserError {
  constructor(code: "unauthorized" | "forbidden", message: string, options?: StationBrowserErrorOptions) {
    super(code, message, options);
    this.name = "AuthenticationError";
  }
}

/** Thrown when a request or response exceeds its size limit; nothing was executed for an oversize request. */
export const PayloadTooLargeError = errorClass("payload_too_large");
export type PayloadTooLargeError = StationBrowserError;

/** Thrown when a draining worker refuses new work (it still lists and closes). */
export const DrainingError = errorClass("draining");
export type DrainingError = StationBrowserError;

/** Thrown for a failure inside the worker that has no more specific class; the message says what is known. */
export const InternalError = errorClass("internal");
export type InternalError = StationBrowserError;

/** What {@link errorFamily} says of one code. */
export interface ErrorFamilyMember<Class = StationBrowserErrorConstructor> {
  /** The class of its errors. */
  errorClass: Class;
  /** The HTTP status a worker answers it with. */
  status: number;
  /** The fields of {@link StationBrowserErrorDetails} its class carries, sent on the wire as `details`. */
  details: readonly (keyof StationBrowserErrorDetails)[];
}

/** Any class of the family. */
export type StationBrowserErrorConstructor = abstract new (...args: never[]) => StationBrowserError;

/* @__NO_SIDE_EFFECTS__ */
function member<Class extends StationBrowserErrorConstructor>(
  errorClass: Class,
  status: number,
  ...details: (keyof StationBrowserErrorDetails & keyof InstanceType<Class>)[]
): ErrorFamilyMember<Class> {
  return { errorClass, status, details };
}

/**
 * The error family, declared once: each code with its class, the HTTP status
 * a worker answers it with, and the detail fields the class carries. The
 * codes ({@link StationBrowserErrorCode}), the worker's status table, the
 * details it sends, the client's rebuilding ({@link createError}) and the
 * agent tools' hints are all keyed off it, so a new code is added here and
 * the type checker points at every place that must say something about it.
 *
 * @example
 * ```ts
 * errorFamily.stale_ref; // { errorClass: StaleRefError, status: 409, details: ["ref"] }
 * ```
 */
export const errorFamily = {
  validation: member(ValidationError, 400, "field"),
  unauthorized: member(AuthenticationError, 401),
  forbidden: member(AuthenticationError, 403),
  not_found: member(NotFoundError, 404),
  busy: member(BusyError, 409),
  stale_ref: member(StaleRefError, 409, "ref"),
  profile_in_use: member(ProfileInUseError, 409),
  profile: member(ProfileError, 409),
  reconcile_required: member(ReconcileRequiredError, 409),
  session_closed: member(SessionClosedError, 410),
  payload_too_large: member(PayloadTooLargeError, 413),
  ambiguous_target: member(AmbiguousTargetError, 422, "count"),
  url_policy: member(UrlPolicyError, 422),
  action_failed: member(ActionFailedError, 422),
  control_lease: member(ControlLeaseError, 423),
  capacity: member(CapacityError, 429, "retryAfterMs"),
  rate_limited: member(RateLimitedError, 429, "retryAfterMs"),
  internal: member(InternalError, 500),
  not_implemented: member(NotImplementedError, 501),
  provider: member(ProviderError, 502, "status", "requestId"),
  outcome_unknown: member(OutcomeUnknownError, 502, "method", "sessionId", "openTag", "checkpointId", "recordingId"),
  draining: member(DrainingError, 503),
  journal: member(JournalError, 503),
  browser_not_found: member(BrowserNotFoundError, 503),
  timeout: member(TimeoutError, 504),
};

/**
 * The {@link StationBrowserErrorDetails} of `error`: the fields its class
 * carries that are set (what a worker sends as `details`).
 *
 * @example
 * ```ts
 * errorDetails(new AmbiguousTargetError(3, "matched 3 elements")); // { count: 3 }
 * ```
 */
export function errorDetails(error: StationBrowserError): StationBrowserErrorDetails {
  const details: Record<string, unknown> = {};
  for (const field of errorFamily[error.code]?.details ?? []) {
    const value = (error as unknown as Record<string, unknown>)[field];
    if (value !== undefined) details[field] = value;
  }
  return details;
}

/**
 * The error of `code` with `message` and the data in `details` (the inverse
 * of {@link errorDetails}), e.g. to rebuild an error a worker sent. Details
 * the code's class does not carry are ignored.
 *
 * @example
 * ```ts
 * const error = createError("stale_ref", "Ref e7 is stale", { ref: "e7" });
 * isStaleRefError(error); // true, error.ref === "e7"
 * ```
 */
export function createError(
  code: StationBrowserErrorCode,
  message: string,
  details: StationBrowserErrorDetails = {},
  options: StationBrowserErrorOptions = {},
): StationBrowserError {
  switch (code) {
    case "validation": {
      const field = details.field ?? "request";
      return new ValidationError(field, message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message, options);
    }
    case "stale_ref":
      return new StaleRefError(details.ref, message, options);
    case "ambiguous_target":
      return new AmbiguousTargetError(details.count, message, options);
    case "unauthorized":
    case "forbidden":
      return new AuthenticationError(code, message, options);
    default:
      return new errorFamily[code].errorClass(message, { ...details, ...options });
  }
}

function hasCode(error: unknown, code?: StationBrowserErrorCode): boolean {
  if (typeof error !== "object" || error === null) return false;
  if ((error as Record<symbol, unknown>)[marker] !== true) return false;
  return code === undefined || (error as { code?: unknown }).code === code;
}

/** True for any error of this package, including from a duplicate copy. */
export const isStationBrowserError = (error: unknown): error is StationBrowserError => hasCode(error);
/** True for a {@link ValidationError}. */
export const isValidationError = (error: unknown): error is ValidationError => hasCode(error, "validation");
/** True for a {@link BusyError}. */
export const isBusyError = (error: unknown): error is BusyError => hasCode(error, "busy");
/** True for a {@link CapacityError}. */
export const isCapacityError = (error: unknown): error is CapacityError => hasCode(error, "capacity");
/** True for a {@link RateLimitedError}. */
export const isRateLimitedError = (error: unknown): error is RateLimitedError => hasCode(error, "rate_limited");
/** True for a {@link NotFoundError}. */
export const isNotFoundError = (error: unknown): error is NotFoundError => hasCode(error, "not_found");
/** True for a {@link ControlLeaseError}. */
export const isControlLeaseError = (error: unknown): error is ControlLeaseError => hasCode(error, "control_lease");
/** True for an {@link OutcomeUnknownError}. */
export const isOutcomeUnknownError = (error: unknown): error is OutcomeUnknownError => hasCode(error, "outcome_unknown");
/** True for a {@link ProviderError}. */
export const isProviderError = (error: unknown): error is ProviderError => hasCode(error, "provider");
/** True for a {@link TimeoutError}. */
export const isTimeoutError = (error: unknown): error is TimeoutError => hasCode(error, "timeout");
/** True for a {@link StaleRefError}. */
export const isStaleRefError = (error: unknown): error is StaleRefError => hasCode(error, "stale_ref");
/** True for an {@link AmbiguousTargetError}. */
export const isAmbiguousTargetError = (error: unknown): error is AmbiguousTargetError => hasCode(error, "ambiguous_target");
/** True for a {@link UrlPolicyError}. */
export const isUrlPolicyError = (error: unknown): error is UrlPolicyError => hasCode(error, "url_policy");
/** True for a {@link ProfileInUseError}. */
export const isProfileInUseError = (error: unknown): error is ProfileInUseError => hasCode(error, "profile_in_use");
/** True for a {@link ProfileError}. */
export const isProfileError = (error: unknown): error is ProfileError => hasCode(error, "profile");
/** True for a {@link ReconcileRequiredError}. */
export const isReconcileRequiredError = (error: unknown): error is ReconcileRequiredError => hasCode(error, "reconcile_required");
/** True for a {@link BrowserNotFoundError}. */
export const isBrowserNotFoundError = (error: unknown): error is BrowserNotFoundError => hasCode(error, "browser_not_found");
/** True for an {@link ActionFailedError}. */
export const isActionFailedError = (error: unknown): error is ActionFailedError => hasCode(error, "action_failed");
/** True for a {@link NotImplementedError}. */
export const isNotImplementedError = (error: unknown): error is NotImplementedError => hasCode(error, "not_implemented");
/** True for a {@link SessionClosedError}. */
export const isSessionClosedError = (error: unknown): error is SessionClosedError => hasCode(error, "session_closed");
/** True for a {@link JournalError}. */
export const isJournalError = (error: unknown): error is JournalError => hasCode(error, "journal");
/** True for an {@link AuthenticationError}. */
export const isAuthenticationError = (error: unknown): error is AuthenticationError => hasCode(error, "unauthorized") || hasCode(error, "forbidden");
/** True for a {@link PayloadTooLargeError}. */
export const isPayloadTooLargeError = (error: unknown): error is PayloadTooLargeError => hasCode(error, "payload_too_large");
/** True for a {@link DrainingError}. */
export const isDrainingError = (error: unknown): error is DrainingError => hasCode(error, "draining");
/** True for an {@link InternalError}. */
export const isInternalError = (error: unknown): error is InternalError => hasCode(error, "internal");
