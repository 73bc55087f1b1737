import { lstat, mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { basename, isAbsolute, join } from "node:path";
import type { Browser } from "playwright-core";
import { ValidationError } from "../../errors.js";
import { writeFileAtomically } from "../../stores/atomic-file.js";
import { processStatus, recordedProcessRuns } from "../../stores/process-status.js";

/** Names the owner file of a run directory, and says in it who wrote it. */
const ownerFileName = "owner.json";
const ownerMarker = "station-browser-use/local-provider";
const runPrefix = "run-";
/** The temporary profile Playwright makes for a non-persistent launch (`os.tmpdir()/playwright_chromiumdev_profile-XXXXXX`). */
const playwrightProfilePattern = /^playwright_chromiumdev_profile-[A-Za-z0-9]{6}$/;

/** A browser this run launched: its process, and the temporary profile Playwright made for it. */
interface BrowserRecord {
  pid: number;
  /** `processStatus().start`, so a reused pid is not taken for the browser. */
  processStart?: string;
  profileDir?: string;
}

/** What a run directory's owner file holds. */
interface OwnerRecord {
  marker: typeof ownerMarker;
  pid: number;
  /** `processStatus().start` (Linux), so a reused pid is not taken for the owner. */
  processStart?: string;
  createdAt: string;
  browsers: BrowserRecord[];
}

/**
 * The temporary directory of one provider run under `tempRootDir`: the
 * private home Chromium gets, each browser's artifacts (downloads, traces),
 * and `owner.json` naming this process and the temporary profiles of the
 * browsers it launched. After a crash, the next start removes it
 * ({@link removeLeftovers}).
 */
export interface RunDirectory {
  readonly path: string;
  readonly home: string;
  /** A fresh directory for one browser's artifacts. */
  artifacts(): Promise<string>;
  /** Notes a launched browser (its pid and Playwright's temporary profile) in the owner file. */
  recordBrowser(browser: Browser): Promise<void>;
  /** Removes the whole run directory. */
  remove(): Promise<void>;
}

const isOwnerRecord = (value: unknown): value is OwnerRecord =>
  typeof value === "object" &&
  value !== null &&
  (value as OwnerRecord).marker === ownerMarker &&
  Number.isInteger((value as OwnerRecord).pid) &&
  Array.isArray((value as OwnerRecord).browsers);

/**
 * The browser process of `browser` and its `--user-data-dir`, read from
 * CDP's process list and Linux's /proc. Elsewhere the profile stays unknown
 * (and Playwright's own cleanup is all there is).
 */
async function describeBrowser(browser: Browser): Promise<BrowserRecord | undefined> {
  try {
    const cdp = await browser.newBrowserCDPSession();
    const { processInfo } = (await cdp.send("SystemInfo.getProcessInfo")) as { processInfo: { type: string; id: number }[] };
    await cdp.detach().catch(() => undefined);
    const pid = processInfo.find((entry) => entry.type === "browser")?.id;
    if (pid === undefined) return undefined;
    const commandLine = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    const profileDir = commandLine
      .split("\0")
      .find((argument) => argument.startsWith("--user-data-dir="))
      ?.slice("--user-data-dir=".length);
    const processStart = processStatus(pid)?.start;
    return { pid, ...(processStart ? { processStart } : {}), ...(profileDir ? { profileDir } : {}) };
  } catch {
    return undefined;
  }
}

/** Makes this run's directory under `root` (after removing what crashed runs left there). */
export async function createRunDirectory(root: string): Promise<RunDirectory> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  // A root someone else made (a shared /tmp) could be read by them, or steer the removal of leftovers.
  const made = await lstat(root);
  if (!made.isDirectory() || made.isSymbolicLink()) throw new ValidationError("options.tempRootDir", `${root} is not a directory (or is a symlink)`);
  if (typeof process.getuid === "function" && made.uid !== process.getuid()) {
    throw new ValidationError("options.tempRootDir", `${root} belongs to another user; give this provider a directory of its own`);
  }
  await removeLeftovers(root);
  const path = await mkdtemp(join(root, `${runPrefix}${process.pid}-`));
  const home = join(path, "home");
  await mkdir(home);
  const processStart = processStatus(process.pid)?.start;
  const record: OwnerRecord = { marker: ownerMarker, pid: process.pid, ...(processStart ? { processStart } : {}), createdAt: new Date().toISOString(), browsers: [] };
  let writes = writeFileAtomically(join(path, ownerFileName), JSON.stringify(record));
  await writes;
  let artifactCounter = 0;
  return {
    path,
    home,
    async artifacts() {
      const directory = join(path, `artifacts-${++artifactCounter}`);
      await mkdir(directory);
      return directory;
    },
    async recordBrowser(browser) {
      const described = await describeBrowser(browser);
      if (!described) return;
      record.browsers.push(described);
      const snapshot = JSON.stringify(record);
      writes = writes.then(() => writeFileAtomically(join(path, ownerFileName), snapshot)).catch(() => undefined);
      await writes;
    },
    async remove() {
      await writes;
      await rm(path, { recursive: true, force: true });
    },
  };
}

/**
 * Removes the run directories under `root` whose owner process is gone,
 * with the temporary Chromium profiles their owner files name. Touches
 * nothing else: a directory without a valid owner file, one whose owner (or
 * one of whose browsers) still runs, and a named profile outside the shape
 * Playwright gives its temporary profiles are left alone.
 *
 * @returns the paths removed.
 */
export async function removeLeftovers(root: string): Promise<string[]> {
  const removed: string[] = [];
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(runPrefix)) continue;
    const directory = join(root, entry.name);
    let owner: unknown;
    try {
      owner = JSON.parse(await readFile(join(directory, ownerFileName), "utf8"));
    } catch {
      continue;
    }
    if (!isOwnerRecord(owner) || recordedProcessRuns(owner.pid, owner.processStart)) continue;
    if (owner.browsers.some((browser) => Number.isInteger(browser.pid) && recordedProcessRuns(browser.pid, browser.processStart))) continue;
    for (const { profileDir } of owner.browsers) {
      if (typeof profileDir !== "string" || !isAbsolute(profileDir) || !playwrightProfilePattern.test(basename(profileDir))) continue;
      await rm(profileDir, { recursive: true, force: true });
      removed.push(profileDir);
    }
    await rm(directory, { recursive: true, force: true });
    removed.push(directory);
  }
  return removed;
}
