/**
 * Serialising sessions that share a Browserbase context. A context is saved
 * when its persisting session ends, and Browserbase offers no ready flag, so
 * a profile is reused only after its last session reads ended and a settle
 * delay has passed. Neutral code.
 *
 * Per host profile id, one hold:
 *   opening   a create is in flight                → a second create is refused
 *   open      a session holds the context          → refused (`ProfileInUseError`)
 *   uncertain a create's outcome is unknown        → resolved through `find(openTag)`
 *   ending    release was asked (or it ended)      → waited for: poll `get`, then settle
 * No hold: the profile is free.
 */
import { ActionFailedError, ProfileError, ProfileInUseError, isProviderError } from "../../errors.js";
import type { ProviderSession } from "../types.js";
import type { Sleep } from "./options.js";

type Hold =
  | { phase: "opening"; openTag: string }
  | { phase: "open"; openTag: string; sessionId: string }
  | { phase: "uncertain"; openTag: string }
  | { phase: "ending"; sessionId: string; settled?: Promise<void> };

/** What the holds need from the provider. */
export interface ContextHoldsDependencies {
  /** The session, or undefined when it is gone (`get`). */
  read(sessionId: string): Promise<ProviderSession | undefined>;
  /** Sessions with this open tag (`find`, which reports back through {@link ContextHolds.found}). */
  find(openTag: string): Promise<ProviderSession[]>;
  sleep: Sleep;
  settleMs: number;
  timeoutMs: number;
}

/** The per-profile serialisation state of one provider instance. */
export interface ContextHolds {
  /** Waits until the profile is free; refuses while a session of this provider holds it. */
  awaitFree(profileId: string, signal?: AbortSignal): Promise<void>;
  /** Marks a create as in flight (call right after {@link awaitFree}, without awaiting in between). */
  claim(profileId: string, openTag: string): void;
  /** The create answered with this session. */
  created(profileId: string, openTag: string, sessionId: string): void;
  /** The create failed: definitely (nothing holds the context) or with an unknown outcome. */
  failed(profileId: string, outcomeUnknown: boolean): void;
  /** Release was asked for this session (whatever its answer): its context is now persisting. */
  ending(sessionId: string): void;
  /** `find(openTag)` answered: resolves an uncertain hold with that tag. */
  found(openTag: string, sessions: readonly ProviderSession[]): void;
  /** The host profile id a session was opened for, if this provider opened it. */
  profileOf(sessionId: string): string | undefined;
}

const pollStartMs = 250;
const pollMaxMs = 2000;

const isRunning = (session: ProviderSession) => session.status === "RUNNING" || session.status === "PENDING";

/** Rejects when `signal` aborts, without stopping the shared work behind `promise`. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new ActionFailedError(`cancelled while waiting for ${what}`));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ActionFailedError(`cancelled while waiting for ${what}`));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => (signal.removeEventListener("abort", onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener("abort", onAbort), reject(error)),
    );
  });
}

/**
 * Creates the hold table of one provider instance. Holds live in memory:
 * after a restart the first open of a profile does not wait for a save the
 * previous process started (see docs/providers-browserbase.md).
 */
