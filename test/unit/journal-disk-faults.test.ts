/**
 * The journal file under disk faults (issue 16): a full disk that takes part
 * of an append, a file system gone read-only. A failed append is cut back off
 * the file, so appends after it follow a whole line and the root reopens with
 * every earlier entry; when it cannot be cut, nothing more is appended. The
 * manager refuses the action whose start could not be written.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isJournalError } from "../../src/errors.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import type { JournalEntry } from "../../src/lifecycle/stores.js";
import { createFileStateStore } from "../../src/stores/index.js";
import { FakeAdapter } from "../helpers/fake-adapter.js";
import { faultyFileSystem } from "../helpers/faulty-file-system.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "station-journal-faults-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const entry = (seq: number): JournalEntry => ({ seq, sessionId: "s1", op: "click", startedAt: new Date(0).toISOString(), outcome: "ok", detail: "x".repeat(80) });

async function reopened(): Promise<number[]> {
  const store = createFileStateStore(directory);
  const { journal } = await store.open({});
  await store.close();
  return journal.map((each) => each.seq);
}

describe("journal file under disk faults", () => {
  it("cuts an append the full disk took part of back off the file, so the next append follows a whole line", async () => {
    const faulty = faultyFileSystem();
    const store = createFileStateStore(directory, { fileSystem: faulty.fileSystem });
    await store.open({});
    await store.appendJournal!([entry(1)], { durable: true });
    const before = await readFile(join(directory, "journal.jsonl"), "utf8");

    faulty.diskFull(40);
    await expect(store.appendJournal!([entry(2)], { durable: true })).rejects.toMatchObject({ code: "ENOSPC" });
    expect(faulty.failures).toEqual([`ENOSPC write ${join(directory, "journal.jsonl")}`]);
    expect(await readFile(join(directory, "journal.jsonl"), "utf8")).toBe(before);

    faulty.clear();
    await store.appendJournal!([entry(3)], { durable: false });
    await store.close();
    expect(await reopened()).toEqual([1, 3]);
  });

  it("appends nothing more after a partial line it could not cut off; reopening drops that line", async () => {
    const faulty = faultyFileSystem();
    const store = createFileStateStore(directory, { fileSystem: faulty.fileSystem });
    await store.open({});
    await store.appendJournal!([entry(1)], { durable: true });
    faulty.diskFull(40, { cutsFail: true });
    await expect(store.appendJournal!([entry(2)], { durable: true })).rejects.toMatchObject({ code: "ENOSPC" });
    faulty.clear();
    const refused = await store.appendJournal!([entry(3)], { durable: false }).catch((error: unknown) => error);
    expect(isJournalError(refused)).toBe(true);
    expect((refused as Error).message).toMatch(/partly written line that could not be cut off \(EIO: .*\); nothing more is appended until the store is reopened/);
    await store.close();
    expect(await reopened()).toEqual([1]);
    // The reopened store appends after the last whole line.
    const again = createFileStateStore(directory);
    await again.open({});
    await again.appendJournal!([entry(4)], { durable: true });
    await again.close();
    expect(await reopened()).toEqual([1, 4]);
  });

  it("a full disk refuses the action whose start cannot be written, and a manager reopened after the disk has room keeps every earlier entry", async () => {
    const faulty = faultyFileSystem();
    const adapter = new FakeAdapter();
    const first = new BrowserSessionManager(adapter, 2, { stateStore: createFileStateStore(directory, { fileSystem: faulty.fileSystem }) });
    const a = await first.open();
    const b = await first.open();
    await first.execute(a.id, { op: "pages" });
    // b's action runs while the disk fills: its finish is written after the failed start of a's next action.
    const held = adapter.hold("evaluate");
    const running = first.execute(b.id, { op: "evaluate", expression: "1" });
    await held.started;

    faulty.diskFull(30);
    const executedBefore = adapter.count("click");
    const refused = await first.execute(a.id, { op: "click", selector: "#go" }).catch((error: unknown) => error);
    expect(isJournalError(refused)).toBe(true);
    expect((refused as Error).message).toMatch(/^The action journal cannot be written \(ENOSPC: no space left on device/);
    expect(adapter.count("click")).toBe(executedBefore);
    await expect(first.open()).rejects.toThrow(/journal cannot be written/);

    faulty.clear();
    held.release();
    await running;
    await first.close();
    const second = new BrowserSessionManager(adapter, 2, { stateStore: createFileStateStore(directory) });
    await second.ready();
    // b's finish, written after the failed start, is kept (a partial line before it would have swallowed it).
    expect((await second.audit()).map(({ seq, op, outcome }) => [seq, op, outcome])).toEqual([
      [1, "pages", "ok"],
      [2, "evaluate", "ok"],
    ]);
    const c = await second.open();
    await second.execute(c.id, { op: "pages" });
    expect((await second.audit()).at(-1)).toMatchObject({ seq: 3, op: "pages", sessionId: c.id });
    await second.close();
  });

  it("a read-only file system refuses the action (EROFS) and a reopened manager keeps every earlier entry", async () => {
    const faulty = faultyFileSystem();
    const adapter = new FakeAdapter();
    const first = new BrowserSessionManager(adapter, 1, { stateStore: createFileStateStore(directory, { fileSystem: faulty.fileSystem }) });
    const a = await first.open();
    for (let index = 0; index < 3; index++) await first.execute(a.id, { op: "pages" });
    await first.close();
    const manager = new BrowserSessionManager(adapter, 1, { stateStore: createFileStateStore(directory, { fileSystem: faulty.fileSystem }) });
    const session = await manager.open();
    faulty.readOnly();
    const refused = await manager.execute(session.id, { op: "click", selector: "#go" }).catch((error: unknown) => error);
    expect((refused as Error).message).toMatch(/journal cannot be written \(EROFS: read-only file system, /);
    expect(adapter.count("click")).toBe(0);
    await manager.close();
    faulty.clear();
    expect(await reopened()).toEqual([1, 2, 3]);
  });
});
