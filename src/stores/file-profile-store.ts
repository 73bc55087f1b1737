import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { ValidationError } from "../errors.js";
import type { ProfileStore } from "../providers/hosted/profile-store.js";
import { readJsonFile, writeFileAtomically } from "./atomic-file.js";

const field = "profileStore.path";

/** The file's shape: `{ "version": 1, "profiles": { "<host profile id>": "<provider id>" } }`. */
interface ProfileFile {
  version: 1;
  profiles: Record<string, string>;
}

function parseProfileFile(value: unknown, path: string): Map<string, string> {
  const problem = `${path} is not a profile store file ({"version":1,"profiles":{…}}); it was left as it is: repair or remove it`;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new ValidationError(field, problem);
  const { version, profiles } = value as Partial<ProfileFile>;
  if (version !== 1 || typeof profiles !== "object" || profiles === null || Array.isArray(profiles)) throw new ValidationError(field, problem);
  const map = new Map<string, string>();
  for (const [profileId, providerId] of Object.entries(profiles)) {
    if (typeof providerId !== "string") throw new ValidationError(field, `${path}: the entry of profile ${profileId} is not a string; ${problem}`);
    map.set(profileId, providerId);
  }
  return map;
}

/**
 * A profile store in one JSON file (Node): host profile id → provider id (a
 * Browserbase context id, a Steel profile id). Read once, on first use;
 * every change rewrites the file atomically (temporary file, fsync, rename),
 * in call order, so a failed write leaves the previous mapping intact and
 * the store unchanged. The parent directory is created when missing; the
 * file is created with mode 0600.
 *
 * Each change re-reads the file first, so two stores (or processes) on one
 * file keep each other's entries; writes at the very same moment can still
 * race (there is no cross-process lock). Give each worker its own file.
 *
 * @throws {ValidationError} (on first use) when the file exists but is not a profile store file; it is left untouched.
 * @example
 * ```ts
 * const profileStore = createFileProfileStore("/var/lib/station/browserbase-profiles.json");
 * const provider = createBrowserbaseProvider({ apiKey, profileStore });
 * ```
 */
export function createFileProfileStore(path: string): ProfileStore {
  if (typeof path !== "string" || path.length === 0) throw new ValidationError(field, "expected a file path");
  const file = resolve(path);
  let loaded: Promise<Map<string, string>> | undefined;
  /** Writes run one after another; each starts from the mapping the previous one committed. */
  let queue: Promise<unknown> = Promise.resolve();

  function load(): Promise<Map<string, string>> {
    if (!loaded) {
      const loading = readJsonFile(file, field).then((value) => (value === undefined ? new Map<string, string>() : parseProfileFile(value, file)));
      // A failed read is tried again on the next call.
      loading.catch(() => {
        if (loaded === loading) loaded = undefined;
      });
      loaded = loading;
    }
    return loaded;
  }

  function change(apply: (next: Map<string, string>) => boolean): Promise<void> {
    const run = queue.then(async () => {
      // Read afresh: another store on the same file may have written since, and a change of ours must
      // not drop its entries. A missing file keeps what this store knows; a failed read fails the change.
      const fresh = await readJsonFile(file, field);
      const current = fresh === undefined ? await load() : parseProfileFile(fresh, file);
      const next = new Map(current);
      if (!apply(next)) return;
      const contents: ProfileFile = { version: 1, profiles: Object.fromEntries(next) };
      await mkdir(dirname(file), { recursive: true });
      await writeFileAtomically(file, `${JSON.stringify(contents, null, 2)}\n`);
      // Committed: only now does the store see the change.
      loaded = Promise.resolve(next);
    });
    queue = run.catch(() => undefined);
    return run;
  }

  return {
    async get(profileId) {
      await queue;
      return (await load()).get(profileId);
    },
    set(profileId, providerId) {
      if (typeof providerId !== "string" || providerId.length === 0) {
        return Promise.reject(new ValidationError("providerId", "expected a non-empty provider id"));
      }
      return change((next) => {
        if (next.get(profileId) === providerId) return false;
        next.set(profileId, providerId);
        return true;
      });
    },
    delete(profileId) {
      return change((next) => next.delete(profileId));
    },
  };
}