export function createContextHolds(dependencies: ContextHoldsDependencies): ContextHolds {
  const holds = new Map<string, Hold>();
  const profileBySession = new Map<string, string>();

  /** Polls until the session reads ended (or gone), then waits the settle delay. */
  async function settle(profileId: string, sessionId: string): Promise<void> {
    let waited = 0;
    let wait = pollStartMs;
    let lastProblem = "it still reads running";
    for (;;) {
      let ended = false;
      try {
        const session = await dependencies.read(sessionId);
        ended = session === undefined || !isRunning(session);
      } catch (error) {
        // A refusal (401, 403, 400 …) will not change by waiting; no answer or 5xx might.
        if (isProviderError(error) && error.status !== undefined && error.status >= 400 && error.status < 500) throw error;
        lastProblem = `reading it failed: ${error instanceof Error ? error.message : String(error)}`;
      }
      if (ended) break;
      if (waited + wait > dependencies.timeoutMs) {
        throw new ProfileError(
          `Profile ${profileId}: its last Browserbase session ${sessionId} did not end within ${dependencies.timeoutMs} ms (${lastProblem}), so its context may not be saved yet; release that session and try again`,
        );
      }
      await dependencies.sleep(wait);
      waited += wait;
      wait = Math.min(wait * 2, pollMaxMs);
    }
    if (dependencies.settleMs > 0) await dependencies.sleep(dependencies.settleMs);
  }

  function waitEnded(profileId: string, hold: Extract<Hold, { phase: "ending" }>): Promise<void> {
    if (!hold.settled) {
      const settling = settle(profileId, hold.sessionId).then(
        () => {
          if (holds.get(profileId) === hold) holds.delete(profileId);
          profileBySession.delete(hold.sessionId);
        },
        (error: unknown) => {
          // Let the next caller try again.
          if (hold.settled === settling) delete hold.settled;
          throw error;
        },
      );
      hold.settled = settling;
    }
    return hold.settled;
  }

  const inUse = (profileId: string, sessionId?: string) =>
    new ProfileInUseError(
      `Profile ${profileId} is already open in a Browserbase session${sessionId ? ` (${sessionId})` : ""} of this provider; close it first (sessions sharing a context are serialised)`,
    );

  const holdsApi: ContextHolds = {
    async awaitFree(profileId, signal) {
      // Each pass either returns, throws, or moves the hold forward; a few passes suffice.
      for (let pass = 0; pass < 4; pass++) {
        const hold = holds.get(profileId);
        if (!hold) return;
        switch (hold.phase) {
          case "opening":
            throw inUse(profileId);
          case "open":
            throw inUse(profileId, hold.sessionId);
          case "uncertain":
            // `find` reports back through `found`, which settles the hold.
            await untilAborted(dependencies.find(hold.openTag), signal, `the uncertain open of profile ${profileId} to be found`);
            break;
          case "ending":
            await untilAborted(waitEnded(profileId, hold), signal, `profile ${profileId} to be saved`);
            break;
        }
      }
      if (holds.has(profileId)) throw inUse(profileId);
    },
    claim(profileId, openTag) {
      const hold = holds.get(profileId);
      if (hold) throw inUse(profileId, hold.phase === "open" || hold.phase === "ending" ? hold.sessionId : undefined);
      holds.set(profileId, { phase: "opening", openTag });
    },
    created(profileId, openTag, sessionId) {
      holds.set(profileId, { phase: "open", openTag, sessionId });
      profileBySession.set(sessionId, profileId);
    },
    failed(profileId, outcomeUnknown) {
      const hold = holds.get(profileId);
      if (hold?.phase !== "opening") return;
      if (outcomeUnknown) holds.set(profileId, { phase: "uncertain", openTag: hold.openTag });
      else holds.delete(profileId);
    },
    ending(sessionId) {
      const profileId = profileBySession.get(sessionId);
      if (profileId === undefined) return;
      const hold = holds.get(profileId);
      if (hold?.phase === "ending" && hold.sessionId === sessionId) return;
      holds.set(profileId, { phase: "ending", sessionId });
    },
    found(openTag, sessions) {
      for (const [profileId, hold] of holds) {
        if (hold.phase !== "uncertain" || hold.openTag !== openTag) continue;
        for (const session of sessions) profileBySession.set(session.id, profileId);
        const running = sessions.find(isRunning);
        const ended = sessions[0];
        if (running) holds.set(profileId, { phase: "open", openTag, sessionId: running.id });
        else if (ended) holds.set(profileId, { phase: "ending", sessionId: ended.id });
        else holds.delete(profileId);
      }
    },
    profileOf(sessionId) {
      return profileBySession.get(sessionId);
    },
  };
  return holdsApi;
}
