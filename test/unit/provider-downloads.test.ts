import { describe, expect, it } from "vitest";
import { ProviderError, ValidationError } from "../../src/errors.js";
import { storedEntryOf } from "../../src/providers/browserbase/downloads.js";
import { createRemoteDownloads } from "../../src/providers/hosted/remote-downloads.js";
import { unzipEntry, zipEntries } from "../../src/providers/hosted/unzip.js";
import type { SteelApi } from "../../src/providers/steel/api.js";
import { createSteelDownloads } from "../../src/providers/steel/downloads.js";
import { zip } from "../helpers/zip.js";

/**
 * The neutral pieces of the hosted providers' downloads: the zip reader
 * behind Browserbase's session downloads (a zip of the session's files), how
 * a download's name is found among the names Browserbase stores
 * (`<stem>-<timestamp><ext>`), the one-fetch-per-file chunking, and Steel's
 * files paths.
 */
const text = (value: string) => new TextEncoder().encode(value);

describe("zip reader (fflate)", () => {
  it("lists the files of an archive and reads deflated and stored entries back byte for byte", async () => {
    const big = new Uint8Array(300_000).map((_value, index) => (index * 7919) % 251);
    const archive = zip([
      { name: "downloads/", bytes: new Uint8Array(0), store: true },
      { name: "report-1719265797164.txt", bytes: text("hello report") },
      { name: "data.bin", bytes: big, store: true },
      { name: "big.bin", bytes: big },
    ]);
    const entries = zipEntries(archive, "test");
    expect(entries.map((entry) => [entry.name, entry.size])).toEqual([
      ["report-1719265797164.txt", 12],
      ["data.bin", 300_000],
      ["big.bin", 300_000],
    ]);
    expect(new TextDecoder().decode(unzipEntry(archive, entries[0]!, 1024, "test"))).toBe("hello report");
    // Compared as buffers: a deep equality over 300 000 elements is slow.
    expect(Buffer.from(unzipEntry(archive, entries[1]!, 1 << 20, "test")).equals(big)).toBe(true);
    expect(Buffer.from(unzipEntry(archive, entries[2]!, 1 << 20, "test")).equals(big)).toBe(true);
    expect(zipEntries(new Uint8Array(0), "test")).toEqual([]);
  });

  it("refuses an entry past the limit, bounds one whose directory understates its size, and refuses a malformed archive", () => {
    const archive = zip([{ name: "big.bin", bytes: new Uint8Array(4096).fill(7) }]);
    const [entry] = zipEntries(archive, "downloads of session s1");
    expect(() => unzipEntry(archive, entry!, 1000, "downloads of session s1")).toThrow("downloads of session s1: big.bin is 4096 bytes, past the 1000-byte download limit");
    // A central directory that understates the size: the inflated bytes stay within the size it states.
    const lying = archive.slice();
    const view = new DataView(lying.buffer);
    let directory = 0;
    while (view.getUint32(directory, true) !== 0x02014b50) directory++;
    view.setUint32(directory + 24, 10, true);
    const [understated] = zipEntries(lying, "t");
    expect(understated).toEqual({ name: "big.bin", size: 10 });
    expect([...unzipEntry(lying, understated!, 1000, "t")]).toEqual(new Array(10).fill(7));
    const error = (() => { try { zipEntries(text("not a zip at all, just text"), "t"); } catch (caught) { return caught; } })();
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe("t: the archive is not a zip this reader takes (invalid zip data)");
  });

  it("finds the entry Browserbase stored a download as: its own name, or its name with a timestamp, the newest first", () => {
    const entries = zipEntries(
      zip([
        { name: "report-1719265797164.txt", bytes: text("old") },
        { name: "report-1719265799999.txt", bytes: text("new") },
        { name: "report-copy.txt", bytes: text("other") },
        { name: "notes", bytes: text("no extension") },
        { name: "archive.tar-1719265797164.gz", bytes: text("double extension") },
      ]),
      "t",
    );
    expect(storedEntryOf(entries, "report.txt")?.name).toBe("report-1719265799999.txt");
    expect(storedEntryOf(entries, "notes")?.name).toBe("notes");
    expect(storedEntryOf(entries, "archive.tar.gz")?.name).toBe("archive.tar-1719265797164.gz");
    expect(storedEntryOf(entries, "missing.txt")).toBeUndefined();
    expect(storedEntryOf(entries, "report-copy")).toBeUndefined();
  });
});

describe("hosted downloads: one fetch per file read in chunks, and Steel's files paths", () => {
  it("fetches a file for a read from offset 0 and serves the next chunks from that copy, then lets it go", async () => {
    const fetched: string[] = [];
    const downloads = createRemoteDownloads({
      folder: "/files",
      behavior: "allowAndName",
      async fetch(sessionId, path) {
        fetched.push(`${sessionId} ${path}`);
        return text("0123456789");
      },
    });
    expect(downloads.deletes).toBe(false);
    expect(new TextDecoder().decode(await downloads.read("s1", "/files/a", 0, 4))).toBe("0123");
    expect(new TextDecoder().decode(await downloads.read("s1", "/files/a", 4, 4))).toBe("4567");
    // Another file, or another session's, is fetched for itself.
    await downloads.read("s2", "/files/a", 4, 2);
    expect(new TextDecoder().decode(await downloads.read("s1", "/files/a", 8, 4))).toBe("89");
    expect(fetched).toEqual(["s1 /files/a", "s2 /files/a", "s1 /files/a"]);
    // The last chunk let the copy go: the next read fetches again.
    await downloads.read("s1", "/files/a", 4, 2);
    expect(fetched).toHaveLength(4);
  });

  it("asks Steel for a download by its path under the files folder, and never for one outside it", async () => {
    const asked: string[] = [];
    const api = {
      client: { sessions: { files: { download: async (id: string, path: string) => (asked.push(`${id} ${path}`), new Response("abc")), delete: async () => undefined } } },
      secrets: [],
      call: async <T>(_what: unknown, run: () => PromiseLike<T>) => run(),
      callOrAbsent: async <T>(_what: unknown, run: () => PromiseLike<T>) => run(),
    } as unknown as SteelApi;
    const downloads = createSteelDownloads(api, "/files");
    expect(new TextDecoder().decode(await downloads.read("s 1", "/files/sub dir/9f1c", 0, 10))).toBe("abc");
    expect(asked).toEqual(["s%201 sub%20dir/9f1c"]);
    for (const path of ["/etc/passwd", "/files", "/files/", "/files/../etc/passwd", "/filesystem/x", "relative/x"]) {
      const error = await downloads.read("s1", path, 0, 10).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe("path");
    }
    expect(asked).toHaveLength(1);
  });
});
