import { ActionFailedError, NotFoundError, OutcomeUnknownError, SessionClosedError, ValidationError, isOutcomeUnknownError, isTimeoutError } from "../errors.js";
import type {
  AdapterCapabilities,
  AdapterOpenContext,
  BrowserAdapter,
  BrowserHandle,
  FoundSession,
  ScreencastListener,
  ScreencastWatch,
} from "../protocol/adapter.js";
import { commandOps, isObservationCommand, type BrowserCommand, type BrowserCommandInput, type CommandOp } from "../protocol/commands.js";
import { commandBudgetMs } from "../protocol/budget.js";
import { limits } from "../protocol/limits.js";
import { OpenOptionsSchema, type OpenOptions } from "../protocol/open-options.js";
import { parseWith } from "../protocol/parse.js";
import { parseCommand } from "../protocol/parse-command.js";
import type { CommandResult } from "../protocol/results.js";
import { createLocalProvider, type PlaywrightProvider } from "../providers/local/index.js";
import type { ProviderSession } from "../providers/types.js";
import type { CommandContext, CommandHandler } from "./command-context.js";
import { fileHandlers } from "./commands/files.js";
import { interactionHandlers } from "./commands/interaction.js";
import { navigationHandlers } from "./commands/navigation.js";
import { observationHandlers } from "./commands/observation.js";
import { withDeadline } from "./deadline.js";
import { BrowserLiveness } from "./liveness.js";
import { browserGoneError } from "../protocol/liveness.js";
import { settleFailure } from "./outcome.js";
import { toStationError } from "./playwright-errors.js";
import { SessionScreencast } from "./screencast.js";
import { PrivateNetworkGuard, type HostLookup } from "./private-network-guard.js";
import { EngineSession } from "./session.js";
import { stageFile } from "./stage-file.js";
import type { StageFileInput, StagedFile } from "../protocol/staging.js";

/** Options of {@link PlaywrightBrowserAdapter}. */
export interface PlaywrightBrowserAdapterOptions {
  /** Where browsers run; the local Chromium provider by default. */
  provider?: PlaywrightProvider;
  /** Largest download kept (bytes); at most the protocol limit. */
  downloadMaxBytes?: number;
  /**
   * Extra time past a command's own timeout before the watchdog cuts it off
   * (ms, default 5000). A mutating command cut off is reported as outcome unknown.
   */
  watchdogGraceMs?: number;
  /**
   * Where the engine reads the time for the dialog policy's expiry (default
   * `Date.now`), so a test can move it; command timeouts run on real timers.
   */
  clock?: { now(): number };
  /**
   * Refuse every request and WebSocket to a private, loopback or link-local
   * host, by IP literal, loopback name or resolved address (off by default;
   * see {@link PrivateNetworkGuard} for what it does not cover). `lookup`
   * replaces the system resolver (tests).
   */
  blockPrivateNetworks?: boolean | { lookup?: HostLookup };
  /**
   * Largest file `stageFile` takes (bytes; default `limits.staging.fileBytesDefault`,
   * 100 MiB, at most `limits.staging.fileBytesMax`, 1 GiB).
   */
  stagingMaxBytes?: number;
}

const handlers: { [Op in CommandOp]: CommandHandler<Op> } = {
  ...navigationHandlers,
  ...interactionHandlers,
  ...fileHandlers,
  ...observationHandlers,
};

const notImplemented: CommandOp[] = [];

/** Ops that run script in the selected page's document, so wait on a pending navigation. */
const readsPage = new Set<CommandOp>(["inspect", "accessibility", "screenshot", "text", "content", "evaluate", "challenge"]);

/**
 * The engine: executes the command vocabulary on browsers from a provider
 * with Playwright. Commands are parsed fully before anything runs; failures
 * are typed errors of this package.
 *
 * The adapter does not serialise actions: run one command per session at a
 * time (the session manager enforces this).
 *
 * @example
 * ```ts
 * const adapter = new PlaywrightBrowserAdapter();
 * const handle = await adapter.open();
 * await adapter.execute(handle, { op: "navigate", url: "http://127.0.0.1:8080/" });
 * const { snapshot } = await adapter.execute(handle, { op: "accessibility" });
 * await adapter.shutdown();
 * ```
 */
