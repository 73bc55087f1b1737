import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ValidationError } from "../../src/errors.js";
import { createFileProfileStore } from "../../src/stores/file-profile-store.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "station-profile-store-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("createFileProfileStore", () => {
  it("keeps the mapping across instances (restarts), in a versioned JSON file with mode 0600", async () => {
    const path = join(directory, "nested", "profiles.json");
    const store = createFileProfileStore(path);
    expect(await store.get("research")).toBeUndefined();
    await store.set("research", "ctx_1");
    await store.set("whatsapp:acme:+4712345678", "ctx_2");
    expect(await store.get("research")).toBe("ctx_1");

    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ version: 1, profiles: { research: "ctx_1", "whatsapp:acme:+4712345678": "ctx_2" } });
    expect((await stat(path)).mode & 0o777).toBe(0o600);

    const reopened = createFileProfileStore(path);
    expect(await reopened.get("whatsapp:acme:+4712345678")).toBe("ctx_2");
    await reopened.delete("research");
    expect(await reopened.get("research")).toBeUndefined();
    expect(await createFileProfileStore(path).get("research")).toBeUndefined();
  });

  it("applies concurrent changes in call order, losing none, and leaves no temporary files", async () => {
    const path = join(directory, "profiles.json");
    const store = createFileProfileStore(path);
    await Promise.all(Array.from({ length: 20 }, (_, index) => store.set(`profile-${index}`, `ctx_${index}`)));
    await Promise.all([store.set("profile-0", "ctx_new"), store.delete("profile-1")]);
    const { profiles } = JSON.parse(await readFile(path, "utf8")) as { profiles: Record<string, string> };
    expect(Object.keys(profiles)).toHaveLength(19);
    expect(profiles["profile-0"]).toBe("ctx_new");
    expect(profiles["profile-1"]).toBeUndefined();
    expect(await readdir(directory)).toEqual(["profiles.json"]);
  });

  it("a failed write leaves the store as it was and no temporary file behind", async () => {
    const path = join(directory, "profiles.json");
    const store = createFileProfileStore(path);
    await store.set("research", "ctx_1");
    // A directory where the file was: the rename onto it fails (even for root).
    await rm(path);
    await mkdir(join(path, "blocker"), { recursive: true });
    await expect(store.set("other", "ctx_2")).rejects.toThrow();
    expect(await store.get("other")).toBeUndefined();
    expect(await store.get("research")).toBe("ctx_1");
    expect((await readdir(directory)).sort()).toEqual(["profiles.json"]);
    await rm(path, { recursive: true });
    await store.set("other", "ctx_2");
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ version: 1, profiles: { research: "ctx_1", other: "ctx_2" } });
  });

  it("refuses a file that is not a profile store, and leaves it untouched", async () => {
    const path = join(directory, "profiles.json");
    for (const contents of ["not json", "[]", '{"version":2,"profiles":{}}', '{"version":1,"profiles":{"a":1}}']) {
      await writeFile(path, contents);
      const store = createFileProfileStore(path);
      await expect(store.get("a")).rejects.toBeInstanceOf(ValidationError);
      await expect(store.set("a", "ctx")).rejects.toBeInstanceOf(ValidationError);
      expect(await readFile(path, "utf8")).toBe(contents);
    }
  });

  it("refuses an empty path and an empty provider id", async () => {
    expect(() => createFileProfileStore("")).toThrow(ValidationError);
    await expect(createFileProfileStore(join(directory, "p.json")).set("a", "")).rejects.toBeInstanceOf(ValidationError);
  });

  it("two stores on one file keep each other's entries (each change re-reads the file)", async () => {
    const path = join(directory, "shared.json");
    const a = createFileProfileStore(path);
    const b = createFileProfileStore(path);
    await a.set("alice", "ctx_a");
    expect(await b.get("alice")).toBe("ctx_a");
    await a.set("carol", "ctx_c");
    // b read the file before carol was added; its change must not drop carol.
    await b.set("bob", "ctx_b");
    expect(JSON.parse(await readFile(path, "utf8")).profiles).toEqual({ alice: "ctx_a", bob: "ctx_b", carol: "ctx_c" });
  });
});
