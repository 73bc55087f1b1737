import { mkdtemp, mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { ProfileInUseError, ValidationError, NotFoundError } from "../../errors.js";
import { limits } from "../../protocol/limits.js";
import { profileIdPattern, profileIdRule } from "../../protocol/fields.js";
import type { BrowserProvider, CreateSessionRequest, ProviderSession } from "../types.js";
import { findChromium } from "./find-chromium.js";
import { chromiumEnvironment, closedNetworkArgs } from "./launch-settings.js";

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
}

/** A provider whose sessions are driven by Playwright in this process. */
export interface PlaywrightProvider extends BrowserProvider {
  /** The Playwright context of a created session. */
  connect(session: ProviderSession, signal?: AbortSignal): Promise<BrowserContext>;
  /** Releases everything the provider holds (browsers, temporary homes). */
  shutdown(): Promise<void>;
}

interface LocalSession {
  record: ProviderSession;
  context: BrowserContext;
  /** Only persistent profiles own their browser process. */
  ownsBrowser: boolean;
}

const defaultViewport = { width: limits.viewport.widthDefault, height: limits.viewport.heightDefault };

/**
 * The embedded default provider: local Chromium. Ephemeral sessions share one
 * browser process, each with a fresh context; a profile id opens a persistent
 * context under `profileRootDir/<profileId>` (cookies and storage survive).
 * A profile is open at most once per provider.
 *
 * @example
 * ```ts
 * const provider = createLocalProvider({ profileRootDir: "./profiles" });
 * const adapter = new PlaywrightBrowserAdapter({ provider });
 * ```
 */
export function createLocalProvider(options: LocalProviderOptions = {}): PlaywrightProvider {
  const environmentSource = options.environment ?? process.env;
  const sessions = new Map<string, LocalSession>();
  const openProfiles = new Set<string>();
  let home: Promise<string> | undefined;
  let sharedBrowser: Promise<Browser> | undefined;
  let counter = 0;

  const privateHome = () => (home ??= mkdtemp(join(tmpdir(), "station-browser-home-")));

  async function launchOptions() {
    return {
      executablePath: options.executablePath ?? findChromium(environmentSource),
      headless: options.headless ?? true,
      args: [...closedNetworkArgs, ...(options.args ?? [])],
      env: chromiumEnvironment(environmentSource, await privateHome()),
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    };
  }

  function browser(): Promise<Browser> {
    if (!sharedBrowser) {
      const launching = launchOptions().then((launch) => chromium.launch(launch));
      sharedBrowser = launching;
      launching.then(
        (launched) => launched.on("disconnected", () => { if (sharedBrowser === launching) sharedBrowser = undefined; }),
        () => { if (sharedBrowser === launching) sharedBrowser = undefined; },
      );
    }
    return sharedBrowser;
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
      const context = await (await browser()).newContext({ viewport, acceptDownloads: true });
      sessions.set(id, { record, context, ownsBrowser: false });
      return record;
    }
    const directory = profileDirectory(profileId);
    if (openProfiles.has(profileId)) {
      throw new ProfileInUseError(`Profile ${profileId} is already open in this worker; close its session first.`);
    }
    openProfiles.add(profileId);
    try {
      await mkdir(directory, { recursive: true });
      const context = await chromium.launchPersistentContext(directory, { ...(await launchOptions()), viewport, acceptDownloads: true });
      sessions.set(id, { record, context, ownsBrowser: true });
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
      if (session.record.profileId) openProfiles.delete(session.record.profileId);
    }
  }

  return {
    name: "local",
    create,
    release,
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
      const launched = sharedBrowser;
      sharedBrowser = undefined;
      if (launched) await launched.then((running) => running.close()).catch(() => undefined);
      const directory = home;
      home = undefined;
      if (directory) await rm(await directory, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}

export { findChromium } from "./find-chromium.js";
export { closedNetworkArgs, allowedEnvironment, chromiumEnvironment } from "./launch-settings.js";
