import { mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ValidationError } from "../errors.js";
import type { RecordingMeta, RecordingStore } from "../lifecycle/stores.js";
import { errorCode, readJsonFile, writeFileAtomically } from "./atomic-file.js";

/** Recording and frame ids: safe as one path segment, so nothing escapes the root. */
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
/** Canonical base64 (with padding). */
const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const states = new Set(["recording", "stopped"]);

function checkId(value: unknown, field: string): asserts value is string {
  if (typeof value !== "string" || !idPattern.test(value)) {
    throw new ValidationError(field, "expected 1-64 letters, digits, '_' or '-'");
  }
}

function isMeta(value: unknown, recordingId: string): value is RecordingMeta {
  if (typeof value !== "object" || value === null) return false;
  const meta = value as Partial<RecordingMeta>;
  return (
    meta.id === recordingId &&
    typeof meta.sessionId === "string" &&
    typeof meta.startedAt === "string" &&
    (meta.stoppedAt === undefined || typeof meta.stoppedAt === "string") &&
    typeof meta.state === "string" &&
    states.has(meta.state) &&
    Array.isArray(meta.frames) &&
    meta.frames.every(
      (frame) =>
        typeof frame === "object" &&
        frame !== null &&
        typeof frame.id === "string" &&
        idPattern.test(frame.id) &&
        typeof frame.capturedAt === "string" &&
        typeof frame.bytes === "number",
    )
  );
}

/** The latest moment a recording was touched according to its metadata, or `undefined`. */
function lastActivity(meta: RecordingMeta): number | undefined {
  const times = [meta.stoppedAt ?? meta.startedAt, ...meta.frames.map((frame) => frame.capturedAt)]
    .map((text) => Date.parse(text))
    .filter((time) => Number.isFinite(time));
  return times.length > 0 ? Math.max(...times) : undefined;
}

/** The newest modification time of a directory and its files, or `undefined` when unreadable. */
async function lastModification(directory: string): Promise<number | undefined> {
  try {
    const names = await readdir(directory);
    const times = await Promise.all([directory, ...names.map((name) => join(directory, name))].map(async (path) => (await stat(path)).mtimeMs));
    return Math.max(...times);
  } catch {
    return undefined;
  }
}

/**
 * A recording store in a directory, for Node: `<root>/<recordingId>/meta.json`
 * and one `<frameId>.png` per frame (bytes on disk, base64 at the interface).
 * Ids must match `/^[A-Za-z0-9_-]{1,64}$/`. Recordings idle for longer than the
 * TTL are deleted when the store is opened; a directory whose `meta.json` is
 * missing or unreadable is skipped, and deleted once its files are older than
 * the TTL. Writes to one recording run in call order.
 *
 * @example
 * ```ts
 * const recordingStore = createFileRecordingStore("/var/lib/station/recordings");
 * const manager = new BrowserSessionManager(adapter, 2, { recordingStore });
 * ```
 */
export function createFileRecordingStore(recordingRootDir: string): RecordingStore {
  if (typeof recordingRootDir !== "string" || recordingRootDir.length === 0) {
    throw new ValidationError("options.recordingRootDir", "expected a directory path");
  }
  const root = resolve(recordingRootDir);
  /** The tail of each recording's chain of writes. */
  const queues = new Map<string, Promise<void>>();

  function enqueue(recordingId: string, task: () => Promise<void>): Promise<void> {
    const previous = queues.get(recordingId) ?? Promise.resolve();
    const run = previous.then(task);
    const tail = run.catch(() => undefined);
    queues.set(recordingId, tail);
    void tail.then(() => {
      if (queues.get(recordingId) === tail) queues.delete(recordingId);
    });
    return run;
  }

  async function readMeta(recordingId: string): Promise<RecordingMeta | undefined> {
    try {
      const value = await readJsonFile(join(root, recordingId, "meta.json"), "recording");
      return isMeta(value, recordingId) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  return {
    async open(ttlMs: number): Promise<RecordingMeta[]> {
      if (typeof ttlMs !== "number" || Number.isNaN(ttlMs) || ttlMs < 0) throw new ValidationError("ttlMs", "expected a duration >= 0");
      await mkdir(root, { recursive: true, mode: 0o700 });
      const now = Date.now();
      const kept: RecordingMeta[] = [];
      for (const entry of await readdir(root, { withFileTypes: true })) {
        // Anything this store did not create is left alone.
        if (!entry.isDirectory() || !idPattern.test(entry.name)) continue;
        const directory = join(root, entry.name);
        const meta = await readMeta(entry.name);
        const touchedAt = (meta && lastActivity(meta)) ?? (await lastModification(directory));
        if (touchedAt !== undefined && now - touchedAt > ttlMs) {
          await rm(directory, { recursive: true, force: true });
        } else if (meta) {
          kept.push(meta);
        }
      }
      return kept.sort((first, second) => first.startedAt.localeCompare(second.startedAt));
    },

    async writeMeta(recording: RecordingMeta): Promise<void> {
      checkId(recording.id, "recording.id");
      recording.frames.forEach((frame, index) => checkId(frame.id, `recording.frames[${index}].id`));
      const text = `${JSON.stringify(recording)}\n`;
      await enqueue(recording.id, async () => {
        await mkdir(join(root, recording.id), { recursive: true, mode: 0o700 });
        await writeFileAtomically(join(root, recording.id, "meta.json"), text);
      });
    },

    async writeFrame(recordingId: string, frameId: string, base64: string): Promise<void> {
      checkId(recordingId, "recordingId");
      checkId(frameId, "frameId");
      if (typeof base64 !== "string" || !base64Pattern.test(base64)) throw new ValidationError("base64", "expected base64-encoded bytes");
      const bytes = Buffer.from(base64, "base64");
      await enqueue(recordingId, async () => {
        await mkdir(join(root, recordingId), { recursive: true, mode: 0o700 });
        await writeFileAtomically(join(root, recordingId, `${frameId}.png`), bytes);
      });
    },

    async readFrame(recordingId: string, frameId: string): Promise<string | undefined> {
      checkId(recordingId, "recordingId");
      checkId(frameId, "frameId");
      try {
        return (await readFile(join(root, recordingId, `${frameId}.png`))).toString("base64");
      } catch (error) {
        if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return undefined;
        throw error;
      }
    },

    async delete(recordingId: string): Promise<void> {
      checkId(recordingId, "recordingId");
      await enqueue(recordingId, () => rm(join(root, recordingId), { recursive: true, force: true }));
    },

    async close(): Promise<void> {
      await Promise.all(queues.values());
    },
  };
}
