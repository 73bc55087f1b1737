import { randomBytes } from "node:crypto";
import { dirname } from "node:path";
import { ValidationError } from "../errors.js";
import { nodeFileSystem, type StoreFileSystem } from "./file-system.js";

/**
 * A fresh temporary name beside `path`: `<path>.<pid>.<random>.tmp`, so a
 * rename onto `path` stays on the same file system.
 *
 * @example
 * ```ts
 * temporaryPathFor("/state/journal.json"); // "/state/journal.json.4242.9f1c2e7a5b3d.tmp"
 * ```
 */
export function temporaryPathFor(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
}

/**
 * Flushes a directory's entries (a rename is durable only once its directory
 * is). Best effort: some platforms and file systems cannot sync a directory.
 *
 * @example
 * ```ts
 * await syncDirectory("/state");
 * ```
 */
export async function syncDirectory(directory: string, fs: StoreFileSystem = nodeFileSystem): Promise<void> {
  try {
    const handle = await fs.open(directory, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not supported here (e.g. Windows, some network file systems): the rename still happened.
  }
}

/**
 * Replaces `path` atomically: writes a temporary file beside it, syncs it,
 * renames it over `path` and syncs the directory. On failure the temporary
 * file is removed, the error is rethrown and the previous file is untouched.
 *
 * @example
 * ```ts
 * await writeFileAtomically("/state/journal.json", JSON.stringify(entries));
 * ```
 */
export async function writeFileAtomically(path: string, data: string | Uint8Array, fs: StoreFileSystem = nodeFileSystem): Promise<void> {
  const temporaryPath = temporaryPathFor(path);
  let created = false;
  try {
    const handle = await fs.open(temporaryPath, "wx", 0o600);
    created = true;
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporaryPath, path);
    created = false;
  } catch (error) {
    if (created) await fs.rm(temporaryPath, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(path), fs);
}

/**
 * Reads a JSON file. A missing file reads as `undefined`; a file that is not
 * valid JSON is left as it is.
 *
 * @throws {ValidationError} naming `field` and the file when it is not valid JSON.
 * @example
 * ```ts
 * const journal = (await readJsonFile("/state/journal.json", "options.stateRootDir")) ?? [];
 * ```
 */
export async function readJsonFile(path: string, field: string, fs: StoreFileSystem = nodeFileSystem): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readFile(path, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ValidationError(field, `${path} is not valid JSON (${(error as Error).message}); it was left as it is: repair or remove it`, {
      cause: error,
    });
  }
}

/**
 * The `code` of a Node system error (`ENOENT`, `EEXIST`, …), if any.
 *
 * @example
 * ```ts
 * if (errorCode(error) === "ENOENT") return undefined;
 * ```
 */
export function errorCode(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}
