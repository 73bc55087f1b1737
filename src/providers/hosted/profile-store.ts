/**
 * Where a hosted provider keeps the mapping from the host's profile ids to
 * its own state (a Browserbase context id, a Steel profile id). In memory by
 * default; `createFileProfileStore` (Node, `station-browser-use/playwright`)
 * keeps it across restarts. Neutral code.
 */

/** Host profile id → provider profile/context id. */
export interface ProfileStore {
  get(profileId: string): Promise<string | undefined>;
  set(profileId: string, providerId: string): Promise<void>;
  delete(profileId: string): Promise<void>;
}

/** A profile store in memory: the mapping is lost when the process ends. */
export function createMemoryProfileStore(initial: Record<string, string> = {}): ProfileStore {
  const map = new Map(Object.entries(initial));
  return {
    async get(profileId) {
      return map.get(profileId);
    },
    async set(profileId, providerId) {
      map.set(profileId, providerId);
    },
    async delete(profileId) {
      map.delete(profileId);
    },
  };
}
