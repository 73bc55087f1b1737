/**
 * The Browserbase wire shapes this provider sends and reads: the create
 * body, the metadata query, status mapping. Neutral code.
 */
import type { Browserbase } from "@browserbasehq/sdk";
import { ValidationError } from "../../errors.js";
import type { CreateSessionRequest, ProviderSession } from "../types.js";
import type { ResolvedBrowserbaseOptions } from "./options.js";

/** Open tags this provider accepts: the same rule as `open` options, and nothing that can break the metadata query's quoting. */
const openTagPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Checks an open tag before it is stored in `userMetadata` or put in a query.
 *
 * @throws {ValidationError} when the tag has characters other than letters, digits, `.`, `_`, `:` and `-`, or more than 128.
 * @example
 * ```ts
 * assertOpenTag(crypto.randomUUID(), "request.openTag");
 * ```
 */
export function assertOpenTag(openTag: unknown, field: string): asserts openTag is string {
  if (typeof openTag !== "string" || !openTagPattern.test(openTag)) {
    throw new ValidationError(field, "expected 1–128 letters, digits, '.', '_', ':' or '-'");
  }
}

/**
 * The `q` of `GET /v1/sessions` that finds sessions created with an open tag.
 *
 * @example
 * ```ts
 * openTagQuery("t-1"); // "user_metadata['openTag']:'t-1'"
 * ```
 */
export function openTagQuery(openTag: string): string {
  assertOpenTag(openTag, "openTag");
  return `user_metadata['openTag']:'${openTag}'`;
}

/**
 * A session id made safe for a URL path. Browserbase ids are UUIDs; anything
 * else is still encoded, never put in a path as it is.
 *
 * @throws {ValidationError} for an empty or overlong id.
 */
export function sessionPathId(id: unknown): string {
  if (typeof id !== "string" || id.length === 0 || id.length > 256) {
    throw new ValidationError("id", "expected a Browserbase session id (1–256 characters)");
  }
  return encodeURIComponent(id);
}

/**
 * The body of `POST /v1/sessions`. Timeout is in seconds (`api_timeout`,
 * which the SDK sends as `timeout`); only settings that are set are sent.
 */
export function createSessionBody(
  options: ResolvedBrowserbaseOptions,
  request: CreateSessionRequest,
  contextId: string | undefined,
): Browserbase.SessionCreateParams {
  const browserSettings: Browserbase.SessionCreateParams.BrowserSettings = {
    ...options.browserSettings,
    ...(contextId === undefined ? {} : { context: { id: contextId, persist: true } }),
    ...(options.blockAds === undefined ? {} : { blockAds: options.blockAds }),
    ...(options.solveCaptchas === undefined ? {} : { solveCaptchas: options.solveCaptchas }),
    viewport: { ...(request.viewport ?? options.viewport) },
  };
  return {
    ...(options.projectId === undefined ? {} : { projectId: options.projectId }),
    ...(options.sessionTimeoutSeconds === undefined ? {} : { api_timeout: options.sessionTimeoutSeconds }),
    ...(options.keepAlive === undefined ? {} : { keepAlive: options.keepAlive }),
    ...(options.region === undefined ? {} : { region: options.region }),
    ...(options.proxies === undefined ? {} : { proxies: options.proxies }),
    browserSettings,
    userMetadata: { openTag: request.openTag },
  };
}

/** Browserbase status → the provider contract's status. */
export function mapStatus(status: unknown): ProviderSession["status"] {
  switch (status) {
    case "PENDING":
      return "PENDING";
    case "RUNNING":
      return "RUNNING";
    case "TIMED_OUT":
    case "COMPLETED":
      return "ENDED";
    default:
      // ERROR, and anything this version does not know: not running, never adopted.
      return "ERROR";
  }
}

/** The open tag stored in a session's metadata, if any. */
export function storedOpenTag(session: Pick<Browserbase.Session, "userMetadata">): string | undefined {
  const tag = session.userMetadata?.["openTag"];
  return typeof tag === "string" ? tag : undefined;
}

/** Fields of a Browserbase session this provider reads. */
export interface WireSession {
  id: string;
  status: unknown;
  createdAt?: string;
  contextId?: string;
  userMetadata?: Record<string, unknown>;
  connectUrl?: string;
}

/**
 * A Browserbase session as the provider contract's `ProviderSession`. The
 * `signingKey` and Selenium URL are dropped; `connectUrl` becomes `cdpUrl`
 * (opaque, it carries Browserbase's signature).
 */
export function toProviderSession(
  session: WireSession,
  extras: { openTag: string; profileId?: string | undefined; liveViewUrl?: string | undefined },
): ProviderSession {
  return {
    id: session.id,
    status: mapStatus(session.status),
    openTag: extras.openTag,
    createdAt: typeof session.createdAt === "string" ? session.createdAt : new Date().toISOString(),
    ...(typeof session.connectUrl === "string" && session.connectUrl.length > 0 ? { cdpUrl: session.connectUrl } : {}),
    ...(extras.liveViewUrl ? { liveViewUrl: extras.liveViewUrl } : {}),
    ...(extras.profileId ? { profileId: extras.profileId } : {}),
  };
}
