/**
 * A provider whose answers are lost or refused on cue, around a real one: the
 * provider really holds the sessions whose answers were lost, as a hosted
 * fleet would after a reset.
 */
import { NotFoundError, OutcomeUnknownError, ProviderError } from "../../src/errors.js";
import type { PlaywrightProvider } from "../../src/providers/local/index.js";

/** Faults to inject on the next calls. */
export interface Faults {
  /** Create for real, then lose the answer. */
  loseCreateAnswer: number;
  /** Fail before anything is created, with an unknown outcome. */
  failCreateUnknown: number;
  /** Refuse a release (the session keeps running). */
  refuseRelease: number;
  /** Answer a release with not-found (after really releasing). */
  releaseNotFound: number;
}

export function faulty(inner: PlaywrightProvider, faults: Faults): PlaywrightProvider {
  return {
    ...inner,
    name: inner.name,
    async create(request) {
      if (faults.failCreateUnknown > 0) {
        faults.failCreateUnknown--;
        throw new OutcomeUnknownError("local: create session got no answer (injected before creating)");
      }
      const session = await inner.create(request);
      if (faults.loseCreateAnswer > 0) {
        faults.loseCreateAnswer--;
        throw new OutcomeUnknownError("local: create session got no answer after the request was sent (injected)");
      }
      return session;
    },
    async release(id) {
      if (faults.refuseRelease > 0) {
        faults.refuseRelease--;
        throw new ProviderError("local: release session failed (503, injected)", { status: 503 });
      }
      await inner.release(id);
      if (faults.releaseNotFound > 0) {
        faults.releaseNotFound--;
        throw new NotFoundError("local: release session: not found (404, injected)");
      }
    },
  };
}

/** No faults armed. */
export function noFaults(): Faults {
  return { loseCreateAnswer: 0, failCreateUnknown: 0, refuseRelease: 0, releaseNotFound: 0 };
}
