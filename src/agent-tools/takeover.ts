import type { ChallengeResult } from "../protocol/results.js";
import type { ToolContext } from "./define-tool.js";
import { textReply, type ToolReply } from "./reply.js";
import type { SessionEntry } from "./sessions.js";

/**
 * Human takeover from the tools' side: once a result shows that the site owns
 * the page (a challenge, a block, a throttle; a login wall when the host opts
 * in), the toolset stops mutating that session until the page no longer shows
 * it. Nothing here solves or bypasses a challenge: a human does, in the live view.
 */

/** What the host is told when a session needs a human (`onTakeover`, and `takeover` on the tool result). */
export interface TakeoverNotice {
  /** The backend's session id (the host's, never shown to the model). */
  sessionId: string;
  /** The alias the model knows the session by. */
  session: string;
  /** What detection saw. */
  challenge: ChallengeResult;
  /** The session's live view page, from the `liveView` option; never a control token. */
  liveViewUrl?: string;
}

/** Whether `challenge` (from a result) stops the session's mutating calls. */
export function holdsSession(context: ToolContext, challenge: unknown): challenge is ChallengeResult {
  const state = (challenge as { state?: unknown } | undefined)?.state;
  return state === "challenge" || state === "blocked" || state === "rate_limited" || (state === "login_wall" && context.options.takeoverOnLoginWall);
}

/** How a held session's state reads to the model: `challenge (cloudflare)`, `rate limited`. */
const described = (challenge: ChallengeResult) => `${challenge.state.replace("_", " ")}${challenge.vendor ? ` (${challenge.vendor})` : ""}`;

/**
 * Holds the session: later mutating calls are refused until the page no
 * longer shows `challenge`. Asks the host for the live view URL and tells it
 * (`onTakeover`); neither failing changes the hold. Returns the line for the
 * model and the notice for the host.
 */
export async function holdSession(context: ToolContext, entry: SessionEntry, challenge: ChallengeResult): Promise<{ line: string; notice: TakeoverNotice }> {
  entry.held = challenge;
  const { liveView, onTakeover } = context.options;
  const liveViewUrl = liveView && (await Promise.resolve(entry.id).then(liveView).catch(() => undefined));
  const notice: TakeoverNotice = { sessionId: entry.id, session: entry.alias, challenge, ...(typeof liveViewUrl === "string" ? { liveViewUrl } : {}) };
  // The host's callback failing must not undo the hold.
  await Promise.resolve(notice).then(onTakeover).catch(() => undefined);
  return { line: `takeover: ${described(challenge)} on ${entry.alias}; a human must take it over. ${wait}`, notice };
}

const wait = "Its actions are refused until the page no longer shows it: do not retry or work around it, wait for the user (observing still works).";

/**
 * Before a mutating call on a held session: one `challenge` read (an
 * observation). Gone → the hold ends and the call may run (`undefined`);
 * still there, or unreadable → a refusal, and nothing was sent.
 */
export async function heldRefusal(context: ToolContext, entry: SessionEntry): Promise<ToolReply | undefined> {
  if (!entry.held) return undefined;
  const now = await context.backend.execute(entry.id, { op: "challenge" }, context.signal ? { signal: context.signal } : {}).catch(() => entry.held!);
  if (!holdsSession(context, now)) return void (entry.held = undefined);
  entry.held = now;
  return textReply([`outcome: refused — ${entry.alias} still shows ${described(now)}; nothing was sent. ${wait}`], true);
}