export class PlaywrightBrowserAdapter implements BrowserAdapter {
  private readonly provider: PlaywrightProvider;
  private readonly sessions = new Map<string, EngineSession>();
  private readonly screencasts = new WeakMap<EngineSession, SessionScreencast>();
  private readonly liveness = new WeakMap<EngineSession, BrowserLiveness>();
  /** Sessions whose browser went away by itself, with why (reported to the gone listeners once). */
  private readonly gone = new WeakMap<EngineSession, string>();
  private readonly goneListeners = new Set<(handleId: string, reason?: string) => void>();
  private readonly downloadMaxBytes: number;
  private readonly watchdogGraceMs: number;
  private readonly now: () => number;
  private readonly privateNetworks: PrivateNetworkGuard | undefined;
  private readonly stagingMaxBytes: number;

  constructor(options: PlaywrightBrowserAdapterOptions = {}) {
    this.provider = options.provider ?? createLocalProvider();
    this.downloadMaxBytes = Math.min(options.downloadMaxBytes ?? limits.downloads.fileBytes, limits.downloads.fileBytes);
    this.watchdogGraceMs = options.watchdogGraceMs ?? 5000;
    const stagingMaxBytes = options.stagingMaxBytes ?? limits.staging.fileBytesDefault;
    if (!Number.isInteger(stagingMaxBytes) || stagingMaxBytes < 1 || stagingMaxBytes > limits.staging.fileBytesMax) {
      throw new ValidationError("options.stagingMaxBytes", `expected an integer from 1 to ${limits.staging.fileBytesMax}`);
    }
    this.stagingMaxBytes = stagingMaxBytes;
    const clock = options.clock;
    this.now = clock ? () => clock.now() : Date.now;
    const block = options.blockPrivateNetworks;
    this.privateNetworks = block ? new PrivateNetworkGuard(typeof block === "object" ? block.lookup : undefined) : undefined;
  }

  /**
   * Opens a browser session. With a profile, waits first until the provider
   * has persisted that profile's last session (`profiles.awaitPersisted`).
   */
  async open(options: OpenOptions = {}, signal?: AbortSignal, context: AdapterOpenContext = {}): Promise<BrowserHandle> {
    const resolved = parseWith(OpenOptionsSchema, options, "options");
    const openTag = resolved.openTag ?? crypto.randomUUID();
    const profile = resolved.profileId ? { id: resolved.profileId } : undefined;
    if (profile && this.provider.profiles) await this.provider.profiles.awaitPersisted(profile, signal);
    const record = await this.provider.create({
      openTag,
      ...(profile ? { profile } : {}),
      ...(resolved.viewport ? { viewport: resolved.viewport } : {}),
      ...(context.tenant === undefined ? {} : { tenant: context.tenant }),
      ...(signal ? { signal } : {}),
    });
    return this.attach(record, openTag, resolved.consoleText ?? false, signal);
  }

  /** Provider sessions created with `openTag`. */
  async find(openTag: string): Promise<FoundSession[]> {
    const sessions = await this.provider.find(openTag);
    return sessions.map((session) => ({
      id: session.id,
      provider: this.provider.name,
      openTag: session.openTag,
      running: session.status === "RUNNING" || session.status === "PENDING",
      ...(session.profileId ? { profileId: session.profileId } : {}),
    }));
  }

  /** Connects to a running provider session found by {@link find}. */
  async adopt(found: FoundSession, options: OpenOptions = {}, signal?: AbortSignal): Promise<BrowserHandle> {
    const resolved = parseWith(OpenOptionsSchema, options, "options");
    const record = await this.provider.get(found.id);
    if (!record || !(record.status === "RUNNING" || record.status === "PENDING")) {
      throw new NotFoundError(`${this.provider.name} session ${found.id} is no longer running`);
    }
    return this.attach(record, found.openTag, resolved.consoleText ?? false, signal);
  }

