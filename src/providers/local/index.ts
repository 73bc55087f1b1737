import { mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { ProfileInUseError, ValidationError, NotFoundError } from "../../errors.js";
import { limits } from "../../protocol/limits.js";
import { profileIdPattern, profileIdRule } from "../../protocol/fields.js";
import type { BrowserProvider, CreateSessionRequest, ProviderSession } from "../types.js";
import { findChromium } from "./find-chromium.js";
import { chromiumEnvironment, closedNetworkArgs } from "./launch-settings.js";
import { createRunDirectory, type RunDirectory } from "./run-directory.js";
import type { PlaywrightProvider } from "../cdp.js";
import { createSessionStagingFolders } from "./staging-folder.js";

/** Options of {@link createLocalProvider}. */
export interface LocalProviderOptions {
  /** Chromium to launch; found with {@link findChromium} when left out. */
  executablePath?: string;
  /** Directory holding persistent profiles, one sub-directory per profile id. Needed for `profileId`. */
  profileRootDir?: string;
  /** Run headless (default `true`). */
  headless?: boolean;
  /** Extra Chromium flags, appended to the closed-network-safe defaults. */
  args?: string[];
  /** Environment to pick the allowlisted variables from (default `process.env`). */
  environment?: Record<string, string | undefined>;
  /**
   * Where this provider keeps its temporary files: one run directory (Chromium's
   * private home, downloads and other artifacts, an owner file naming this
   * process). Default `<os tmpdir>/station-browser-use-<uid>` (one per user,
   * as a shared tmpdir would otherwise hand one user's root to another). On start, run
   * directories left there by a crashed process are removed, with the
   * temporary Chromium profiles their owner files name; nothing else is touched.
   */
  tempRootDir?: string;
}

export type { PlaywrightProvider } from "../cdp.js";

/** The local provider: a {@link PlaywrightProvider} that can also be started ahead of its first session. */
export interface LocalProvider extends PlaywrightProvider {
  /**
   * Makes this run's temporary directory now, first removing what crashed
   * runs left under `tempRootDir` (otherwise that happens at the first launch).
   *
   * @throws {ValidationError} when `tempRootDir` is a symlink, not a directory, or another user's.
   */
  start(): Promise<void>;
}

interface LocalSession {
  record: ProviderSession;
  context: BrowserContext;
  /** The shared browser an ephemeral session runs in (persistent profiles own their browser process). */
  shared?: { key: string; browser: SharedBrowser };
}

/** One tenant's shared browser and how many sessions use it. */
interface SharedBrowser {
  launching: Promise<Browser>;
  sessions: number;
}

/** The key of the browser shared by sessions opened without a tenant (the operator, an in-process host). */
const untenanted = "\u0000untenanted";

const defaultViewport = { width: limits.viewport.widthDefault, height: limits.viewport.heightDefault };

/**
 * The embedded default provider: local Chromium. Ephemeral sessions of one
 * tenant share a browser process, each with a fresh context; sessions of
 * different tenants never share one (a tenant's process is closed with its
 * last session). A profile id opens a persistent
 * context under `profileRootDir/<profileId>` (cookies and storage survive).
 * A profile is open at most once per provider.
 *
 * @example
 * ```ts
 * const provider = createLocalProvider({ profileRootDir: "./profiles" });
 * const adapter = new PlaywrightBrowserAdapter({ provider });
 * ```
 */
export function createLocalProvider(options: LocalProviderOptions = {}): LocalProvider {
  const environmentSource = options.environment ?? process.env;
  const sessions = new Map<string, LocalSession>();
  const openProfiles = new Set<string>();
  const browsers = new Map<string, SharedBrowser>();
  let run: Promise<RunDirectory> | undefined;
  let counter = 0;

  const runDirectory = () => {
    if (!run) {
      const starting = createRunDirectory(options.tempRootDir ?? join(tmpdir(), `station-browser-use-${process.getuid?.() ?? "user"}`));
      run = starting;
      starting.catch(() => { if (run === starting) run = undefined; });
    }
    return run;
  };

  /** Launch options, with a fresh artifacts directory (removed by the caller once that browser closes). */
  async function launchOptions() {
    const directory = await runDirectory();
    const artifacts = await directory.artifacts();
    const launch = {
      executablePath: options.executablePath ?? findChromium(environmentSource),
      headless: options.headless ?? true,
      args: [...closedNetworkArgs, ...(options.args ?? [])],
      env: chromiumEnvironment(environmentSource, directory.home),
      // Downloads and other artifacts stay in this run's directory (Playwright's protocol takes
      // `artifactsDir` though its types do not list it), so a crash leaves nothing elsewhere.
      downloadsPath: artifacts,
      artifactsDir: artifacts,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    };
    return { launch, artifacts };
  }

  const staging = createSessionStagingFolders(async () => (await runDirectory()).path);

  const removeDirectory = (directory: string) => () => void rm(directory, { recursive: true, force: true }).catch(() => undefined);

  /** The browser shared by `key`'s ephemeral sessions, launched on first use; counts one more session. */
  function acquireBrowser(key: string): SharedBrowser {
    let shared = browsers.get(key);
    if (!shared) {
      const launching = launchOptions().then(async ({ launch, artifacts }) => {
        const launched = await chromium.launch(launch).catch((error: unknown) => {
          removeDirectory(artifacts)();
          throw error;
        });
        launched.on("disconnected", removeDirectory(artifacts));
        await (await runDirectory()).recordBrowser(launched);
        return launched;
      });
      const entry: SharedBrowser = { launching, sessions: 0 };
      shared = entry;
      browsers.set(key, entry);
      launching.then(
        (launched) => launched.on("disconnected", () => { if (browsers.get(key) === entry) browsers.delete(key); }),
        () => { if (browsers.get(key) === entry) browsers.delete(key); },
      );
    }
    shared.sessions++;
    return shared;
  }

  /**
   * One session fewer on a shared browser. A tenant's last session closes its
   * browser (so processes stay bounded by the tenants in use); the untenanted
   * browser stays up for the next open, until shutdown.
   */
  async function releaseBrowser(key: string, shared: SharedBrowser): Promise<void> {
    if (--shared.sessions > 0 || key === untenanted) return;
    if (browsers.get(key) === shared) browsers.delete(key);
    await shared.launching.then((launched) => launched.close()).catch(() => undefined);
  }

  function profileDirectory(profileId: string): string {
    if (!options.profileRootDir) {
      throw new ValidationError("options.profileId", "this local provider has no profileRootDir, so it cannot open persistent profiles");
    }
    if (!profileIdPattern.test(profileId)) throw new ValidationError("options.profileId", profileIdRule);
    // Ids such as "whatsapp:acme:+4712345678" keep a portable directory name.
    return join(resolve(options.profileRootDir), encodeURIComponent(profileId));
  }

  async function create(request: CreateSessionRequest): Promise<ProviderSession> {
    const viewport = request.viewport ?? defaultViewport;
    const profileId = request.profile?.id;
    const id = `local-${++counter}-${crypto.randomUUID().slice(0, 8)}`;
    const record: ProviderSession = {
      id,
      status: "RUNNING",
      openTag: request.openTag,
      createdAt: new Date().toISOString(),
      ...(profileId ? { profileId } : {}),
    };
    if (profileId === undefined) {
      const key = request.tenant ?? untenanted;
      const shared = acquireBrowser(key);
      try {
        const context = await (await shared.launching).newContext({ viewport, acceptDownloads: true });
        sessions.set(id, { record, context, shared: { key, browser: shared } });
      } catch (error) {
        await releaseBrowser(key, shared);
        throw error;
      }
      return record;
    }
    const directory = profileDirectory(profileId);
    if (openProfiles.has(profileId)) {
      throw new ProfileInUseError(`Profile ${profileId} is already open in this worker; close its session first.`);
    }
    openProfiles.add(profileId);
    try {
      await mkdir(directory, { recursive: true });
      const { launch, artifacts } = await launchOptions();
      const context = await chromium.launchPersistentContext(directory, { ...launch, viewport, acceptDownloads: true }).catch((error: unknown) => {
        removeDirectory(artifacts)();
        throw error;
      });
      context.on("close", removeDirectory(artifacts));
      sessions.set(id, { record, context });
      return record;
    } catch (error) {
      openProfiles.delete(profileId);
      throw error;
    }
  }

  async function release(id: string): Promise<void> {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    try {
      await session.context.close();
    } finally {
      await staging.remove(id).catch(() => undefined);
      if (session.record.profileId) openProfiles.delete(session.record.profileId);
      if (session.shared) await releaseBrowser(session.shared.key, session.shared.browser);
    }
  }

  return {
    name: "local",
    async start() {
      await runDirectory();
    },
    create,
    release,
    files: {
      async stage(sessionId, file) {
        const gone = () => new NotFoundError(`Local session ${sessionId} does not exist (already released?)`);
        if (!sessions.has(sessionId)) throw gone();
        const staged = await staging.stage(sessionId, file);
        // Released meanwhile: its folder was removed before this file landed; remove it again.
        if (!sessions.has(sessionId)) {
          await staging.remove(sessionId);
          throw gone();
        }
        return staged;
      },
    },
    async get(id) {
      return sessions.get(id)?.record;
    },
    async find(openTag) {
      return [...sessions.values()].filter((session) => session.record.openTag === openTag).map((session) => session.record);
    },
    async connect(session) {
      const local = sessions.get(session.id);
      if (!local) throw new NotFoundError(`Local session ${session.id} does not exist (already released?)`);
      return local.context;
    },
    async shutdown() {
      await Promise.allSettled([...sessions.keys()].map((id) => release(id)));
      const shared = [...browsers.values()];
      browsers.clear();
      await Promise.allSettled(shared.map((entry) => entry.launching.then((running) => running.close())));
      const directory = run;
      run = undefined;
      if (directory) await directory.then((made) => made.remove()).catch(() => undefined);
    },
  };
}

export { findChromium } from "./find-chromium.js";
export { closedNetworkArgs, allowedEnvironment, chromiumEnvironment } from "./launch-settings.js";
