/**
 * Reads one file out of a zip archive held in memory (neutral code), with
 * fflate's synchronous reader: its central directory lists the entries, and
 * only the entry asked for is inflated, into a buffer of the size the
 * directory states, which the caller's limit bounds first (data that
 * inflates past that size is cut at it). A malformed archive, or an entry
 * past `maxBytes`, is a `ProviderError`.
 */
import { unzipSync } from "fflate";
import { ProviderError } from "../../errors.js";

/** One file of an archive, as its central directory describes it. */
export interface ZipEntry {
  name: string;
  /** Inflated size, as the directory states it. */
  size: number;
}

function malformed(what: string, error: unknown): ProviderError {
  return new ProviderError(`${what}: the archive is not a zip this reader takes (${error instanceof Error ? error.message : String(error)})`);
}

/** The entries of the archive `bytes` (files only; folders are left out). `what` names it in errors. */
export function zipEntries(bytes: Uint8Array, what: string): ZipEntry[] {
  if (bytes.byteLength === 0) return [];
  const entries: ZipEntry[] = [];
  try {
    unzipSync(bytes, {
      filter(file) {
        if (!file.name.endsWith("/")) entries.push({ name: file.name, size: file.originalSize });
        return false;
      },
    });
  } catch (error) {
    throw malformed(what, error);
  }
  return entries;
}

/** The bytes of `entry` of the archive `bytes`, at most `maxBytes`. */
export function unzipEntry(bytes: Uint8Array, entry: ZipEntry, maxBytes: number, what: string): Uint8Array {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter(file) {
        if (file.name !== entry.name) return false;
        if (file.originalSize > maxBytes) throw new ProviderError(`${what}: ${entry.name} is ${file.originalSize} bytes, past the ${maxBytes}-byte download limit`);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    throw malformed(what, error);
  }
  const data = files[entry.name];
  if (!data) throw malformed(what, new Error(`no entry ${entry.name}`));
  return data;
}
