import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isJournalError, isValidationError, ValidationError } from "../../src/errors.js";
import type { Checkpoint, JournalEntry, RecordingMeta } from "../../src/lifecycle/stores.js";
import { createFileRecordingStore, createFileStateStore } from "../../src/stores/index.js";

const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url));
const day = 24 * 60 * 60_000;

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "station-file-stores-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

function entry(seq: number, extra: Partial<JournalEntry> = {}): JournalEntry {
  return { seq, sessionId: "s1", op: "navigate", startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), outcome: "ok", ...extra };
}

const checkpoint: Checkpoint = {
  id: "cp_1",
  createdAt: "2026-01-01T00:00:00.000Z",
  sessionId: "s1",
  backend: "local",
  options: { viewport: { width: 1280, height: 800 } },
  pages: [{ url: "https://example.test/a", title: "A" }],
  selectedIndex: 0,
};

/** A pid that belonged to a process which has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  const pid = child.pid!;
  expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: "ESRCH" }));
  return pid;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

/** The journal's lines as entries (checksums not checked: the store's reader is what is under test elsewhere). */
async function journalLines(root: string): Promise<JournalEntry[]> {
  const text = await readFile(join(root, "journal.jsonl"), "utf8");
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line.slice(17)) as JournalEntry);
}

async function temporaryFiles(root: string): Promise<string[]> {
  return (await readdir(root)).filter((name) => /\.(tmp|stale|takeover)$/.test(name));
}