  /** Connects Playwright to a created session; on failure the session is released. */
  private async attach(record: ProviderSession, openTag: string, consoleText: boolean, signal?: AbortSignal): Promise<BrowserHandle> {
    try {
      const context = await this.provider.connect(record, signal);
      const session = await EngineSession.create(record.id, context, {
        consoleText,
        downloadMaxBytes: this.downloadMaxBytes,
        now: this.now,
        ...(this.privateNetworks ? { privateNetworks: this.privateNetworks } : {}),
        onClose: () => {
          // Closed through close() it is no longer in the map; otherwise the browser went away by itself.
          const session = this.sessions.get(record.id);
          if (session?.context === context) this.reportGone(session, "the browser connection closed");
        },
      });
      this.sessions.set(record.id, session);
      this.liveness.set(session, new BrowserLiveness(context));
    } catch (error) {
      const failure = toStationError(error, "open");
      try {
        await this.provider.release(record.id);
      } catch (releaseError) {
        // The provider may still run (and bill) the session: an uncertain open, for reconcile to find by its tag.
        throw new OutcomeUnknownError(
          `open: ${failure.message}; releasing ${this.provider.name} session ${record.id} then failed, so it may still be running (open tag ${openTag}): ${releaseError instanceof Error ? releaseError.message : String(releaseError)}`,
        );
      }
      throw failure;
    }
    return {
      id: record.id,
      provider: this.provider.name,
      openTag,
      ...(record.profileId ? { profileId: record.profileId } : {}),
      ...(record.liveViewUrl ? { liveViewUrl: record.liveViewUrl } : {}),
    };
  }

  /**
   * Executes one command. The payload is parsed first: a malformed one throws
   * a `ValidationError` naming the field and nothing runs.
   */
  async execute<Command extends BrowserCommand | BrowserCommandInput>(
    handle: BrowserHandle,
    command: Command,
    signal?: AbortSignal,
  ): Promise<CommandResult<Command["op"]>> {
    const parsed = parseCommand(command);
    const session = this.sessions.get(handle.id);
    if (!session) throw new NotFoundError(`Browser session ${handle.id} is not open`);
    session.assertOpen();
    await session.ready();
    if (signal?.aborted) throw new ActionFailedError(`${parsed.op}: cancelled before it started`);
    const budgetMs = commandBudgetMs(parsed);
    const context: CommandContext = {
      session,
      signal,
      deadlineAt: Date.now() + budgetMs,
      textChange: "textChange" in parsed && parsed.textChange === true,
      solverStatus: this.provider.solver && (() => this.provider.solver!.status(handle.id, signal)),
    };
    const handler = handlers[parsed.op] as CommandHandler<CommandOp>;
    const watch = {
      op: parsed.op,
      mutating: !isObservationCommand(parsed),
      budgetMs: budgetMs + this.watchdogGraceMs,
      signal,
    };
    const navigationsBefore = session.navigationCount;
    const run = () => {
      if (!readsPage.has(parsed.op)) return handler(context, parsed as never);
      // A page waiting on a navigation runs no script: say so rather than sit out the whole budget.
      const state = session.selected();
      return state.navigation.guarded(parsed.op, state.id, watch.mutating, () => handler(context, parsed as never));
    };
    // While the command runs, the browser is probed: a connection that died silently ends the session now.
    const liveness = this.liveness.get(session);
    let stopWatching = () => {};
    const lost = new Promise<never>((_resolve, reject) => {
      stopWatching = liveness?.watch((reason) => reject(this.lostError(session, parsed.op, watch.mutating, reason))) ?? stopWatching;
    });
    try {
      return (await withDeadline(Promise.race([run(), lost]), watch)) as CommandResult<Command["op"]>;
    } catch (error) {
      // A command cut off at its deadline may have met a dead connection: ask once, in the background.
      if (liveness && !liveness.busy && (isTimeoutError(error) || isOutcomeUnknownError(error))) void this.probeOnce(session, liveness);
      if (!watch.mutating) throw toStationError(error, parsed.op);
      const failure = settleFailure(parsed, error, { committed: session.navigationCount > navigationsBefore, url: session.selectedUrl() });
      // What the command left loading would keep the page unreadable: stop it, as a person would after a timeout.
      if (!session.closed) await session.stopPendingNavigation();
      throw failure;
    } finally {
      stopWatching();
    }
  }

