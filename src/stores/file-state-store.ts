import { join, resolve } from "node:path";
import { JournalError, ValidationError } from "../errors.js";
import type { PendingRelease } from "../lifecycle/ledger.js";
import type { Checkpoint, JournalEntry, StateStore, StoredLedger, StoredPacing, StoredState, StoredUncertainOpening } from "../lifecycle/stores.js";
import { readJsonFile, syncDirectory, writeFileAtomically } from "./atomic-file.js";
import { nodeFileSystem, type StoreFileSystem } from "./file-system.js";
import { appendJournalLines, compactJournalFile, journalLine, readJournalFile, syncJournalFile } from "./journal-file.js";
import { claimOwnerLock, type OwnerLock } from "./owner-lock.js";

const field = "options.stateRootDir";
/** Temporary files an interrupted write of this store leaves behind. */
const leftoverPattern = /^(?:root|journal|checkpoints|ledger|pacing)\.jsonl?\.\d+\.[0-9a-f]+\.tmp$/;

/** `root.json`: what the state root is for. */
interface RootDescription {
  version: 1;
  tenantId?: string;
  createdAt: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function readRecords(path: string, isValid: (value: Record<string, unknown>) => boolean, fs: StoreFileSystem): Promise<Record<string, unknown>[]> {
  const value = await readJsonFile(path, field, fs);
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ValidationError(field, `${path} does not hold a JSON array; it was left as it is: repair or remove it`);
  value.forEach((item, index) => {
    if (!isRecord(item) || !isValid(item)) {
      throw new ValidationError(field, `${path}: item ${index} is malformed; the file was left as it is: repair or remove it`);
    }
  });
  return value as Record<string, unknown>[];
}

/**
 * A state store in a directory, for Node: `owner.lock` (one live owner at a
 * time), `root.json` (the tenant the root was created for), `journal.jsonl`
 * (see `journal-file.ts`: appended, a start synced before it resolves, a
 * finish not; compacted by a replacement) and `checkpoints.json` and
 * `ledger.json` (uncertain opens, unconfirmed releases) and `pacing.json`
 * (each profile's pacing counters: today's count, first day, a pause), each replaced
 * atomically (temporary file, fsync, rename, directory fsync) so a failed
 * write leaves the previous file intact. A `journal.json` of an earlier
 * version is converted once, when the root is opened.
 *
 * A lock left by a process that is gone (or whose pid was recycled) is taken
 * over; a lock held by a live process, this one included, is refused. Writes
 * run in call order and only while this store still holds the lock.
 *
 * A journal append that fails is cut back off the file; if it cannot be (the
 * file may end with a partial line), later appends are refused until the
 * store is reopened, which drops that line. `options.fileSystem` replaces
 * `node:fs/promises` for the state files (not the owner lock): a test's way
 * to make writes fail.
 *
 * @example
 * ```ts
 * const stateStore = createFileStateStore("/var/lib/station/state");
 * const manager = new BrowserSessionManager(adapter, 2, { stateStore });
 * ```
 */
export function createFileStateStore(stateRootDir: string, options: { fileSystem?: StoreFileSystem } = {}): StateStore {
  const fs = options.fileSystem ?? nodeFileSystem;
  if (typeof stateRootDir !== "string" || stateRootDir.length === 0) {
    throw new ValidationError(field, "expected a directory path");
  }
  const root = resolve(stateRootDir);
  const paths = {
    lock: join(root, "owner.lock"),
    root: join(root, "root.json"),
    journal: join(root, "journal.jsonl"),
    legacyJournal: join(root, "journal.json"),
    checkpoints: join(root, "checkpoints.json"),
    ledger: join(root, "ledger.json"),
    pacing: join(root, "pacing.json"),
  };
  let lock: OwnerLock | undefined;
  let writes: Promise<void> = Promise.resolve();
  /** Compactions one after another, so the last one asked for is the one that stays. */
  let compactions: Promise<void> = Promise.resolve();
  /** Lines appended since each compaction in progress was asked for (they go into its new file too). */
  const compactionTails = new Set<string[]>();
  /** Set when a failed append could not be cut off the journal: nothing more is appended after it. */
  let tornTail: Error | undefined;

  async function removeLeftovers(): Promise<void> {
    for (const name of await fs.readdir(root)) {
      if (leftoverPattern.test(name)) await fs.rm(join(root, name), { force: true });
    }
  }

  async function checkTenant(tenantId: string | undefined): Promise<void> {
    const stored = await readJsonFile(paths.root, field, fs);
    if (stored === undefined) {
      const holdsState = (await fs.readdir(root)).some((name) => name === "journal.json" || name === "journal.jsonl" || name === "checkpoints.json" || name === "ledger.json" || name === "pacing.json");
      if (holdsState) throw new ValidationError(field, `${root} holds state but no root.json; refusing to adopt it`);
      const description: RootDescription = { version: 1, ...(tenantId === undefined ? {} : { tenantId }), createdAt: new Date().toISOString() };
      await writeFileAtomically(paths.root, `${JSON.stringify(description, null, 2)}\n`, fs);
      return;
    }
    if (!isRecord(stored) || stored.version !== 1 || (stored.tenantId !== undefined && typeof stored.tenantId !== "string")) {
      throw new ValidationError(field, `${paths.root} is not a version 1 state root description; it was left as it is`);
    }
    // Never name the other tenant.
    if (stored.tenantId !== tenantId) throw new ValidationError("options.tenantId", "state root belongs to another tenant");
  }

  function assertOpen(): void {
    if (!lock) throw new JournalError(`The state store at ${root} is not open`);
  }

  /** Runs writes one after another, in call order, each only while the lock is still ours. */
  function enqueue(path: string, write: () => Promise<void>): Promise<void> {
    const run = writes.then(async () => {
      assertOpen();
      if (!(await lock!.isHeld())) {
        throw new JournalError(`${paths.lock} no longer belongs to this process; refusing to write ${path}`);
      }
      await write();
    });
    writes = run.catch(() => undefined);
    return run;
  }

  const enqueueWrite = (path: string, text: string) => enqueue(path, () => writeFileAtomically(path, text, fs));

  /** The journal, converted from an earlier version's `journal.json` once; the file exists afterwards. */
  async function readJournal(): Promise<JournalEntry[]> {
    const current = await readJournalFile(paths.journal, field, fs);
    if (current) {
      await fs.rm(paths.legacyJournal, { force: true }); // left by a conversion cut off after its rename
      return current;
    }
    const legacy = (await readRecords(paths.legacyJournal, (entry) => typeof entry.seq === "number" && typeof entry.op === "string", fs)) as unknown as JournalEntry[];
    await writeFileAtomically(paths.journal, legacy.map(journalLine).join(""), fs);
    await fs.rm(paths.legacyJournal, { force: true });
    await syncDirectory(root, fs);
    return legacy;
  }

  return {
    async open(owner: { tenantId?: string }): Promise<StoredState> {
      if (lock) throw new ValidationError(field, `the state store at ${root} is already open`);
      if (owner.tenantId !== undefined && typeof owner.tenantId !== "string") {
        throw new ValidationError("options.tenantId", "expected a string");
      }
      await fs.mkdir(root, { recursive: true, mode: 0o700 });
      const claimed = await claimOwnerLock(paths.lock, field);
      try {
        await removeLeftovers();
        await checkTenant(owner.tenantId);
        const journal = await readJournal();
        const checkpoints = await readRecords(paths.checkpoints, (checkpoint) => typeof checkpoint.id === "string", fs);
        const owed = await readRecords(
          paths.ledger,
          (item) =>
            (item.kind === "uncertain" && typeof item.openTag === "string" && isRecord(item.options)) ||
            (item.kind === "pending" && typeof item.providerSessionId === "string" && typeof item.provider === "string"),
          fs,
        );
        const counted = await readRecords(paths.pacing, (item) => typeof item.profileId === "string" && typeof item.dayCount === "number" && typeof item.day === "number", fs);
        tornTail = undefined;
        lock = claimed;
        const pacing: StoredPacing = {};
        for (const { profileId, ...state } of counted) pacing[profileId as string] = state as unknown as StoredPacing[string];
        const ledger: StoredLedger = {
          uncertain: owed.filter((item) => item.kind === "uncertain").map(({ kind: _kind, ...item }) => item as unknown as StoredUncertainOpening),
          pending: owed.filter((item) => item.kind === "pending").map(({ kind: _kind, ...item }) => item as unknown as PendingRelease),
        };
        return { journal, checkpoints: checkpoints as unknown as Checkpoint[], ledger, ...(counted.length > 0 ? { pacing } : {}) };
      } catch (error) {
        await claimed.release().catch(() => undefined);
        throw error;
      }
    },

    async writeJournal(entries: readonly JournalEntry[]): Promise<void> {
      assertOpen();
      // Serialised now, so later changes by the caller do not leak into this write.
      const text = entries.map(journalLine).join("");
      const tail: string[] = [];
      compactionTails.add(tail);
      const previous = compactions;
      const run = (async () => {
        await previous;
        await compactJournalFile(
          paths.journal,
          text,
          () => tail.splice(0).join(""),
          (step) =>
            enqueue(paths.journal, async () => {
              await step();
              // The whole file was replaced: a partial line it ended with is gone.
              tornTail = undefined;
              compactionTails.delete(tail);
            }),
          fs,
        );
      })().finally(() => compactionTails.delete(tail));
      compactions = run.catch(() => undefined);
      await run;
    },

    async appendJournal(entries: readonly JournalEntry[], options: { durable: boolean }): Promise<void> {
      assertOpen();
      const text = entries.map(journalLine).join("");
      await enqueue(paths.journal, async () => {
        if (tornTail) {
          throw new JournalError(
            `${paths.journal} may end with a partly written line that could not be cut off (${tornTail.message}); nothing more is appended until the store is reopened`,
            { cause: tornTail },
          );
        }
        await appendJournalLines(paths.journal, text, options.durable, fs, (error) => (tornTail = error));
        // Only what was written goes into a compaction in progress (a line twice is harmless: the later one wins).
        for (const tail of compactionTails) tail.push(text);
      });
    },

    async writeCheckpoints(checkpoints: readonly Checkpoint[]): Promise<void> {
      await enqueueWrite(paths.checkpoints, JSON.stringify(checkpoints));
    },

    async writeLedger(ledger: StoredLedger): Promise<void> {
      const items = [
        ...ledger.uncertain.map((item) => ({ kind: "uncertain", ...item })),
        ...ledger.pending.map((item) => ({ kind: "pending", ...item })),
      ];
      await enqueueWrite(paths.ledger, JSON.stringify(items));
    },

    async writePacing(pacing: StoredPacing): Promise<void> {
      await enqueueWrite(paths.pacing, JSON.stringify(Object.entries(pacing).map(([profileId, state]) => ({ profileId, ...state }))));
    },

    async close(): Promise<void> {
      const held = lock;
      if (!held) return;
      await compactions;
      await writes;
      if (lock !== held) return; // a concurrent close got there first
      // Finishes are appended without a sync; a clean close makes them durable.
      await syncJournalFile(paths.journal, fs).catch(() => undefined);
      lock = undefined;
      await held.release();
    },
  };
}
