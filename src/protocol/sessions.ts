/**
 * The session-level shapes of the vocabulary: what the manager hands out and
 * the worker sends for sessions, human control, checkpoints, recordings and
 * reconciliation. Declared once, as valibot schemas; the manager's types are
 * inferred from them and the client checks the worker's answers with them.
 * Unknown fields from a newer worker are kept, not refused (loose objects);
 * the types name only the declared fields.
 */
import * as v from "valibot";
import type { Shape } from "./declared.js";
import { OpenOptionsSchema } from "./open-options.js";
import { ChallengeResultSchema } from "./results.js";

const text = v.string();
const id = v.pipe(text, v.minLength(1));
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** Who drives a session now. Never carries the token. */
export const ControlStateSchema = v.looseObject({ mode: v.picklist(["automation", "human"]), expiresAt: v.optional(text) });
export type ControlState = Shape<typeof ControlStateSchema>;

/**
 * The answer to a control release: automation drives again, and what challenge
 * detection sees on the page now (absent when the page could not be read), so
 * the host knows whether the agent can resume.
 */
export const ControlReleaseSchema = v.looseObject({ mode: v.literal("automation"), challenge: v.optional(ChallengeResultSchema) });
export type ControlRelease = Shape<typeof ControlReleaseSchema>;

/** A granted lease: the token goes to the human's client only, never to a model. */
export const ControlGrantSchema = v.looseObject({ token: id, expiresAt: text });
export type ControlGrant = Shape<typeof ControlGrantSchema>;

/** A session as the manager lists it. */
export const ManagedSessionInfoSchema = v.looseObject({
  id,
  provider: text,
  /** The client-made tag of the open that created it. */
  openTag: text,
  profileId: v.optional(text),
  liveViewUrl: v.optional(text),
  openedAt: text,
  lastActionAt: v.optional(text),
  /** The op running now, if any. */
  busy: v.optional(text),
  control: ControlStateSchema,
});
export type ManagedSessionInfo = Shape<typeof ManagedSessionInfoSchema>;

const { openTag: _openTag, ...checkpointOptions } = OpenOptionsSchema.entries;

/** A resumable description of a session. */
export const CheckpointSchema = v.looseObject({
  id,
  createdAt: text,
  /** Session the checkpoint was taken from. */
  sessionId: text,
  /** Provider name (`local`, `browserbase`, `steel`). */
  backend: text,
  /** The validated open options (no open tag). */
  options: v.looseObject(checkpointOptions),
  /** Pages in order, URLs sanitised (http(s) without credentials, query or fragment, or about:blank). */
  pages: v.array(v.looseObject({ url: text, title: text })),
  /** Index of the selected page in `pages`. */
  selectedIndex: count,
});
export type Checkpoint = Shape<typeof CheckpointSchema>;

/** A recording's metadata. */
export const RecordingMetaSchema = v.looseObject({
  id,
  sessionId: text,
  startedAt: text,
  stoppedAt: v.optional(text),
  state: v.picklist(["recording", "stopped"]),
  /** Why it stopped: asked, session closed, a limit reached, or recovered after a restart. */
  stopReason: v.optional(v.picklist(["stopped", "sessionClosed", "frameLimit", "byteLimit", "recovered"])),
  frames: v.array(v.looseObject({ id: text, capturedAt: text, bytes: count })),
});
export type RecordingMeta = Shape<typeof RecordingMetaSchema>;

/** A recorded frame (or a live frame) as returned to callers. */
export const RecordingFrameSchema = v.looseObject({ mimeType: v.literal("image/png"), base64: text, capturedAt: text });
export type RecordingFrame = Shape<typeof RecordingFrameSchema>;

/**
 * A live frame: a recording frame plus its size and its scale (image pixels
 * per CSS pixel of the viewport), so a viewer can map a point on the image
 * back to the page. Older workers leave size and scale out.
 */
export const LiveFrameSchema = v.looseObject({ ...RecordingFrameSchema.entries, width: v.optional(count), height: v.optional(count), scale: v.optional(v.number()) });
export type LiveFrame = Shape<typeof LiveFrameSchema>;

/**
 * A live view link (the worker's `liveView`): `url` opens the worker's live
 * view page for one session until `expiresAt`; it carries a signed view token,
 * so hand it only to the human who should watch (and may take control).
 * `providerUrl` is the hosted provider's own live view (Browserbase's debugger
 * URL, Steel's session viewer) when the session runs there.
 */
export interface LiveView {
  url: string;
  expiresAt: string;
  providerUrl?: string;
}

/** The worker's answer to `liveView`: the page's path (with the token), for the client to put under its base URL. */
export const LiveViewAnswerSchema = v.looseObject({ path: v.pipe(text, v.regex(/^\/live\//)), expiresAt: text, providerUrl: v.optional(text) });
export type LiveViewAnswer = Shape<typeof LiveViewAnswerSchema>;

/**
 * What one reconcile pass did. Each provider session is in one list only: a
 * release that fails while an open is settled is reported unresolved (and
 * owed, in `pendingReleases`), and the next pass retries it.
 */
export const ReconcileReportSchema = v.looseObject({
  /** Uncertain opens found running and handed back as sessions (with `adopt`). */
  adopted: v.array(v.looseObject({ openTag: text, sessionId: text })),
  /** Provider sessions found (or pending) and released now. */
  released: v.array(v.looseObject({ openTag: text, providerSessionId: text })),
  /** Uncertain opens proven absent (nothing runs under their tag). */
  absent: v.array(text),
  /** Still unsettled: the provider could not be asked, or a release failed again. */
  unresolved: v.array(v.looseObject({ openTag: text, providerSessionId: v.optional(text), reason: text })),
});
export type ReconcileReport = Shape<typeof ReconcileReportSchema>;
