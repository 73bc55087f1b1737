/**
 * Reads one file out of a zip archive held in memory (neutral code): the
 * central directory says where each entry is, and a deflated entry is
 * inflated with the web standard `DecompressionStream("deflate-raw")`. Only
 * what a provider's downloads archive needs: stored and deflated entries,
 * no encryption, no zip64 (each download is far below 4 GiB). A malformed
 * archive or an entry past `maxBytes` is a `ProviderError`.
 */
import { ProviderError } from "../../errors.js";
import { BodyTooLarge, readBoundedBytes } from "../../client/read-body.js";

/** One file of an archive, as its central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  size: number;
  /** Where its local header starts. */
  headerOffset: number;
}

const endOfDirectory = 0x06054b50;
const directoryHeader = 0x02014b50;
const localHeader = 0x04034b50;
const names = new TextDecoder();

function malformed(what: string, detail: string): ProviderError {
  return new ProviderError(`${what}: the archive is not a zip this reader takes (${detail})`);
}

/** The entries of the archive `bytes` (files only; folders are left out). `what` names it in errors. */
export function zipEntries(bytes: Uint8Array, what: string): ZipEntry[] {
  if (bytes.byteLength === 0) return [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  // The end record is 22 bytes plus a comment of up to 65 535.
  for (let at = bytes.byteLength - 22; at >= Math.max(0, bytes.byteLength - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === endOfDirectory) {
      end = at;
      break;
    }
  }
  if (end < 0) throw malformed(what, "no end of central directory");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff) throw malformed(what, "zip64");
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index++) {
    if (at + 46 > bytes.byteLength || view.getUint32(at, true) !== directoryHeader) throw malformed(what, "central directory cut short");
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const entry: ZipEntry = {
      name: names.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      headerOffset: view.getUint32(at + 42, true),
    };
    if (flags & 1) throw malformed(what, `${entry.name} is encrypted`);
    if (entry.compressedSize === 0xffffffff || entry.size === 0xffffffff || entry.headerOffset === 0xffffffff) throw malformed(what, "zip64");
    if (!entry.name.endsWith("/")) entries.push(entry);
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/** The bytes of `entry` of the archive `bytes`, at most `maxBytes` once inflated. */
export async function unzipEntry(bytes: Uint8Array, entry: ZipEntry, maxBytes: number, what: string, signal?: AbortSignal): Promise<Uint8Array> {
  if (entry.size > maxBytes) throw new ProviderError(`${what}: ${entry.name} is ${entry.size} bytes, past the ${maxBytes}-byte download limit`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.headerOffset;
  if (at + 30 > bytes.byteLength || view.getUint32(at, true) !== localHeader) throw malformed(what, `no local header for ${entry.name}`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.compressedSize > bytes.byteLength) throw malformed(what, `${entry.name} is cut short`);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data;
  if (entry.method !== 8) throw malformed(what, `${entry.name} uses compression method ${entry.method}`);
  const inflated = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  try {
    return await readBoundedBytes(new Response(inflated), maxBytes, signal);
  } catch (error) {
    if (error instanceof BodyTooLarge) throw new ProviderError(`${what}: ${entry.name} inflates past the ${maxBytes}-byte download limit`);
    if (signal?.aborted) throw error;
    throw malformed(what, `${entry.name} does not inflate`);
  }
}
