/**
 * A file system for the state store (`createFileStateStore(dir, { fileSystem })`)
 * that fails on purpose, as the kernel would, without touching `node:fs`
 * for the rest of the process. Running as root, `chmod` does not stop a
 * write; these faults fail for every user:
 * - `readOnly()`: every call that would change the disk fails with EROFS, as
 *   on a file system remounted read-only (opening for writing, writing,
 *   syncing, renaming, removing, truncating, creating a directory);
 * - `diskFull(bytesLeft)`: writes take `bytesLeft` more bytes in all, the
 *   write that crosses it keeps its first part in the file (a short write),
 *   and every write after fails with ENOSPC;
 * - `cutsFail`: with a full disk, truncating fails too (EIO), so a partial
 *   line cannot be taken back.
 * `clear()` ends the fault (space freed, remounted read-write).
 */
import type { FileHandle } from "node:fs/promises";
import * as nodeFs from "node:fs/promises";
import type { StoreFileSystem } from "../../src/stores/file-system.js";

export interface FaultyFileSystem {
  fileSystem: StoreFileSystem;
  readOnly(): void;
  diskFull(bytesLeft: number, options?: { cutsFail?: boolean }): void;
  clear(): void;
  /** The calls that failed on purpose, as "CODE call path". */
  failures: string[];
}

function systemError(code: "EROFS" | "ENOSPC" | "EIO", syscall: string, path: string): NodeJS.ErrnoException {
  const text = { EROFS: "read-only file system", ENOSPC: "no space left on device", EIO: "i/o error" }[code];
  return Object.assign(new Error(`${code}: ${text}, ${syscall} '${path}'`), { code, syscall, path });
}

const writesFlags = (flags: unknown) => typeof flags === "string" && /[wa+]/.test(flags);

export function faultyFileSystem(): FaultyFileSystem {
  let mode: "none" | "readOnly" | "full" = "none";
  let bytesLeft = 0;
  let cutsFail = false;
  const failures: string[] = [];
  const fail = (code: "EROFS" | "ENOSPC" | "EIO", syscall: string, path: string) => {
    failures.push(`${code} ${syscall} ${path}`);
    return systemError(code, syscall, path);
  };
  const refuseIfReadOnly = (syscall: string, path: unknown) => {
    if (mode === "readOnly") throw fail("EROFS", syscall, String(path));
  };

  /** Writes `data` through `write` within the space left; throws ENOSPC after a short write. */
  async function writeWithin(data: string | Uint8Array, path: string, write: (bytes: Uint8Array) => Promise<unknown>): Promise<void> {
    refuseIfReadOnly("write", path);
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    if (mode !== "full" || bytes.byteLength <= bytesLeft) {
      if (mode === "full") bytesLeft -= bytes.byteLength;
      await write(bytes);
      return;
    }
    const part = bytes.subarray(0, bytesLeft);
    bytesLeft = 0;
    if (part.byteLength > 0) await write(part);
    throw fail("ENOSPC", "write", path);
  }

  function wrapHandle(handle: FileHandle, path: string): FileHandle {
    const overrides: Partial<Record<keyof FileHandle, unknown>> = {
      writeFile: (data: string | Uint8Array) => writeWithin(data, path, (bytes) => handle.writeFile(bytes)),
      sync: async () => {
        refuseIfReadOnly("fsync", path);
        await handle.sync();
      },
      truncate: async (length?: number) => {
        refuseIfReadOnly("ftruncate", path);
        if (mode === "full" && cutsFail) throw fail("EIO", "ftruncate", path);
        await handle.truncate(length);
      },
    };
    return new Proxy(handle, {
      get(target, property, receiver) {
        if (property in overrides) return overrides[property as keyof FileHandle];
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  const fileSystem = {
    ...nodeFs,
    async open(path: string, flags?: string, fileMode?: number) {
      if (writesFlags(flags)) refuseIfReadOnly("open", path);
      return wrapHandle(await nodeFs.open(path, flags, fileMode), path);
    },
    async writeFile(path: string, data: string | Uint8Array, options?: { flag?: string; mode?: number }) {
      refuseIfReadOnly("open", path);
      const handle = await nodeFs.open(path, options?.flag ?? "w", options?.mode);
      try {
        await writeWithin(data, path, (bytes) => handle.writeFile(bytes));
      } finally {
        await handle.close();
      }
    },
    async rename(from: string, to: string) {
      refuseIfReadOnly("rename", from);
      await nodeFs.rename(from, to);
    },
    async rm(path: string, options?: { force?: boolean; recursive?: boolean }) {
      refuseIfReadOnly("rm", path);
      await nodeFs.rm(path, options);
    },
    async truncate(path: string, length?: number) {
      refuseIfReadOnly("truncate", path);
      if (mode === "full" && cutsFail) throw fail("EIO", "truncate", path);
      await nodeFs.truncate(path, length);
    },
    async mkdir(path: string, options?: { recursive?: boolean; mode?: number }) {
      refuseIfReadOnly("mkdir", path);
      return nodeFs.mkdir(path, options);
    },
  } as unknown as StoreFileSystem;

  return {
    fileSystem,
    failures,
    readOnly() {
      mode = "readOnly";
    },
    diskFull(left, options = {}) {
      mode = "full";
      bytesLeft = left;
      cutsFail = options.cutsFail === true;
    },
    clear() {
      mode = "none";
      cutsFail = false;
    },
  };
}
