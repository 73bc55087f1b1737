/**
 * A persistent account, the way a host runs one per tenant: link it once with
 * a human, reuse it in short sessions, and send messages at a person's pace.
 *
 * - {@link linkAccount}: the agent (a fixed script standing in for a model,
 *   driving the agent tools) opens the account's profile and sees the QR page
 *   (`login_wall`); the tools hold the session and hand it to a human through
 *   the live view; once the page no longer shows the login wall the agent
 *   goes on, checks the chat and closes its session (not a logout).
 * - {@link checkLinked}: a new session on the same profile, no human.
 * - {@link sendMessages}: the host's own job, straight on the client: opened
 *   with a pacing policy, each message typed and sent, then the page's answer
 *   read. A throttle banner pauses the profile; the next send is refused
 *   (`RateLimitedError`) and the job stops instead of retrying.
 * - {@link postMedia}: a large file the host hands over (bytes or a stream,
 *   never a path) is staged through the worker and set into the upload form;
 *   it is published only when the host's task says so.
 */
import { createBrowserAgentTools, type BrowserUseClient, type TakeoverNotice } from "../../src/agent.js";
import { stageFile } from "../../src/client/stage-file.js";
import type { StageFileInput } from "../../src/protocol/staging.js";
import type { BrowserUseClientOptions } from "../../src/client/options.js";
import { isRateLimitedError } from "../../src/errors.js";
import type { OpenOptions } from "../../src/protocol/open-options.js";

export interface LinkReport {
  /** What the tools told the host when the agent met the QR page. */
  takeover?: TakeoverNotice;
  /** The agent's mutating call while the session was held: refused, nothing sent. */
  refusedWhileHeld: boolean;
  /** The chat shows after the human's turn. */
  linked: boolean;
  /** The model-facing texts, in order (never a live view URL or token). */
  modelTexts: string[];
}

/**
 * First run. `handOver(notice)` is the host telling a human (the notice's
 * `liveViewUrl`) and resolving once the human says they are done.
 */
export async function linkAccount(
  client: BrowserUseClient,
  options: { profileId: string; siteUrl: string; handOver: (notice: TakeoverNotice) => Promise<void> },
): Promise<LinkReport> {
  const notices: TakeoverNotice[] = [];
  const toolset = createBrowserAgentTools({
    client,
    maxSessions: 1,
    profileIds: [options.profileId],
    takeoverOnLoginWall: true,
    liveView: async (sessionId) => (await client.createLiveView(sessionId, { ttlMs: 10 * 60_000 })).url,
    onTakeover: (notice) => void notices.push(notice),
  });
  const tool = (name: string) => toolset.tools.find((each) => each.name === `station_browser_${name}`)!;
  const modelTexts: string[] = [];
  const call = async (name: string, input: Record<string, unknown>) => {
    const reply = await tool(name).execute(input);
    modelTexts.push(reply.text);
    return reply;
  };
  try {
    const opened = await call("open", { profile: options.profileId, url: options.siteUrl });
    const takeover = opened.takeover ?? notices[0];
    let refusedWhileHeld = false;
    if (takeover) {
      // The agent tries to go on anyway: the tools refuse, nothing reaches the page.
      refusedWhileHeld = (await call("navigate", { action: "reload" })).isError === true;
      await options.handOver(takeover);
    }
    // The page no longer shows the login wall: the hold ends and this call runs.
    await call("navigate", { action: "reload" });
    const linked = /\bChats\b/.test((await call("observe", { mode: "text" })).text);
    await call("close", {});
    return { ...(takeover ? { takeover } : {}), refusedWhileHeld, linked, modelTexts };
  } finally {
    await toolset.close();
  }
}

/** Second run: a short session with the same profile; linked when the site shows the chat with no login wall. */
export async function checkLinked(client: BrowserUseClient, options: { profileId: string; siteUrl: string }): Promise<{ linked: boolean; challenge?: string }> {
  const { id } = await client.open({ profileId: options.profileId, openTag: crypto.randomUUID() });
  try {
    const navigated = await client.execute(id, { op: "navigate", url: options.siteUrl });
    const { text } = await client.execute(id, { op: "text" });
    return { linked: navigated.challenge === undefined && /\bChats\b/.test(text), ...(navigated.challenge ? { challenge: navigated.challenge.state } : {}) };
  } finally {
    await client.close(id);
  }
}

