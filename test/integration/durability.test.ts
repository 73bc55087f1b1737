import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JournalError, ValidationError } from "../../src/errors.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import type { BrowserAdapter } from "../../src/protocol/adapter.js";
import { BrowserSessionManager } from "../../src/stores/session-manager.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { FakeClock } from "../helpers/fake-clock.js";
import { spawnTsx } from "../helpers/processes.js";

let adapter: PlaywrightBrowserAdapter;
let server: FixtureServer;
let scratch: string;

beforeAll(async () => {
  adapter = new PlaywrightBrowserAdapter();
  server = await startFixtureServer();
  scratch = await mkdtemp(join(tmpdir(), "station-durability-"));
});
afterAll(async () => {
  await adapter.shutdown();
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});

const childScript = fileURLToPath(new URL("../helpers/journal-child.ts", import.meta.url));

describe("durable journal (real Chromium, real processes)", () => {
  it("reads an action cut off by SIGKILL as unknown after a restart, and replays nothing", async () => {
    const stateRootDir = join(scratch, "crash");
    // The child is the manager's own process (no tsx CLI between): once its exit is seen, it has been
    // reaped, so its owner lock is stale for sure — under tsx's CLI, the CLI's exit could come first.
    const child = spawnTsx(childScript, [stateRootDir, server.origin], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const started = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`child never started its action:\n${output}`)), 60_000);
      child.stdout!.on("data", (chunk: Buffer) => {
        const match = /STARTED (\d+)/.exec(chunk.toString());
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.on("exit", (code) => reject(new Error(`child exited early (${code}):\n${output}`)));
    });
    await expect.poll(() => server.requests.filter((request) => request === "GET /status").length).toBe(1);
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGKILL");
    await exited;

    const manager = new BrowserSessionManager(adapter, 1, { stateRootDir });
    const audit = await manager.audit();
    expect(audit.map((entry) => [entry.op, entry.outcome])).toEqual([
      ["navigate", "ok"],
      ["evaluate", "unknown"],
    ]);
    expect(audit[1]!.seq).toBe(Number(started));
    // Nothing was reopened to replay it on, and the page saw it once.
    expect(manager.list()).toEqual([]);
    expect(server.requests.filter((request) => request === "GET /status")).toHaveLength(1);
    // The sequence goes on from where it was, and work after the restart replays nothing either.
    const { id } = await manager.open();
    await manager.perform(id, "navigate", server.url("/index.html"));
    await manager.perform(id, "evaluate", "1");
    expect((await manager.audit()).at(-1)).toMatchObject({ seq: Number(started) + 2, outcome: "ok" });
    expect(server.requests.filter((request) => request === "GET /status")).toHaveLength(1);
    await manager.close();
  }, 90_000);

  it("refuses a second live manager on the same state root", async () => {
    const stateRootDir = join(scratch, "owner");
    const first = new BrowserSessionManager(adapter, 1, { stateRootDir });
    await first.ready();
    const second = new BrowserSessionManager(adapter, 1, { stateRootDir });
    await expect(second.ready()).rejects.toThrow(/already owned by live process/);
    await expect(second.open()).rejects.toThrow(/already owned by live process/);
    await first.close();
    const third = new BrowserSessionManager(adapter, 1, { stateRootDir });
    await third.ready();
    await third.close();
  });

  it("refuses a state root that belongs to another tenant", async () => {
    const stateRootDir = join(scratch, "tenant");
    const mine = new BrowserSessionManager(adapter, 1, { stateRootDir, tenantId: "tenant-a" });
    await mine.ready();
    await mine.close();
    const theirs = new BrowserSessionManager(adapter, 1, { stateRootDir, tenantId: "tenant-b" });
    const error = await theirs.ready().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/another tenant/);
    expect((error as Error).message).not.toContain("tenant-a");
    const again = new BrowserSessionManager(adapter, 1, { stateRootDir, tenantId: "tenant-a" });
    await again.ready();
    await again.close();
  });

  it("stops admission with a clear error when the journal cannot be written, losing no earlier entry", async (context) => {
    const stateRootDir = join(scratch, "readonly");
    await mkdir(stateRootDir, { recursive: true });
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      try {
        execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", stateRootDir], { stdio: "ignore" });
      } catch {
        context.skip("SKIPPED: running as root without permission to mount a read-only tmpfs, so no write can be made to fail");
      }
    }
    // What reaches the engine, and what the manager says it started: the action must reach neither.
    const executed: string[] = [];
    const watched: BrowserAdapter = {
      open: (options, signal, openContext) => adapter.open(options, signal, openContext),
      execute: (handle, command, signal) => (executed.push(command.op), adapter.execute(handle, command, signal)),
      close: (handle) => adapter.close(handle),
      capabilities: () => adapter.capabilities(),
    };
    const manager = new BrowserSessionManager(watched, 1, { stateRootDir });
    const started: string[] = [];
    manager.events.on("action-start", (event) => started.push(event.op));
    let mounted = asRoot;
    try {
      const { id } = await manager.open();
      await manager.perform(id, "navigate", server.url("/index.html"));
      await manager.perform(id, "evaluate", "1");
      const journalPath = join(stateRootDir, "journal.jsonl");
      // Two starts and two finishes; a finish is written after the answer, so wait for the fourth line.
      await expect.poll(async () => (await readFile(journalPath, "utf8")).split("\n").filter(Boolean).length).toBe(4);
      const before = await readFile(journalPath, "utf8");
      if (asRoot) execFileSync("mount", ["-o", "remount,ro", stateRootDir]);
      else {
        execFileSync("chmod", ["444", journalPath]); // an existing file stays writable in a read-only directory
        execFileSync("chmod", ["555", stateRootDir]);
      }

      const error = await manager.perform(id, "evaluate", "fetch('/download?bytes=1').then(() => 'ran')").catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(JournalError);
      expect((error as Error).message).toMatch(/journal cannot be written/);
      // The action did not run unrecorded: the manager handed it to the engine only after a durable start, and
      // its answer came back without either (so no page can have seen it); nothing runs after it.
      expect(started).toEqual(["navigate", "evaluate"]);
      await expect(manager.execute(id, { op: "pages" })).rejects.toBeInstanceOf(JournalError);
      await expect(manager.open()).rejects.toBeInstanceOf(JournalError);
      expect(executed).toEqual(["navigate", "evaluate"]);
      expect(await readFile(journalPath, "utf8")).toBe(before);
      expect((await manager.audit()).map((entry) => entry.op)).toEqual(["navigate", "evaluate"]);
    } finally {
      try {
        await manager.close();
      } finally {
        if (mounted) execFileSync("umount", [stateRootDir]);
        else if (!asRoot) {
          execFileSync("chmod", ["755", stateRootDir]);
          execFileSync("chmod", ["644", join(stateRootDir, "journal.jsonl")]);
        }
        mounted = false;
      }
    }
  });

  it("keeps recordings across a restart: recovered ones read as stopped, expired ones are deleted", async () => {
    const recordingRootDir = join(scratch, "recordings");
    // Frames are stamped two minutes in the past: kept by the default TTL, expired by a one-minute one.
    const clock = new FakeClock(Date.now() - 120_000);
    const first = new BrowserSessionManager(adapter, 1, { recordingRootDir, clock });
    const { id } = await first.open();
    await first.perform(id, "navigate", server.url("/index.html"));
    const recording = await first.startRecording(id);
    clock.advance(5_000);
    // The second frame is on disk once meta.json lists it (it is written after the frame is counted in memory).
    const metaPath = join(recordingRootDir, recording.id, "meta.json");
    const readMeta = async () => JSON.parse(await readFile(metaPath, "utf8")) as { state: string; frames: unknown[] };
    await expect.poll(async () => (await readMeta()).frames.length).toBe(2);
    const frame = await first.recordingFrame(recording.id, "f0002");
    // Simulate a crash: the process ends without stopping the recording (no close()).
    const meta = await readMeta();
    expect(meta.state).toBe("recording");

    const second = new BrowserSessionManager(adapter, 1, { recordingRootDir });
    const recovered = await second.getRecording(recording.id);
    expect(recovered).toMatchObject({ state: "stopped", stopReason: "recovered" });
    expect(recovered.frames.map((entry) => entry.id)).toEqual(["f0001", "f0002"]);
    expect((await second.recordingFrame(recording.id, "f0002")).base64).toBe(frame.base64);
    await second.close();

    const later = new BrowserSessionManager(adapter, 1, { recordingRootDir, recordingTtlMs: 60_000 });
    // Its frames are two minutes old: past a one-minute TTL.
    expect(await later.recordings()).toEqual([]);
    await later.close();
    await first.close();
  });
});
