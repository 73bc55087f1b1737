/**
 * Storage faults through the whole stack (client → worker → manager with a
 * file state store → Chromium): the journal's file system going read-only, a
 * full disk that takes part of an append, and a journal whose last line a
 * crash cut off. The faults go through the store's file-system seam
 * (`test/helpers/faulty-file-system.ts`), so they fail as root too, where a
 * `chmod` would not stop a write. After each: admission stopped with an error
 * naming the cause, no action ran without its durable start record, the
 * worker still answered, and a worker reopened on the same root after the
 * fault was cleared has every earlier entry and admits again.
 */
import { mkdtemp, readFile, rm, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isStationBrowserError } from "../../src/errors.js";
import type { JournalEntry, StateStore } from "../../src/lifecycle/stores.js";
import { createFileStateStore } from "../../src/stores/index.js";
import { faultyFileSystem, type FaultyFileSystem } from "../helpers/faulty-file-system.js";
import type { HeldPage } from "../helpers/holding-server.js";
import { collectDirectory } from "./artefacts.js";
import { startFaultStack, type FaultStack } from "./stack.js";
import { runScenario, type Row, type Scenario } from "./table.js";

export const storagePages: Record<string, HeldPage> = {};

const message = (error: unknown) => (error instanceof Error ? `${isStationBrowserError(error) ? `${error.code}: ` : ""}${error.message}` : String(error));

