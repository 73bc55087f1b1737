/**
 * Reading Steel's session records: the open tag as session id, status
 * mapping, telling a made-up "released" answer from a real session, and the
 * CDP URL. Neutral code.
 */
import type Steel from "steel-sdk";
import { ValidationError } from "../../errors.js";
import { redactSecrets } from "../hosted/errors.js";
import type { ProviderSession, Viewport } from "../types.js";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `value` is a UUID (any version, any case). */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}

/**
 * The Steel `sessionId` for an open tag: the tag itself, lower-cased. Steel
 * takes a client-chosen session id only as a UUID, so any other tag is refused
 * before anything is sent.
 */
export function steelSessionId(openTag: string): string {
  if (!isUuid(openTag)) {
    throw new ValidationError(
      "request.openTag",
      "Steel uses the open tag as its session id, so it must be a UUID such as crypto.randomUUID() makes",
    );
  }
  return openTag.toLowerCase();
}

/** Steel's session status → the provider contract's. `idle` is steel-browser's placeholder between sessions. */
export function sessionStatus(status: unknown): ProviderSession["status"] {
  switch (status) {
    case "live":
      return "RUNNING";
    case "released":
    case "failed":
    case "idle":
      return "ENDED";
    default:
      return "ERROR";
  }
}

/**
 * True when an answer to `GET /v1/sessions/{id}` does not describe a session
 * with that id, so it proves absence:
 * - an answer for another id;
 * - on self-hosted steel-browser, any `released` answer: it answers an id it
 *   does not hold (never created, replaced, or released) with a made-up
 *   record `{ id, status: "released", duration: 0, timeout: 0, eventCount: 0,
 *   createdAt: now }` instead of 404, and keeps no readable record of a
 *   released session, so "released" there means "not held";
 * - on Steel cloud (which answers 404 for an unknown id), a `released` record
 *   with that same all-zero signature, as a guard against a server that
 *   behaves like steel-browser. A real cloud session carries its timeout
 *   (never 0).
 */
export function isAbsenceAnswer(session: Steel.Session, requestedId: string, selfHosted: boolean): boolean {
  if (typeof session?.id !== "string" || session.id.toLowerCase() !== requestedId.toLowerCase()) return true;
  if (session.status !== "released") return false;
  if (selfHosted) return true;
  return session.duration === 0 && session.timeout === 0 && (session.eventCount ?? 0) === 0;
}

/** What a Steel session is, in the provider contract's terms. `cdpUrl` is the bare `websocketUrl` (no key). */
export function toProviderSession(
  session: Steel.Session,
  context: { openTag: string; profileId: string | undefined; secrets: readonly string[] },
): ProviderSession {
  const viewer = typeof session.sessionViewerUrl === "string" && session.sessionViewerUrl !== "" ? session.sessionViewerUrl : undefined;
  const websocket = typeof session.websocketUrl === "string" && session.websocketUrl !== "" ? session.websocketUrl : undefined;
  return {
    id: session.id,
    status: sessionStatus(session.status),
    ...(websocket ? { cdpUrl: redactSecrets(websocket, context.secrets) } : {}),
    ...(viewer ? { liveViewUrl: redactSecrets(viewer, context.secrets) } : {}),
    ...(context.profileId !== undefined ? { profileId: context.profileId } : {}),
    openTag: context.openTag,
    createdAt: typeof session.createdAt === "string" ? session.createdAt : new Date().toISOString(),
  };
}

/** The `dimensions` a Steel session reports, when well-formed. */
export function dimensionsOf(session: Steel.Session): Viewport | undefined {
  const dimensions = (session as { dimensions?: unknown }).dimensions as { width?: unknown; height?: unknown } | undefined;
  if (!dimensions || !Number.isInteger(dimensions.width) || !Number.isInteger(dimensions.height)) return undefined;
  const width = dimensions.width as number;
  const height = dimensions.height as number;
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/**
 * The URL Playwright connects to: the session's `websocketUrl` with the key as
 * `apiKey` query parameter (`&apiKey=` after an existing query, else
 * `?apiKey=`). It carries the credential: hand it to `connectOverCDP` only.
 */
export function withApiKey(websocketUrl: string, apiKey: string | undefined): string {
  if (apiKey === undefined) return websocketUrl;
  const separator = !websocketUrl.includes("?") ? "?" : websocketUrl.endsWith("?") || websocketUrl.endsWith("&") ? "" : "&";
  return `${websocketUrl}${separator}apiKey=${encodeURIComponent(apiKey)}`;
}
