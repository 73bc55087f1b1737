/**
 * Writes a zip archive for the hosted providers' stand-ins, with fflate's
 * `zipSync`: each file deflated, or stored when `store` is set.
 */
import { zipSync, type Zippable } from "fflate";

export interface ZipFile {
  name: string;
  bytes: Uint8Array;
  store?: boolean;
}

export function zip(files: readonly ZipFile[]): Uint8Array {
  const entries: Zippable = {};
  for (const file of files) entries[file.name] = [file.bytes, { level: file.store ? 0 : 6 }];
  return zipSync(entries);
}
