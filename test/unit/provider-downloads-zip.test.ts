import { describe, expect, it } from "vitest";
import { ProviderError } from "../../src/errors.js";
import { storedEntryOf } from "../../src/providers/browserbase/downloads.js";
import { unzipEntry, zipEntries } from "../../src/providers/hosted/unzip.js";
import { zip } from "../helpers/zip.js";

/**
 * The neutral zip reader behind Browserbase's session downloads (a zip of
 * the session's files), and how a download's name is found among the names
 * Browserbase stores (`<stem>-<timestamp><ext>`).
 */
const text = (value: string) => new TextEncoder().encode(value);

describe("zip reader (web standards: DecompressionStream deflate-raw)", () => {
  it("lists the files of an archive and reads deflated and stored entries back byte for byte", async () => {
    const big = new Uint8Array(300_000).map((_value, index) => (index * 7919) % 251);
    const archive = zip([
      { name: "downloads/", bytes: new Uint8Array(0), store: true },
      { name: "report-1719265797164.txt", bytes: text("hello report") },
      { name: "data.bin", bytes: big, store: true },
      { name: "big.bin", bytes: big },
    ]);
    const entries = zipEntries(archive, "test");
    expect(entries.map((entry) => [entry.name, entry.method, entry.size])).toEqual([
      ["report-1719265797164.txt", 8, 12],
      ["data.bin", 0, 300_000],
      ["big.bin", 8, 300_000],
    ]);
    expect(new TextDecoder().decode(await unzipEntry(archive, entries[0]!, 1024, "test"))).toBe("hello report");
    expect(await unzipEntry(archive, entries[1]!, 1 << 20, "test")).toEqual(big);
    expect(await unzipEntry(archive, entries[2]!, 1 << 20, "test")).toEqual(big);
    expect(zipEntries(new Uint8Array(0), "test")).toEqual([]);
  });

  it("refuses an entry past the limit, whether its size says so or it only inflates past it, and a malformed archive", async () => {
    const archive = zip([{ name: "big.bin", bytes: new Uint8Array(4096) }]);
    const [entry] = zipEntries(archive, "downloads of session s1");
    await expect(unzipEntry(archive, entry!, 1000, "downloads of session s1")).rejects.toThrow("downloads of session s1: big.bin is 4096 bytes, past the 1000-byte download limit");
    // A central directory that understates the size: the inflated bytes are still bounded.
    await expect(unzipEntry(archive, { ...entry!, size: 10 }, 1000, "t")).rejects.toThrow("t: big.bin inflates past the 1000-byte download limit");
    const error = (() => { try { zipEntries(text("not a zip at all, just text"), "t"); } catch (caught) { return caught; } })();
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe("t: the archive is not a zip this reader takes (no end of central directory)");
    // An end record counting more entries than the directory holds.
    const overcounted = archive.slice();
    new DataView(overcounted.buffer).setUint16(overcounted.byteLength - 22 + 10, 2, true);
    expect(() => zipEntries(overcounted, "t")).toThrow("t: the archive is not a zip this reader takes (central directory cut short)");
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