export interface SendReport {
  sessionId: string;
  /** Messages the page showed as sent. */
  sent: string[];
  /** The page showed "You're sending too many messages". */
  throttleBanner: boolean;
  /** The throttle state detection read after the banner (the manager pauses the profile on it). */
  throttleState?: string;
  /** The send the pacer refused after the pause (nothing reached the page), with when it may run. */
  pausedRetryAfterMs?: number;
}

/**
 * Sends `messages` in one session of the profile, under `pacing` (the open's
 * option: `true` for the default policy). Stops at the first refusal: a
 * throttled account is left alone until its pause ends, never retried.
 */
export async function sendMessages(
  client: BrowserUseClient,
  options: { profileId: string; siteUrl: string; messages: readonly string[]; pacing: OpenOptions["pacing"] },
): Promise<SendReport> {
  const { id } = await client.open({ profileId: options.profileId, openTag: crypto.randomUUID(), pacing: options.pacing });
  const report: SendReport = { sessionId: id, sent: [], throttleBanner: false };
  try {
    await client.execute(id, { op: "navigate", url: options.siteUrl });
    for (const message of options.messages) {
      try {
        await client.execute(id, { op: "fill", selector: "#message", value: message });
        await client.execute(id, { op: "click", selector: "#send" });
      } catch (error) {
        if (!isRateLimitedError(error)) throw error;
        report.pausedRetryAfterMs = error.retryAfterMs;
        break;
      }
      // "typing…", then either the message or the throttle banner (observations: never paced).
      await client.execute(id, { op: "waitFor", selector: `#log .msg[data-n="${report.sent.length + 1}"], #throttle` });
      if (/sending too many messages/.test((await client.execute(id, { op: "text" })).text)) {
        report.throttleBanner = true;
        // A fresh read: a `rate_limited` state pauses the profile (the click's result may already have carried it).
        report.throttleState = (await client.execute(id, { op: "challenge" })).state;
        continue;
      }
      report.sent.push(message);
    }
    return report;
  } finally {
    await client.close(id);
  }
}

export interface MediaReport {
  /** What the worker staged (its size as counted on the way in). */
  staged: { fileId: string; size: number };
  /** "Publish" was clicked (the host's task asked for it). */
  published: boolean;
}

/**
 * Uploads one file in a session of the profile: staged through the worker
 * (past the 4 MiB command path), set into `#media`, sent with "Upload".
 * "Publish" is clicked only when `publish` is true: uploading never publishes.
 */
export async function postMedia(
  client: BrowserUseClient,
  clientOptions: BrowserUseClientOptions,
  options: { profileId: string; siteUrl: string; file: StageFileInput; publish: boolean },
): Promise<MediaReport> {
  const { id } = await client.open({ profileId: options.profileId, openTag: crypto.randomUUID() });
  try {
    await client.execute(id, { op: "navigate", url: options.siteUrl });
    const staged = await stageFile(clientOptions, id, options.file);
    await client.execute(id, { op: "upload", selector: "#media", files: [{ staged: staged.fileId }] });
    await client.execute(id, { op: "click", selector: "#upload" });
    // The page posts the file to the site and then shows how it went (50 MB to a local site: a few seconds).
    await settled(client, id, "uploaded", 60_000);
    if (options.publish) {
      await client.execute(id, { op: "click", selector: "#publish" });
      await settled(client, id, "published", 10_000);
    }
    return { staged: { fileId: staged.fileId, size: staged.size }, published: options.publish };
  } finally {
    await client.close(id);
  }
}

/** Waits until the page's media status is `want` or "failed"; a failure throws with the page's words. */
async function settled(client: BrowserUseClient, id: string, want: "uploaded" | "published", timeoutMs: number): Promise<void> {
  const status = `#media-status[data-state="${want}"], #media-status[data-state="failed"]`;
  await client.execute(id, { op: "waitFor", selector: status, timeoutMs });
  const { value } = await client.execute(id, { op: "evaluate", expression: `[document.getElementById("media-status").dataset.state, document.getElementById("media-status").textContent]` });
  const [state, text] = value as [string, string];
  if (state !== want) throw new Error(`postMedia: the site did not take the file: ${text}`);
}
