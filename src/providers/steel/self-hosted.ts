/**
 * What a self-hosted steel-browser needs beyond Steel cloud: it runs one
 * browser, so one create or release at a time holds it, and it reports a
 * session `live` while its browser is still launching, when a release
 * crashes it. Neutral code.
 */
import { ActionFailedError, CapacityError, TimeoutError, isProviderError } from "../../errors.js";
import { abortableSleep } from "../hosted/rate-limit.js";
import type { SteelApi } from "./api.js";
import type { ResolvedSteelOptions } from "./options.js";

/** The one browser of a steel-browser server, claimed synchronously (before any await) by each create and release. */
export interface SelfHostedSlot {
  /**
   * Claims the server for a create; throws `CapacityError` at once while
   * another create or a release is in flight (a create during either would
   * replace, or be ended by, the other's browser). Returns the release.
   */
  claimForCreate(sessionId: string): () => void;
  /** Marks a release in flight (releases are not refused: a release of a session twice is harmless). */
  claimForRelease(sessionId: string): () => void;
}

/** The slot of one provider. */
export function createSelfHostedSlot(): SelfHostedSlot {
  const inFlight = new Map<symbol, string>();
  function claim(what: string): () => void {
    const key = Symbol(what);
    inFlight.set(key, what);
    return () => void inFlight.delete(key);
  }
  return {
    claimForCreate(sessionId) {
      const [busy] = inFlight.values();
      if (busy !== undefined) {
        throw new CapacityError(`steel: self-hosted Steel runs one session at a time and ${busy} is in progress; session ${sessionId} was not created`);
      }
      return claim(`the open of session ${sessionId}`);
    },
    claimForRelease: (sessionId) => claim(`the release of session ${sessionId}`),
  };
}

/**
 * Waits until session `id`'s browser answers `GET /v1/sessions/{id}/live-details`
 * (steel-browser answers 5xx, or not at all, while it launches), polling with
 * a doubling pause. Gives up after `launchTimeoutMs` of pauses with a
 * `TimeoutError`, or when `signal` aborts with an `ActionFailedError`
 * (each saying `consequence`); either way the caller must not use it yet.
 */
export async function awaitLaunched(
  api: SteelApi,
  options: ResolvedSteelOptions,
  id: string,
  signal?: AbortSignal,
  consequence = "it was not connected to",
): Promise<void> {
  const sleep = options.sleep ?? abortableSleep;
  let waited = 0;
  let pause = options.launchPollMs;
  for (;;) {
    try {
      await api.call({ operation: `read live details of session ${id}`, mutating: false, signal }, () =>
        api.client.sessions.liveDetails(encodeURIComponent(id), signal ? { signal } : undefined),
      );
      return;
    } catch (error) {
      const launching = isProviderError(error) && (error.status === undefined || error.status >= 500);
      if (!launching) throw error;
      const reason = error.message;
      if (waited + pause > options.launchTimeoutMs) {
        throw new TimeoutError(`steel: session ${id} is still launching after ${waited} ms (${reason}); ${consequence}`);
      }
      try {
        await sleep(pause, signal);
      } catch {
        throw new ActionFailedError(`steel: cancelled while waiting for session ${id} to finish launching; ${consequence}`);
      }
      waited += pause;
      pause = Math.min(pause * 2, options.launchPollMaxMs);
    }
  }
}
