import { createHash, randomBytes } from "node:crypto";
import { link, readdir, readFile, rename, rm, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { ValidationError } from "../errors.js";
import { errorCode, temporaryPathFor } from "./atomic-file.js";
import { processStatus, recordedProcessRuns } from "./process-status.js";

/** What `owner.lock` records about the process that holds it. */
export interface OwnerRecord {
  pid: number;
  hostname: string;
  startedAt: string;
  /**
   * On Linux, `<boot id>:<start time in clock ticks>` of the process, so a
   * recycled pid (a restarted container's pid 1) is not mistaken for the owner.
   */
  processStart?: string;
  /** Random per claim, so two claims from one process never read alike. */
  claimId?: string;
}

/** A claimed `owner.lock`. */
export interface OwnerLock {
  /** The record written into the lock. */
  readonly record: OwnerRecord;
  /** Whether the lock file still holds exactly what this claim wrote. */
  isHeld(): Promise<boolean>;
  /** Removes the lock file if it is still this claim's. Idempotent. */
  release(): Promise<void>;
}

/** How many times a claim retries while other claimants take over a stale lock. */
const claimAttempts = 40;
/** Guards of guards: each level needs a claimant to die mid-takeover. */
const maxGuardDepth = 3;
/** `link()` errors meaning the file system has no hard links; `wx` is used instead. */
const linkUnsupported = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"]);

function parseRecord(text: string): OwnerRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<OwnerRecord> | null;
    if (
      typeof value === "object" &&
      value !== null &&
      Number.isSafeInteger(value.pid) &&
      (value.pid as number) > 0 &&
      typeof value.hostname === "string" &&
      typeof value.startedAt === "string" &&
      (value.processStart === undefined || typeof value.processStart === "string") &&
      (value.claimId === undefined || typeof value.claimId === "string")
    ) {
      return value as OwnerRecord;
    }
  } catch {
    // Falls through: not a lock this package wrote.
  }
  return undefined;
}

/** Whether the recorded process may still run: `foreign` when it ran on another host. */
function judge(record: OwnerRecord): "live" | "stale" | "foreign" {
  if (record.hostname !== hostname()) return "foreign";
  return recordedProcessRuns(record.pid, record.processStart) ? "live" : "stale";
}

/** Creates `path` holding `content` only if it does not exist; `false` when it does. */
async function createExclusively(path: string, content: string): Promise<boolean> {
  // Written beside it, then hard-linked into place: the lock is never seen empty or half written.
  const temporaryPath = temporaryPathFor(path);
  await writeFile(temporaryPath, content, { flag: "wx", mode: 0o600 });
  try {
    await link(temporaryPath, path);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    if (!linkUnsupported.has(errorCode(error) ?? "")) throw error;
  } finally {
    await rm(temporaryPath, { force: true }).catch(() => undefined);
  }
  try {
    await writeFile(path, content, { flag: "wx", mode: 0o600 });
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

/** Writes `content` beside `path` and renames it over `path`. */
async function replace(path: string, content: string): Promise<void> {
  const temporaryPath = temporaryPathFor(path);
  try {
    await writeFile(temporaryPath, content, { flag: "wx", mode: 0o600 });
    await rename(temporaryPath, path);
  } catch (error) {
    await rm(temporaryPath, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * Replaces `path`, which held `staleText` (judged stale), with `content`.
 * Takeovers of one stale generation are serialised by a guard file named after
 * it, created exclusively; the holder checks that `path` still holds the stale
 * text before renaming over it, so two claimants never both win, and the lock
 * is never absent meanwhile. A guard left by a claimant that died is itself
 * taken over the same way.
 *
 * @returns `false` when another claimant is taking over or has done so (claim again).
 */
async function replaceStale(path: string, staleText: string, content: string, field: string, depth = 0): Promise<boolean> {
  const guardPath = `${path}.${createHash("sha256").update(staleText).digest("hex").slice(0, 16)}.takeover`;
  if (!(await createExclusively(guardPath, content))) {
    const guardText = await readText(guardPath);
    if (guardText === undefined) return false; // that takeover finished
    const holder = parseRecord(guardText);
    if (!holder) throw new ValidationError(field, `${guardPath} is not a file this package wrote; if no manager uses this state root, remove it`);
    if (judge(holder) !== "stale") return false;
    if (depth >= maxGuardDepth) throw new ValidationError(field, `could not take over the stale ${path}; remove it if no manager uses this state root`);
    if (!(await replaceStale(guardPath, guardText, content, field, depth + 1))) return false;
  }
  try {
    if ((await readText(path)) !== staleText) return false;
    await replace(path, content);
    return true;
  } finally {
    if ((await readText(guardPath)) === content) await rm(guardPath, { force: true });
  }
}

/** Removes takeover guards: once the lock is claimed, none of them can be current. */
async function removeGuards(path: string): Promise<void> {
  const prefix = `${basename(path)}.`;
  for (const name of await readdir(dirname(path))) {
    if (name.startsWith(prefix) && name.endsWith(".takeover")) await rm(join(dirname(path), name), { force: true });
  }
}

/**
 * Claims `owner.lock` for this process: an exclusive create recording
 * `{ pid, hostname, startedAt }`. A lock whose process is gone (or whose pid
 * was recycled) is stale and taken over.
 *
 * @param field the option named in errors, e.g. `options.stateRootDir`.
 * @throws {ValidationError} when a live process (this one included) or a
 *   process on another host holds the lock, or the lock file is unreadable.
 * @example
 * ```ts
 * const lock = await claimOwnerLock("/state/owner.lock", "options.stateRootDir");
 * try { ... } finally { await lock.release(); }
 * ```
 */
export async function claimOwnerLock(path: string, field: string): Promise<OwnerLock> {
  const processStart = processStatus(process.pid)?.start;
  const record: OwnerRecord = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    ...(processStart === undefined ? {} : { processStart }),
    claimId: randomBytes(8).toString("hex"),
  };
  const content = `${JSON.stringify(record)}\n`;
  for (let attempt = 0; attempt < claimAttempts; attempt += 1) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    if (await createExclusively(path, content)) return heldLock(path, record, content);
    const existing = await readText(path);
    if (existing === undefined) continue; // released meanwhile
    const owner = parseRecord(existing);
    if (!owner) {
      throw new ValidationError(field, `${path} is not a lock this package wrote; if no manager uses this state root, remove it`);
    }
    const verdict = judge(owner);
    if (verdict === "live") throw new ValidationError(field, `already owned by live process ${owner.pid}; one manager per state root`);
    if (verdict === "foreign") {
      throw new ValidationError(
        field,
        `owned by process ${owner.pid} on host ${owner.hostname}, whose liveness cannot be checked from here; ` +
          `one manager per state root (if that process is gone, remove ${path})`,
      );
    }
    if (await replaceStale(path, existing, content, field)) {
      await removeGuards(path);
      return heldLock(path, record, content);
    }
  }
  throw new ValidationError(field, `could not claim ${path}: other processes keep claiming it; one manager per state root`);
}

function heldLock(path: string, record: OwnerRecord, content: string): OwnerLock {
  const isHeld = async () => (await readText(path)) === content;
  return {
    record,
    isHeld,
    async release() {
      if (!(await isHeld())) return;
      await unlink(path).catch((error: unknown) => {
        if (errorCode(error) !== "ENOENT") throw error;
      });
    },
  };
}
