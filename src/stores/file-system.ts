import * as nodeFs from "node:fs/promises";

/**
 * The file operations the state store makes: `node:fs/promises` by default.
 * A test passes one that fails on purpose (a read-only file system, a full
 * disk) without touching the process-wide module.
 */
export type StoreFileSystem = Pick<typeof nodeFs, "open" | "readFile" | "writeFile" | "rename" | "rm" | "truncate" | "mkdir" | "readdir">;

/** `node:fs/promises` itself. */
export const nodeFileSystem: StoreFileSystem = nodeFs;
