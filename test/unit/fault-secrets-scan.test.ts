import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryStateStore } from "../../src/lifecycle/memory-stores.js";
import type { Checkpoint } from "../../src/lifecycle/stores.js";
import { createFileStateStore } from "../../src/stores/index.js";
import { artefacts, collectDirectory, collectStore } from "../faults/artefacts.js";
import { findSecrets, type Secret } from "../faults/scan.js";

const planted = "planted-secret-5e1f0a9c3b";
const secrets: Secret[] = [["provider key", planted]];

const checkpoint = (url: string): Checkpoint => ({
  id: "c1",
  createdAt: "2026-01-01T00:00:00.000Z",
  sessionId: "s1",
  backend: "local",
  options: {},
  pages: [{ url, title: "Plain" }],
  selectedIndex: 0,
});

const entry = (detail: string) => ({ seq: 1, sessionId: "s1", op: "navigate", startedAt: "2026-01-01T00:00:00.000Z", outcome: "ok" as const, detail });

describe("the fault suite's secrets scan reads managers' stores", () => {
  afterEach(() => void artefacts.splice(0));

  it("finds a secret planted in an in-memory store's journal, checkpoints or release ledger", async () => {
    const store = createMemoryStateStore();
    await store.writeJournal([entry(`navigate http://127.0.0.1/?key=${planted}`)]);
    await store.writeCheckpoints([checkpoint(`http://127.0.0.1/${planted}`)]);
    await store.writeLedger!({ uncertain: [{ openTag: "t1", since: "2026-01-01T00:00:00.000Z", reason: `provider said ${planted}`, options: {} }], pending: [] });
    expect(await collectStore(store)).toBe(3);
    expect(findSecrets(artefacts, secrets).map((line) => line.split(":")[0])).toEqual(["provider key in journal entry", "provider key in checkpoint", "provider key in release ledger"]);
  });

  it("finds nothing in a store that holds no secret, while still reading it", async () => {
    const store = createMemoryStateStore();
    await store.writeJournal([entry("navigate http://127.0.0.1/plain")]);
    await store.writeCheckpoints([checkpoint("http://127.0.0.1/plain")]);
    expect(await collectStore(store)).toBe(2);
    expect(findSecrets(artefacts, secrets)).toEqual([]);
  });

  describe("a file store's state root", () => {
    let root: string | undefined;
    afterEach(async () => {
      if (root) await rm(root, { recursive: true, force: true });
    });

    it("finds a secret planted in the journal on disk", async () => {
      root = await mkdtemp(join(tmpdir(), "fault-scan-"));
      const store = createFileStateStore(root);
      await store.open({});
      await store.appendJournal!([entry(`navigate http://127.0.0.1/${planted}`)], { durable: true });
      await store.close();
      expect(await collectDirectory(root)).toBeGreaterThanOrEqual(1);
      const found = findSecrets(artefacts, secrets);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^provider key in file .*journal\.jsonl: /);
    });
  });
});