  /** Ends a session whose browser stopped answering, and says so to the command that was waiting on it. */
  private lostError(session: EngineSession, op: CommandOp, mutating: boolean, reason: string): Error {
    this.reportGone(session, reason);
    return browserGoneError(session.id, op, mutating, reason);
  }

  private async probeOnce(session: EngineSession, liveness: BrowserLiveness): Promise<void> {
    const reason = await liveness.check();
    if (reason !== undefined) this.reportGone(session, reason);
  }

  /** Marks a session whose browser went away by itself closed, and tells the gone listeners once. */
  private reportGone(session: EngineSession, reason: string): void {
    if (this.gone.has(session) || this.sessions.get(session.id) !== session) return;
    this.gone.set(session, reason);
    session.markClosed();
    for (const listener of this.goneListeners) listener(session.id, reason);
  }

  /**
   * Stages a file for the session through the provider's file API (see
   * {@link stageFile}); an `upload` command then sets it into a file input
   * with `files: [{ staged: fileId }]`. Only the bytes or stream handed over
   * are read, never a path; nothing on the page is touched.
   *
   * @example
   * ```ts
   * const { fileId } = await adapter.stageFile(handle, { name: "clip.mp4", mimeType: "video/mp4", stream });
   * await adapter.execute(handle, { op: "upload", selector: "#media", files: [{ staged: fileId }] });
   * ```
   * @throws {NotImplementedError} when the provider has no file API; {@link ValidationError} for a bad or oversize file.
   */
  async stageFile(handle: BrowserHandle, file: StageFileInput, signal?: AbortSignal): Promise<StagedFile> {
    const session = this.sessions.get(handle.id);
    if (!session) throw new NotFoundError(`Browser session ${handle.id} is not open`);
    try {
      return await stageFile(session, this.provider, file, this.stagingMaxBytes, signal);
    } catch (error) {
      throw toStationError(error, "stageFile");
    }
  }

  /**
   * Watches the session's selected page as a CDP screencast (JPEG frames,
   * at most 1280×800), following the selection; shared by up to
   * `liveViewServing.viewersPerSession` viewers.
   *
   * @throws {NotFoundError} when the session is not open; {@link CapacityError} past the viewer limit.
   */
  async screencast(handle: BrowserHandle, listener: ScreencastListener): Promise<ScreencastWatch> {
    const session = this.sessions.get(handle.id);
    if (!session) throw new NotFoundError(`Browser session ${handle.id} is not open`);
    let screencast = this.screencasts.get(session);
    if (!screencast) this.screencasts.set(session, (screencast = new SessionScreencast(session)));
    try {
      return await screencast.watch(listener);
    } catch (error) {
      throw toStationError(error, "screencast");
    }
  }

  /** Closes a session and releases its browser. Closing an unknown session is a no-op. */
  async close(handle: BrowserHandle): Promise<void> {
    const session = this.sessions.get(handle.id);
    this.sessions.delete(handle.id);
    if (session) {
      session.markClosed();
      if (session.tracing) clearTimeout(session.tracing.timer);
    }
    await this.provider.release(handle.id);
  }

  /** Closes every session and the provider's browsers. */
  async shutdown(): Promise<void> {
    await Promise.allSettled([...this.sessions.values()].map((session) => this.close({ id: session.id, provider: this.provider.name, openTag: "" })));
    await this.provider.shutdown();
  }

  /**
   * Tells `listener` the handle id of each session whose browser went away on
   * its own (the connection closed, or it stopped answering the liveness
   * probe, see {@link BrowserLiveness}), and why.
   */
  onSessionGone(listener: (handleId: string, reason?: string) => void): void {
    this.goneListeners.add(listener);
  }

  capabilities(): AdapterCapabilities {
    return {
      provider: this.provider.name,
      ops: commandOps.filter((op) => !notImplemented.includes(op)),
      notImplemented: [...notImplemented],
      persistentProfiles: true,
    };
  }
}
