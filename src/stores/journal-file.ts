import { createHash } from "node:crypto";
import { dirname } from "node:path";
import { ValidationError } from "../errors.js";
import type { JournalEntry } from "../lifecycle/stores.js";
import { errorCode, syncDirectory, temporaryPathFor } from "./atomic-file.js";
import { nodeFileSystem, type StoreFileSystem } from "./file-system.js";

/**
 * The journal as JSON lines (`journal.jsonl`): one entry a line, as
 * `<checksum> <json>\n`, the checksum being the first 16 hex digits of the
 * JSON's SHA-256. Appending costs the same at any length; a later line with
 * the same `seq` supersedes an earlier one.
 */

const checksumOf = (json: string) => createHash("sha256").update(json).digest("hex").slice(0, 16);
const newline = 0x0a;

/**
 * One entry as a journal line.
 *
 * @example
 * ```ts
 * journalLine(entry); // "3f9a0c1d2e4b5a67 {\"seq\":1,…}\n"
 * ```
 */
export function journalLine(entry: JournalEntry): string {
  const json = JSON.stringify(entry);
  return `${checksumOf(json)} ${json}\n`;
}

function parseLine(line: string): JournalEntry | undefined {
  const json = line.slice(17);
  if (line[16] !== " " || checksumOf(json) !== line.slice(0, 16)) return undefined;
  try {
    const entry = JSON.parse(json) as Partial<JournalEntry> | null;
    return typeof entry === "object" && entry !== null && typeof entry.seq === "number" && typeof entry.op === "string" ? (entry as JournalEntry) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a journal file: entries by `seq`, each as its last line has it. A
 * torn or checksum-failing last line (a write cut off by a crash) is dropped
 * and cut from the file, so later appends follow a whole line.
 *
 * @returns `undefined` when the file does not exist.
 * @throws {ValidationError} naming `field`, the file and the line when a line
 * before the last is damaged (the file is left as it is).
 * @example
 * ```ts
 * const journal = (await readJournalFile("/state/journal.jsonl", "options.stateRootDir")) ?? [];
 * ```
 */
export async function readJournalFile(path: string, field: string, fs: StoreFileSystem = nodeFileSystem): Promise<JournalEntry[] | undefined> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(path);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
  const bySeq = new Map<number, JournalEntry>();
  let offset = 0;
  let lineNumber = 0;
  while (offset < bytes.length) {
    const end = bytes.indexOf(newline, offset);
    lineNumber++;
    const entry = end < 0 ? undefined : parseLine(bytes.toString("utf8", offset, end));
    if (!entry) {
      if (end < 0 || end === bytes.length - 1) break; // the last line: torn by a crash, dropped below
      throw new ValidationError(field, `${path}: line ${lineNumber} is damaged (checksum or JSON); the file was left as it is: repair or remove it`);
    }
    bySeq.delete(entry.seq);
    bySeq.set(entry.seq, entry);
    offset = end + 1;
  }
  if (offset < bytes.length) await cutAt(path, offset, fs);
  return [...bySeq.values()].sort((left, right) => left.seq - right.seq);
}

async function cutAt(path: string, length: number, fs: StoreFileSystem): Promise<void> {
  await fs.truncate(path, length);
  await syncFile(path, fs);
}

async function syncFile(path: string, fs: StoreFileSystem): Promise<void> {
  const handle = await fs.open(path, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Appends lines to a journal file, synced to disk when `durable` (the file
 * exists already, so its directory entry is durable). When the write or the
 * sync fails (a full disk may take part of the text), the file is cut back to
 * its length before, so a later append never follows a partial line; when
 * even that fails, `onTorn` is told (the file may end with a partial line,
 * which a reader drops as long as nothing is appended after it).
 *
 * @example
 * ```ts
 * await appendJournalLines("/state/journal.jsonl", journalLine(entry), true);
 * ```
 */
export async function appendJournalLines(
  path: string,
  text: string,
  durable: boolean,
  fs: StoreFileSystem = nodeFileSystem,
  onTorn: (error: Error) => void = () => undefined,
): Promise<void> {
  const handle = await fs.open(path, "a", 0o600);
  let length: number | undefined;
  try {
    length = (await handle.stat()).size;
    await handle.writeFile(text);
    if (durable) await handle.sync();
  } catch (error) {
    if (length === undefined) throw error;
    try {
      await handle.truncate(length);
      await handle.sync();
    } catch (cutError) {
      onTorn(cutError instanceof Error ? cutError : new Error(String(cutError)));
    }
    throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Syncs a journal file (its unsynced appends), if it exists.
 *
 * @example
 * ```ts
 * await syncJournalFile("/state/journal.jsonl");
 * ```
 */
export async function syncJournalFile(path: string, fs: StoreFileSystem = nodeFileSystem): Promise<void> {
  await syncFile(path, fs).catch((error: unknown) => {
    if (errorCode(error) !== "ENOENT") throw error;
  });
}

/**
 * Compacts a journal file: writes `text` to a temporary file without holding
 * up appends, then, through `serialise` (the store's write queue), adds the
 * lines appended meanwhile (`appendedSince()`), syncs, renames it over `path`
 * and syncs the directory. On failure the temporary file is removed and
 * `path` is untouched.
 *
 * @example
 * ```ts
 * await compactJournalFile(path, text, () => tail.join(""), (step) => enqueue(step));
 * ```
 */
export async function compactJournalFile(
  path: string,
  text: string,
  appendedSince: () => string,
  serialise: (step: () => Promise<void>) => Promise<void>,
  fs: StoreFileSystem = nodeFileSystem,
): Promise<void> {
  const temporaryPath = temporaryPathFor(path);
  let renamed = false;
  try {
    await fs.writeFile(temporaryPath, text, { flag: "wx", mode: 0o600 });
    await serialise(async () => {
      await appendJournalLines(temporaryPath, appendedSince(), true, fs);
      await fs.rename(temporaryPath, path);
      renamed = true;
      // Before any later append: otherwise a crash could bring back the old file without it.
      await syncDirectory(dirname(path), fs);
    });
  } catch (error) {
    if (!renamed) await fs.rm(temporaryPath, { force: true }).catch(() => undefined);
    throw error;
  }
}