describe("createFileStateStore", () => {
  it("round-trips the journal and checkpoints and releases the lock on close", async () => {
    const root = join(directory, "state");
    const store = createFileStateStore(root);
    expect(await store.open({ tenantId: "tenant-1" })).toEqual({ journal: [], checkpoints: [], ledger: { uncertain: [], pending: [] } });
    const lock = JSON.parse(await readFile(join(root, "owner.lock"), "utf8"));
    expect(lock).toMatchObject({ pid: process.pid, hostname: hostname() });
    expect(Date.parse(lock.startedAt)).not.toBeNaN();
    const description = JSON.parse(await readFile(join(root, "root.json"), "utf8"));
    expect(description).toMatchObject({ version: 1, tenantId: "tenant-1" });
    expect(Date.parse(description.createdAt)).not.toBeNaN();

    const journal = [entry(1), entry(2, { outcome: "pending", detail: "é ✓ [3 chars, sha256:abcd1234]" })];
    await store.writeJournal(journal);
    await store.writeCheckpoints([checkpoint]);
    const pending = { providerSessionId: "p1", provider: "local", openTag: "t1", since: "2026-11-30T00:00:00.000Z", reason: "503" };
    const uncertain = { openTag: "t2", since: "2026-11-30T00:00:00.000Z", reason: "no answer", options: { openTag: "t2" } };
    await store.writeLedger!({ uncertain: [uncertain], pending: [pending] });
    const pacing = { "whatsapp:acme": { tokens: 3.5, refilledAt: 1_764_000_000_000, day: 20_422, dayCount: 12, firstDay: 20_420, pausedUntil: 1_764_000_600_000, pauseReason: "rate_limited" } };
    await store.writePacing!(pacing);
    await store.close();
    await store.close(); // idempotent
    expect(existsSync(join(root, "owner.lock"))).toBe(false);

    const reopened = createFileStateStore(root);
    expect(await reopened.open({ tenantId: "tenant-1" })).toEqual({
      journal,
      checkpoints: [checkpoint],
      ledger: { uncertain: [{ openTag: "t2", since: "2026-11-30T00:00:00.000Z", reason: "no answer", options: { openTag: "t2" } }], pending: [{ providerSessionId: "p1", provider: "local", openTag: "t1", since: "2026-11-30T00:00:00.000Z", reason: "503" }] },
      pacing,
    });
    await reopened.close();
  });

  it("refuses a second owner while the first (this live process) holds the root", async () => {
    const first = createFileStateStore(directory);
    await first.open({});
    const lockBefore = await readFile(join(directory, "owner.lock"), "utf8");

    const error = await rejection(createFileStateStore(directory).open({}));
    expect(isValidationError(error)).toBe(true);
    expect((error as ValidationError).field).toBe("options.stateRootDir");
    expect(error.message).toContain(`already owned by live process ${process.pid}`);

    // The refusal left the first owner's lock alone and the first owner keeps working.
    expect(await readFile(join(directory, "owner.lock"), "utf8")).toBe(lockBefore);
    await first.writeJournal([entry(1)]);
    await first.close();
    expect(existsSync(join(directory, "owner.lock"))).toBe(false);
  });

  it("takes over a stale lock whose process has exited", async () => {
    const pid = deadPid();
    await writeFile(join(directory, "owner.lock"), JSON.stringify({ pid, hostname: hostname(), startedAt: "2025-01-01T00:00:00.000Z" }));
    const store = createFileStateStore(directory);
    await store.open({});
    const lock = JSON.parse(await readFile(join(directory, "owner.lock"), "utf8"));
    expect(lock.pid).toBe(process.pid);
    expect(lock.startedAt).not.toBe("2025-01-01T00:00:00.000Z");
    expect(await temporaryFiles(directory)).toEqual([]);
    await store.close();
  });

  it("lets exactly one of several racing claimants take over a stale lock", async () => {
    const pid = deadPid();
    const stale = JSON.stringify({ pid, hostname: hostname(), startedAt: "2025-01-01T00:00:00.000Z" });
    for (let round = 0; round < 30; round += 1) {
      await writeFile(join(directory, "owner.lock"), stale);
      const stores = Array.from({ length: 8 }, () => createFileStateStore(directory));
      // Staggered starts, so one claimant's takeover overlaps another's judgement of the stale lock.
      const results = await Promise.allSettled(
        stores.map(async (store, index) => {
          await new Promise((resolve) => setTimeout(resolve, (index * 7 + round) % 4));
          return store.open({});
        }),
      );
      expect(results.filter((result) => result.status === "fulfilled"), `round ${round}`).toHaveLength(1);
      for (const result of results) {
        if (result.status === "rejected") expect(isValidationError(result.reason), String(result.reason)).toBe(true);
      }
      expect(await temporaryFiles(directory)).toEqual([]);
      await Promise.all(stores.map((store) => store.close()));
      expect(existsSync(join(directory, "owner.lock"))).toBe(false);
    }
  });

  it("takes over a stale lock whose takeover guard was left by a claimant that died", async () => {
    const stale = JSON.stringify({ pid: deadPid(), hostname: hostname(), startedAt: "2025-01-01T00:00:00.000Z" });
    await writeFile(join(directory, "owner.lock"), stale);
    const guard = `owner.lock.${createHash("sha256").update(stale).digest("hex").slice(0, 16)}.takeover`;
    await writeFile(join(directory, guard), JSON.stringify({ pid: deadPid(), hostname: hostname(), startedAt: "2025-01-01T00:00:01.000Z" }));
    await writeFile(join(directory, "owner.lock.0123456789abcdef.takeover"), "left by an older takeover");

    const store = createFileStateStore(directory);
    await store.open({});
    expect(JSON.parse(await readFile(join(directory, "owner.lock"), "utf8")).pid).toBe(process.pid);
    expect(await temporaryFiles(directory)).toEqual([]);
    await store.close();
  });

  it.runIf(process.platform === "linux")("takes over a lock whose pid was recycled by another process", async () => {
    // A restarted container's worker gets the same pid as the one that crashed.
    await writeFile(
      join(directory, "owner.lock"),
      JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt: "2025-01-01T00:00:00.000Z", processStart: "old-boot:1" }),
    );
    const store = createFileStateStore(directory);
    await store.open({});
    const lock = JSON.parse(await readFile(join(directory, "owner.lock"), "utf8"));
    expect(lock.startedAt).not.toBe("2025-01-01T00:00:00.000Z");
    expect(lock.processStart).not.toBe("old-boot:1");
    await store.close();
  });

  it.runIf(process.platform === "linux")("takes over a lock whose process was killed but never reaped (a zombie)", async () => {
    // The parent forks a child that exits at once and never waits for it: the child stays a zombie while the parent sleeps.
    const forkAndSleep = "import os, sys, time\npid = os.fork()\nif pid == 0:\n    os._exit(0)\nprint(pid, flush=True)\ntime.sleep(30)";
    const parent = spawn("python3", ["-c", forkAndSleep], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const [line] = (await once(parent.stdout!, "data")) as [Buffer];
      const zombie = Number(line.toString().trim());
      await expect.poll(async () => (await readFile(`/proc/${zombie}/stat`, "utf8")).split(") ")[1]?.[0]).toBe("Z");
      expect(() => process.kill(zombie, 0)).not.toThrow(); // signals reach it: only /proc tells it is gone
      await writeFile(join(directory, "owner.lock"), JSON.stringify({ pid: zombie, hostname: hostname(), startedAt: "2025-01-01T00:00:00.000Z" }));
      const store = createFileStateStore(directory);
      await store.open({});
      expect(JSON.parse(await readFile(join(directory, "owner.lock"), "utf8")).pid).toBe(process.pid);
      await store.close();
    } finally {
      parent.kill();
    }
  });

  it("refuses a lock held from another host and leaves it in place", async () => {
    const foreign = JSON.stringify({ pid: 1, hostname: `not-${hostname()}`, startedAt: "2025-01-01T00:00:00.000Z" });
    await writeFile(join(directory, "owner.lock"), foreign);
    const error = await rejection(createFileStateStore(directory).open({}));
    expect(isValidationError(error)).toBe(true);
    expect(error.message).toContain(`on host not-${hostname()}`);
    expect(await readFile(join(directory, "owner.lock"), "utf8")).toBe(foreign);
  });

  it("refuses a root of another tenant, without naming it, and releases the lock", async () => {
    const secretTenant = "tenant-alpha-7f3e";
    const owner = createFileStateStore(directory);
    await owner.open({ tenantId: secretTenant });
    await owner.writeJournal([entry(1)]);
    await owner.close();

    for (const tenantId of ["tenant-beta", undefined]) {
      const error = await rejection(createFileStateStore(directory).open({ tenantId }));
      expect(isValidationError(error)).toBe(true);
      expect((error as ValidationError).field).toBe("options.tenantId");
      expect(error.message).toContain("state root belongs to another tenant");
      expect(error.message).not.toContain(secretTenant);
      expect(existsSync(join(directory, "owner.lock"))).toBe(false);
    }

    const again = createFileStateStore(directory);
    expect((await again.open({ tenantId: secretTenant })).journal).toEqual([entry(1)]);
    await again.close();
  });

  it("refuses a tenant on a root created without one", async () => {
    const owner = createFileStateStore(directory);
    await owner.open({});
    await owner.close();
    const error = await rejection(createFileStateStore(directory).open({ tenantId: "tenant-1" }));
    expect((error as ValidationError).field).toBe("options.tenantId");
    expect(existsSync(join(directory, "owner.lock"))).toBe(false);
  });

  it("refuses to adopt a directory that holds a journal but no root.json", async () => {
    await writeFile(join(directory, "journal.json"), JSON.stringify([entry(1)]));
    const error = await rejection(createFileStateStore(directory).open({ tenantId: "tenant-1" }));
    expect(isValidationError(error)).toBe(true);
    expect(error.message).toContain("no root.json");
    expect(existsSync(join(directory, "root.json"))).toBe(false);
    expect(existsSync(join(directory, "owner.lock"))).toBe(false);
  });

  it("names a damaged journal line before the last, leaves the file untouched and releases the lock", async () => {
    const owner = createFileStateStore(directory);
    await owner.open({});
    await owner.appendJournal!([entry(1), entry(2)], { durable: true });
    await owner.close();
    const path = join(directory, "journal.jsonl");
    const [first, second] = (await readFile(path, "utf8")).split("\n");
    const damaged = `${first!.replace('"navigate"', '"navigatf"')}\n${second}\n`;
    await writeFile(path, damaged);

    const error = await rejection(createFileStateStore(directory).open({}));
    expect(isValidationError(error)).toBe(true);
    expect(error.message).toContain(`${path}: line 1 is damaged`);
    expect(await readFile(path, "utf8")).toBe(damaged);
    expect(existsSync(join(directory, "owner.lock"))).toBe(false);
  });

  it("names a corrupt journal.json of an earlier version, leaves it untouched and releases the lock", async () => {
    const owner = createFileStateStore(directory);
    await owner.open({});
    await owner.close();
    await rm(join(directory, "journal.jsonl"));
    await writeFile(join(directory, "journal.json"), "[{ not json");

    const error = await rejection(createFileStateStore(directory).open({}));
    expect(isValidationError(error)).toBe(true);
    expect(error.message).toContain(join(directory, "journal.json"));
    expect(await readFile(join(directory, "journal.json"), "utf8")).toBe("[{ not json");
    expect(existsSync(join(directory, "owner.lock"))).toBe(false);
  });

  it.runIf(process.platform !== "win32")("keeps the previous journal when a write fails part way (file size limit)", async () => {
    const seed = createFileStateStore(directory);
    await seed.open({});
    await seed.writeJournal([entry(1)]);
    await seed.close();
    const before = await readFile(join(directory, "journal.jsonl"), "utf8");

    // A child limited to 4 KiB files (`ulimit -f 8`, 512-byte blocks) writes a ~40 KiB journal: EFBIG mid-write.
    const script = join(directory, "..", `${directory.split("/").at(-1)}-child.mts`);
    const storeUrl = new URL("../../src/stores/index.ts", import.meta.url).href;
    await writeFile(
      script,
      `import { createFileStateStore } from ${JSON.stringify(storeUrl)};
const store = createFileStateStore(${JSON.stringify(directory)});
await store.open({});
const entries = Array.from({ length: 200 }, (_, index) => ({ seq: index + 1, sessionId: "s1", op: "navigate", startedAt: new Date(0).toISOString(), outcome: "ok", detail: "x".repeat(150) }));
let code = "none";
try { await store.writeJournal(entries); } catch (error) { code = error.code; }
await store.close();
console.log(JSON.stringify({ code }));
`,
    );
    try {
      const child = spawnSync("sh", ["-c", `ulimit -f 8 && exec "${process.execPath}" --import tsx "${script}"`], {
        cwd: repositoryRoot,
        encoding: "utf8",
      });
      expect(child.stderr).toBe("");
      expect(JSON.parse(child.stdout.trim().split("\n").at(-1)!)).toEqual({ code: "EFBIG" });
    } finally {
      await rm(script, { force: true });
    }
    expect(await readFile(join(directory, "journal.jsonl"), "utf8")).toBe(before);
    expect(await temporaryFiles(directory)).toEqual([]);
    expect(existsSync(join(directory, "owner.lock"))).toBe(false);
  });

  it("removes the temporary file when the final rename fails", async () => {
    const store = createFileStateStore(directory);
    await store.open({});
    await store.writeCheckpoints([checkpoint]);
    // A directory in the journal's place: the temporary file is written in full, then rename() fails (EISDIR).
    await rm(join(directory, "journal.jsonl"));
    await mkdir(join(directory, "journal.jsonl"));
    await writeFile(join(directory, "journal.jsonl", "keep"), "kept");

    const error = await rejection(store.writeJournal([entry(1)]));
    expect((error as NodeJS.ErrnoException).code).toMatch(/^(EISDIR|ENOTEMPTY|EEXIST)$/);
    expect(await readFile(join(directory, "journal.jsonl", "keep"), "utf8")).toBe("kept");
    expect(await temporaryFiles(directory)).toEqual([]);
    // The store goes on: another file still writes.
    await store.writeCheckpoints([]);
    expect(JSON.parse(await readFile(join(directory, "checkpoints.json"), "utf8"))).toEqual([]);
    await store.close();
  });

  it("writes in call order", async () => {
    const store = createFileStateStore(directory);
    await store.open({});
    // Large snapshots first, the newest (smallest) last: unordered writes would let an older one land last.
    const snapshots = Array.from({ length: 8 }, (_, index) =>
      Array.from({ length: 8 - index }, (_, seq) => entry(seq + 1, { detail: "x".repeat(100_000 * (8 - index)) })),
    );
    await Promise.all(snapshots.map((snapshot) => store.writeJournal(snapshot)));
    expect(await journalLines(directory)).toEqual(snapshots.at(-1));
    await store.close();
  });

  it("refuses to write once the lock is no longer its own", async () => {
    const store = createFileStateStore(directory);
    await store.open({});
    await store.writeJournal([entry(1)]);
    const intruder = JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt: "2030-01-01T00:00:00.000Z" });
    await writeFile(join(directory, "owner.lock"), intruder);

    const error = await rejection(store.writeJournal([entry(1), entry(2)]));
    expect(isJournalError(error)).toBe(true);
    expect(await journalLines(directory)).toEqual([entry(1)]);
    await store.close();
    expect(await readFile(join(directory, "owner.lock"), "utf8")).toBe(intruder); // not ours: left alone
  });

  it("refuses writes before open and after close", async () => {
    const store = createFileStateStore(directory);
    expect(isJournalError(await rejection(store.writeJournal([])))).toBe(true);
    await store.open({});
    await store.close();
    expect(isJournalError(await rejection(store.writeCheckpoints([])))).toBe(true);
  });

  it("drops a torn last line (and one whose checksum fails), then appends after the last whole line", async () => {
    const path = join(directory, "journal.jsonl");
    const store = createFileStateStore(directory);
    await store.open({});
    await store.appendJournal!([entry(1, { outcome: "pending" })], { durable: true });
    await store.appendJournal!([entry(1)], { durable: false });
    await store.appendJournal!([entry(2, { outcome: "pending" })], { durable: true });
    await store.close();
    const whole = await readFile(path, "utf8");

    // A write cut off by a crash: no newline at the end.
    await writeFile(path, `${whole}0123456789abcdef {"seq":3,"op":"na`);
    expect((await store.open({})).journal).toEqual([entry(1), entry(2, { outcome: "pending" })]);
    expect(await readFile(path, "utf8")).toBe(whole);
    await store.appendJournal!([entry(3)], { durable: true });
    await store.close();
    expect((await store.open({})).journal).toEqual([entry(1), entry(2, { outcome: "pending" }), entry(3)]);
    await store.close();

    // A whole last line whose checksum does not match its JSON.
    const withThree = await readFile(path, "utf8");
    await writeFile(path, `${withThree}0000000000000000 ${JSON.stringify(entry(4))}\n`);
    expect((await store.open({})).journal.map((kept) => kept.seq)).toEqual([1, 2, 3]);
    expect(await readFile(path, "utf8")).toBe(withThree);
    await store.close();
  });

  it("converts a journal.json of an earlier version once", async () => {
    const seed = createFileStateStore(directory);
    await seed.open({});
    await seed.close();
    await rm(join(directory, "journal.jsonl"));
    await writeFile(join(directory, "journal.json"), JSON.stringify([entry(1), entry(2, { outcome: "pending" })]));

    const store = createFileStateStore(directory);
    expect((await store.open({})).journal).toEqual([entry(1), entry(2, { outcome: "pending" })]);
    expect(existsSync(join(directory, "journal.json"))).toBe(false);
    await store.appendJournal!([entry(3)], { durable: true });
    await store.close();
    expect((await store.open({})).journal.map((kept) => kept.seq)).toEqual([1, 2, 3]);
    await store.close();
  });

  it("keeps what is appended while a compaction runs", async () => {
    const store = createFileStateStore(directory);
    await store.open({});
    await store.appendJournal!([entry(1), entry(2, { outcome: "pending" }), entry(3)], { durable: true });
    // The compaction drops entry 1; entry 2's finish and entry 4 are appended while it writes its new file.
    const compaction = store.writeJournal([entry(2, { outcome: "pending" }), entry(3)]);
    const appends = [store.appendJournal!([entry(2)], { durable: false }), store.appendJournal!([entry(4, { outcome: "pending" })], { durable: true })];
    await Promise.all([compaction, ...appends]);
    await store.close();
    expect((await store.open({})).journal).toEqual([entry(2), entry(3), entry(4, { outcome: "pending" })]);
    await store.close();
  });

  it("removes temporary files an interrupted write left behind", async () => {
    const store = createFileStateStore(directory);
    await store.open({});
    await store.close();
    await writeFile(join(directory, "journal.json.12345.0a1b2c3d4e5f.tmp"), "[");
    await writeFile(join(directory, "journal.jsonl.12345.0a1b2c3d4e5f.tmp"), "x");
    await writeFile(join(directory, "notes.tmp"), "not ours");
    await store.open({});
    expect(await readdir(directory)).not.toContain("journal.json.12345.0a1b2c3d4e5f.tmp");
    expect(await readdir(directory)).not.toContain("journal.jsonl.12345.0a1b2c3d4e5f.tmp");
    expect(await readdir(directory)).toContain("notes.tmp");
    await store.close();
  });
});