/** A store whose journal writes can be waited for (a finish is written after the answer). */
function settling(store: StateStore): { store: StateStore; settled(): Promise<void> } {
  const pending = new Set<Promise<unknown>>();
  const track = <T>(write: Promise<T>): Promise<T> => {
    const settled = write.catch(() => undefined).finally(() => pending.delete(settled));
    pending.add(settled);
    return write;
  };
  return {
    store: {
      ...store,
      open: (owner) => store.open(owner),
      writeJournal: (entries) => track(store.writeJournal(entries)),
      appendJournal: (entries, options) => track(store.appendJournal!(entries, options)),
      writeCheckpoints: (checkpoints) => track(store.writeCheckpoints(checkpoints)),
      close: () => store.close(),
    },
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

/** The journal as a reader other than the store sees it: whole, checksummed lines, the last one per seq, pending read as unknown. */
function parseJournal(text: string): JournalEntry[] {
  const bySeq = new Map<number, JournalEntry>();
  for (const line of text.split("\n").slice(0, -1)) {
    const entry = JSON.parse(line.slice(17)) as JournalEntry;
    bySeq.set(entry.seq, entry.outcome === "pending" ? { ...entry, outcome: "unknown" } : entry);
  }
  return [...bySeq.values()].sort((left, right) => left.seq - right.seq);
}

const essentials = (entries: JournalEntry[]) => entries.map(({ seq, sessionId, op, outcome, detail, startedAt }) => ({ seq, sessionId, op, outcome, detail, startedAt }));

interface StorageStack {
  stack: FaultStack;
  faulty: FaultyFileSystem;
  root: string;
  journalPath: string;
  settled(): Promise<void>;
  close(): Promise<void>;
}

async function startStorageStack(): Promise<StorageStack> {
  const root = await mkdtemp(join(tmpdir(), "station-faults-storage-"));
  const faulty = faultyFileSystem();
  let current: ReturnType<typeof settling> | undefined;
  const stack = await startFaultStack(4, {}, storagePages, () => {
    current = settling(createFileStateStore(root, { fileSystem: faulty.fileSystem }));
    return { stateStore: current.store };
  });
  return {
    stack,
    faulty,
    root,
    journalPath: join(root, "journal.jsonl"),
    settled: () => current!.settled(),
    async close() {
      await stack.close();
      // For the secrets scan: the journal, checkpoints and ledger the file store wrote.
      await collectDirectory(root);
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Clicks the form's button: the page server counts the POST it sends. */
async function clickSend(stack: FaultStack, id: string): Promise<unknown> {
  const client = stack.client();
  await client.execute(id, { op: "navigate", url: stack.pages.url("/form") });
  return client.execute(id, { op: "click", selector: "#go" });
}

/** Checks, after a restart on the same root, that the entries are `expected` and that a new session acts and is journaled next. */
async function reopenedKeepsAll(storage: StorageStack, s: Scenario, expected: JournalEntry[], hits: number): Promise<void> {
  const { stack } = storage;
  const after = await stack.backend.manager.audit();
  s.equal("reopened: every earlier entry, unchanged", essentials(after), essentials(expected));
  s.equal("every click that reached the page has its start record", after.filter((entry) => entry.op === "click").length, hits);
  const client = stack.client();
  const { id } = await client.open();
  const result = await client.execute(id, { op: "navigate", url: stack.pages.url("/plain") });
  await client.close(id);
  await storage.settled();
  const last = (await stack.backend.manager.audit()).at(-1);
  s.check("recovered: the reopened worker admits again, journaled next", result.title === "Plain" && last?.seq === (expected.at(-1)?.seq ?? 0) + 1, { title: result.title, last });
}

/** The journal entries once every write has settled (all whole on disk). */
async function settledAudit(storage: StorageStack): Promise<JournalEntry[]> {
  await storage.settled();
  return storage.stack.backend.manager.audit();
}

export async function storageScenarios(rows: Row[]): Promise<void> {
  const storage = await startStorageStack();
  const { stack, faulty } = storage;
  const client = stack.client();
  try {
    await runScenario(rows, "journal file system read-only", "EROFS on every write of the state root (open for writing, write, fsync, rename)", async (s) => {
      const { id } = await client.open();
      for (let round = 0; round < 3; round++) await clickSend(stack, id);
      const before = await settledAudit(storage);
      const hitsBefore = stack.hits();
      const failuresBefore = faulty.failures.length;
      faulty.readOnly();
      await client.execute(id, { op: "navigate", url: stack.pages.url("/form") }).then(
        () => undefined,
        () => undefined,
      );
      const refused = await client.execute(id, { op: "click", selector: "#go" }).then(
        () => "ran",
        (error: unknown) => message(error),
      );
      const opened = await client.open().then(
        () => "opened",
        (error: unknown) => message(error),
      );
      s.injected(faulty.failures.length - failuresBefore);
      s.check("the click is refused: journal error naming EROFS", /^journal: The action journal cannot be written \(EROFS: read-only file system/.test(refused), refused.slice(0, 200));
      s.check("opens are refused too", /^journal: /.test(opened), opened.slice(0, 200));
      s.equal("no action ran without its start record (the click never reached the page)", stack.hits(), hitsBefore);
      const listed = await client.list();
      s.check("the worker still answers (list)", listed.some((entry) => entry.id === id), listed.length);
      const closed = await client.close(id).then(
        () => "closed",
        (error: unknown) => message(error),
      );
      s.equal("the session still closes", closed, "closed");
      faulty.clear();
      await stack.restartWorker();
      await reopenedKeepsAll(storage, s, before, hitsBefore);
    });

    await runScenario(rows, "disk full mid-append", "ENOSPC after a short write of a start record, while another session's action runs", async (s) => {
      const a = await client.open();
      const b = await client.open();
      await clickSend(stack, a.id);
      await client.execute(b.id, { op: "navigate", url: stack.pages.url("/plain") });
      await settledAudit(storage);
      // b's action waits on the page server while the disk fills; its finish is written after a's failed start.
      const running = client.execute(b.id, { op: "evaluate", expression: "fetch('/hold-disk').then((answer) => answer.status)", timeoutMs: 30_000 });
      await stack.pages.arrived("GET /hold-disk");
      await client.execute(a.id, { op: "navigate", url: stack.pages.url("/form") });
      await storage.settled();
      const hitsBefore = stack.hits();
      const failuresBefore = faulty.failures.length;
      faulty.diskFull(40);
      const refused = await client.execute(a.id, { op: "click", selector: "#go" }).then(
        () => "ran",
        (error: unknown) => message(error),
      );
      s.injected(faulty.failures.length - failuresBefore);
      s.check("the click is refused: journal error naming ENOSPC", /^journal: The action journal cannot be written \(ENOSPC: no space left on device/.test(refused), refused.slice(0, 200));
      s.equal("no action ran without its start record", stack.hits(), hitsBefore);
      const pages = await client.execute(a.id, { op: "pages" }).then(
        () => "ran",
        (error: unknown) => message(error),
      );
      s.check("admission stays stopped (an observation is refused as well)", /^journal: /.test(pages), pages.slice(0, 200));
      faulty.clear();
      stack.pages.release("/hold-disk");
      const finished = await running;
      s.equal("the action in flight finishes", finished.value, 200);
      const before = await settledAudit(storage);
      s.equal("the refused click is not in the journal", before.filter((entry) => entry.op === "click").length, hitsBefore);
      s.equal("the worker still answers (list)", (await client.list()).length, 2);
      await client.close(a.id);
      await client.close(b.id);
      await stack.restartWorker();
      await reopenedKeepsAll(storage, s, before, hitsBefore);
    });

    await runScenario(rows, "journal truncated mid-write", "the last line of journal.jsonl cut in half while the worker was down (a crash mid-append)", async (s) => {
      const { id } = await client.open();
      await clickSend(stack, id);
      await client.execute(id, { op: "pages" });
      await client.close(id);
      await storage.settled();
      let expected: JournalEntry[] = [];
      await stack.restartWorker(async () => {
        const text = await readFile(storage.journalPath, "utf8");
        const lastLine = text.slice(text.lastIndexOf("\n", text.length - 2) + 1);
        await truncate(storage.journalPath, Buffer.byteLength(text) - Math.ceil(Buffer.byteLength(lastLine) / 2));
        s.injected();
        const torn = await readFile(storage.journalPath, "utf8");
        expected = parseJournal(torn.slice(0, torn.lastIndexOf("\n") + 1));
      });
      s.check("the store opened: the worker answers", Array.isArray(await client.list()), "list failed");
      await reopenedKeepsAll(storage, s, expected, stack.hits());
      // Appends after the cut follow a whole line: another restart reads them all.
      const now = await settledAudit(storage);
      await stack.restartWorker();
      s.equal("appends after the cut read back whole after another restart", essentials(await stack.backend.manager.audit()), essentials(now));
    });
  } finally {
    await storage.close();
  }
}
