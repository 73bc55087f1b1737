/**
 * Host profile grants on Steel: the first persisting session creates the
 * Steel profile, its id is kept in the `ProfileStore`, and a profile is
 * reused only once Steel reports it `READY` (`UPLOADING` means the last
 * session's browser data is still being saved; `FAILED` is final). Neutral code.
 */
import { ActionFailedError, ProfileError, isNotFoundError } from "../../errors.js";
import { abortableSleep } from "../hosted/rate-limit.js";
import type { ProfileGrant } from "../types.js";
import type { SteelApi } from "./api.js";
import type { ResolvedSteelOptions } from "./options.js";

/** Profile bookkeeping of one Steel provider. */
export interface SteelProfiles {
  /** Waits until the granted profile's stored Steel profile is `READY` (nothing to wait for when it has none yet). */
  awaitPersisted(profile: ProfileGrant, signal?: AbortSignal): Promise<void>;
  /** The Steel profile id a new session should load (after it reads `READY`), or `undefined` to create one. */
  prepare(profile: ProfileGrant, signal?: AbortSignal): Promise<string | undefined>;
  /** Records the Steel profile a session created or used for a host profile. */
  remember(hostProfileId: string, steelProfileId: string): Promise<void>;
  /** The host profile id for a Steel profile id this provider has seen, if any. */
  hostIdOf(steelProfileId: string): string | undefined;
}

/** Profile bookkeeping backed by `options.profileStore`. */
export function createSteelProfiles(api: SteelApi, options: ResolvedSteelOptions): SteelProfiles {
  const store = options.profileStore;
  /** Host ids whose profile read READY in `awaitPersisted` and has not been used since. */
  const verified = new Map<string, string>();
  const hostIds = new Map<string, string>();

  async function storedId(hostProfileId: string): Promise<string | undefined> {
    let steelId: string | undefined;
    try {
      steelId = await store.get(hostProfileId);
    } catch (error) {
      throw new ProfileError(`steel: could not read the profile store for profile ${hostProfileId}: ${describe(error)}`);
    }
    if (steelId !== undefined) hostIds.set(steelId, hostProfileId);
    return steelId;
  }

  /** Polls until READY; returns the id to load, or undefined when Steel no longer has the profile. */
  async function waitReady(hostProfileId: string, steelId: string, signal?: AbortSignal): Promise<string | undefined> {
    const deadline = Date.now() + options.profileReadyTimeoutMs;
    let wait = options.profilePollMs;
    for (;;) {
      const profile = await api
        .callOrAbsent({ operation: `read profile of ${hostProfileId}`, mutating: false, signal }, () =>
          api.client.profiles.get(encodeURIComponent(steelId), signal ? { signal } : undefined),
        )
        .catch((error: unknown) => {
          // callOrAbsent answers a missing profile with undefined; a not-found thrown means the server lacks the route.
          // (Its message names the Steel profile id, which is never shown: not repeated.)
          if (!isNotFoundError(error)) throw error;
          throw new ProfileError(
            `steel: profile ${hostProfileId} cannot be used: this Steel server has no profiles API (it answers 404 "Route … not found" for /v1/profiles); profiles need Steel cloud. Its stored mapping is kept.`,
          );
        });
      if (profile === undefined) {
        // Steel deletes profiles unused for 30 days: the next persisting session starts a new one.
        await store.delete(hostProfileId).catch(() => undefined);
        hostIds.delete(steelId);
        return undefined;
      }
      switch (profile.status) {
        case "READY":
          return steelId;
        case "FAILED":
          throw new ProfileError(
            `steel: profile ${hostProfileId} failed to persist (Steel reports FAILED, e.g. over its 300 MB limit); it cannot be used again. ` +
              "Delete its entry from the profile store to start a fresh profile.",
          );
        default: {
          // UPLOADING (or a state we do not know): the last session's data is not saved yet; never reuse it now.
          if (Date.now() + wait > deadline) {
            throw new ProfileError(
              `steel: profile ${hostProfileId} is still ${String(profile.status)} after ${options.profileReadyTimeoutMs} ms; try again later`,
            );
          }
          try {
            await abortableSleep(wait, signal);
          } catch {
            throw new ActionFailedError(`steel: cancelled while waiting for profile ${hostProfileId} to be saved`);
          }
          wait = Math.min(wait * 2, options.profilePollMaxMs);
        }
      }
    }
  }

  return {
    async awaitPersisted(profile, signal) {
      if (options.selfHosted) return; // steel-browser has no profiles API; create refuses grants there.
      const steelId = await storedId(profile.id);
      if (steelId === undefined) return;
      const ready = await waitReady(profile.id, steelId, signal);
      if (ready !== undefined) verified.set(profile.id, ready);
    },
    async prepare(profile, signal) {
      const steelId = await storedId(profile.id);
      const checked = verified.get(profile.id);
      verified.delete(profile.id);
      if (steelId === undefined) return undefined;
      if (checked === steelId) return steelId;
      return waitReady(profile.id, steelId, signal);
    },
    async remember(hostProfileId, steelProfileId) {
      hostIds.set(steelProfileId, hostProfileId);
      await store.set(hostProfileId, steelProfileId);
    },
    hostIdOf: (steelProfileId) => hostIds.get(steelProfileId),
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