function meta(id: string, extra: Partial<RecordingMeta> = {}): RecordingMeta {
  return { id, sessionId: "s1", startedAt: new Date().toISOString(), state: "recording", frames: [], ...extra };
}

describe("createFileRecordingStore", () => {
  it("round-trips frames as identical bytes and metadata across reopen", async () => {
    const store = createFileRecordingStore(directory);
    expect(await store.open(7 * day)).toEqual([]);
    const bytes = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.from(Array.from({ length: 256 }, (_, index) => index)), randomBytes(4096)]);
    const recording = meta("rec_1", { frames: [{ id: "f0001", capturedAt: new Date().toISOString(), bytes: bytes.length }] });
    await store.writeMeta(recording);
    await store.writeFrame("rec_1", "f0001", bytes.toString("base64"));

    expect(await readFile(join(directory, "rec_1", "f0001.png"))).toEqual(bytes);
    expect(Buffer.from((await store.readFrame("rec_1", "f0001"))!, "base64")).toEqual(bytes);
    expect(await store.readFrame("rec_1", "f0002")).toBeUndefined();
    expect(await store.readFrame("rec_missing", "f0001")).toBeUndefined();
    await store.close();

    const reopened = createFileRecordingStore(directory);
    expect(await reopened.open(7 * day)).toEqual([recording]);
    await reopened.close();
  });

  it("deletes recordings idle for longer than the TTL when opened", async () => {
    const store = createFileRecordingStore(directory);
    const old = new Date(Date.now() - 8 * day).toISOString();
    const recent = new Date(Date.now() - day).toISOString();
    await store.writeMeta(meta("rec_old", { startedAt: old, stoppedAt: old, state: "stopped", frames: [{ id: "f0001", capturedAt: old, bytes: 1 }] }));
    await store.writeFrame("rec_old", "f0001", "AA==");
    await store.writeMeta(meta("rec_stopped_recently", { startedAt: old, stoppedAt: recent, state: "stopped" }));
    await store.writeMeta(meta("rec_recent_frame", { startedAt: old, frames: [{ id: "f0001", capturedAt: recent, bytes: 1 }] }));
    await store.writeMeta(meta("rec_fresh"));

    const kept = await createFileRecordingStore(directory).open(7 * day);
    expect(kept.map((recording) => recording.id).sort()).toEqual(["rec_fresh", "rec_recent_frame", "rec_stopped_recently"]);
    expect(existsSync(join(directory, "rec_old"))).toBe(false);
    expect(existsSync(join(directory, "rec_fresh", "meta.json"))).toBe(true);
  });

  it("skips unreadable recordings and deletes them once their files are older than the TTL", async () => {
    await mkdir(join(directory, "rec_broken_new"));
    await writeFile(join(directory, "rec_broken_new", "meta.json"), "{");
    await mkdir(join(directory, "rec_broken_old"));
    await writeFile(join(directory, "rec_broken_old", "f0001.png"), "x");
    const old = new Date(Date.now() - 8 * day);
    await utimes(join(directory, "rec_broken_old", "f0001.png"), old, old);
    await utimes(join(directory, "rec_broken_old"), old, old);
    await mkdir(join(directory, "not.a.recording"));
    await utimes(join(directory, "not.a.recording"), old, old);

    expect(await createFileRecordingStore(directory).open(7 * day)).toEqual([]);
    expect(existsSync(join(directory, "rec_broken_new", "meta.json"))).toBe(true);
    expect(existsSync(join(directory, "rec_broken_old"))).toBe(false);
    expect(existsSync(join(directory, "not.a.recording"))).toBe(true);
  });

  it("refuses ids that could escape the root, and malformed base64", async () => {
    const root = join(directory, "recordings");
    const store = createFileRecordingStore(root);
    await store.open(day);
    for (const badId of ["../escape", "a/b", "..", ".", "", "a.b", "x".repeat(65), "a\\b", "a\0b"]) {
      for (const attempt of [
        () => store.writeFrame(badId, "f0001", "AA=="),
        () => store.writeFrame("rec_1", badId, "AA=="),
        () => store.readFrame(badId, "f0001"),
        () => store.readFrame("rec_1", badId),
        () => store.delete(badId),
        () => store.writeMeta(meta(badId)),
        () => store.writeMeta(meta("rec_1", { frames: [{ id: badId, capturedAt: new Date().toISOString(), bytes: 1 }] })),
      ]) {
        expect(isValidationError(await rejection(attempt())), `id ${JSON.stringify(badId)}`).toBe(true);
      }
    }
    for (const badBase64 of ["not base64!", "AA=", "A"]) {
      expect(isValidationError(await rejection(store.writeFrame("rec_1", "f0001", badBase64)))).toBe(true);
    }
    expect(await readdir(directory)).toEqual(["recordings"]);
    expect(await readdir(root)).toEqual([]);
    // The longest allowed id works.
    await store.writeFrame("x".repeat(64), "f0001", "AA==");
    expect(await store.readFrame("x".repeat(64), "f0001")).toBe("AA==");
  });

  it("applies writes and deletes of one recording in call order", async () => {
    const store = createFileRecordingStore(directory);
    // Larger metadata first, the newest (smallest) last: unordered writes would let an older one land last.
    const metas = Array.from({ length: 6 }, (_, index) => meta("rec_1", { sessionId: "s".repeat(200_000 * (6 - index)) }));
    await Promise.all(metas.map((recording) => store.writeMeta(recording)));
    expect(JSON.parse(await readFile(join(directory, "rec_1", "meta.json"), "utf8"))).toEqual(metas.at(-1));

    const big = randomBytes(2_000_000).toString("base64");
    await Promise.all([store.writeFrame("rec_1", "f0001", big), store.delete("rec_1")]);
    expect(existsSync(join(directory, "rec_1"))).toBe(false);
  });

  it("deletes a recording, and deleting a missing one is not an error", async () => {
    const store = createFileRecordingStore(directory);
    await store.writeMeta(meta("rec_1"));
    await store.writeFrame("rec_1", "f0001", "AA==");
    await store.delete("rec_1");
    expect(existsSync(join(directory, "rec_1"))).toBe(false);
    expect(await store.readFrame("rec_1", "f0001")).toBeUndefined();
    await store.delete("rec_1");
    await store.close();
  });
});
