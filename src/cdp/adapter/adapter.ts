/**
 * `CdpBrowserAdapter`: the engine contract (`BrowserAdapter`) on the neutral
 * CDP client, for every runtime with a standard `WebSocket` (workerd, Deno,
 * Bun, Node ≥ 22; Node 20 passes `ws`). It opens provider sessions by their
 * `cdpUrl` and drives their pages (those the site opens too), with the command vocabulary, results,
 * errors, limits and outcome rule of the Playwright engine. What it does not
 * implement yet is listed by `capabilities()` and refused with
 * `NotImplementedError`.
 */
import {
  ActionFailedError,
  NotFoundError,
  NotImplementedError,
  OutcomeUnknownError,
  ProviderError,
  SessionClosedError,
  ValidationError,
  isOutcomeUnknownError,
  isStationBrowserError,
  isTimeoutError,
  type StationBrowserError,
} from "../../errors.js";
import { withDeadline } from "../../protocol/deadline.js";
import type { AdapterCapabilities, AdapterOpenContext, BrowserAdapter, BrowserHandle, FoundSession } from "../../protocol/adapter.js";
import { commandBudgetMs } from "../../protocol/budget.js";
import { isObservationCommand, type BrowserCommand, type BrowserCommandInput, type CommandOp } from "../../protocol/commands.js";
import { limits } from "../../protocol/limits.js";
import { LivenessProbe, browserGoneError, type LivenessProbeOptions } from "../../protocol/liveness.js";
import { OpenOptionsSchema, type OpenOptions } from "../../protocol/open-options.js";
import { navigationOps, unknownOutcomeMessage } from "../../protocol/outcome-advice.js";
import { parseWith } from "../../protocol/parse.js";
import { parseCommand } from "../../protocol/parse-command.js";
import type { CommandResult } from "../../protocol/results.js";
import type { StageFileInput, StagedFile } from "../../protocol/staging.js";
import { sanitizeUrl } from "../../protocol/url-policy.js";
import type { BrowserProvider, ProviderSession } from "../../providers/types.js";
import { cdpCallOf, mayHaveRun } from "../call-errors.js";
import { connectCdp, type CdpConnection } from "../connection.js";
import type { CdpWebSocketFactory } from "../websocket.js";
import { accessibilityHandlers } from "./accessibility.js";
import { cdpNotImplementedOps, cdpOpsFor, cdpSupportedOps } from "./capabilities.js";
import type { CdpCommandContext, CdpHandler } from "./context.js";
import { downloadHandlers } from "./download-commands.js";
import { CdpDownloads } from "./downloads.js";
import { dragHandlers } from "./drag-commands.js";
import { inputHandlers } from "./input-commands.js";
import { inspectionHandlers } from "./inspection.js";
import { inputSeenFallbackMs, interactionHandlers } from "./interaction.js";
import { navigationHandlers } from "./navigation.js";
import { observationHandlers } from "./observation.js";
import { pageHandlers } from "./page-commands.js";
import { CdpPages } from "./pages.js";
import { CdpSessionEvents } from "./session-events.js";
import { StagedFiles, stageFile } from "./staging.js";
import { withTextChange } from "./text-change.js";
import { withChallenge } from "./challenge-report.js";
import { uploadHandlers } from "./upload-commands.js";

/** Options of {@link CdpBrowserAdapter}. */
export interface CdpBrowserAdapterOptions {
  /** Where browsers run: a provider whose sessions carry a `cdpUrl` (Browserbase, Steel, `createLocalCdpProvider`). */
  provider: BrowserProvider;
  /** Makes the WebSocket; default the runtime's own. Node 20 has none: pass one over `ws` (`nodeWebSocket`). */
  webSocket?: CdpWebSocketFactory;
  /** Extra time past a command's own timeout before the watchdog cuts it off (ms, default 5000, at least 3000); a mutating command cut off is an unknown outcome. */
  watchdogGraceMs?: number;
  /** Where the engine reads the time the dialog policy expires against (default `Date.now`), so a test can move it. */
  clock?: { now(): number };
  /**
   * The liveness probe: while a command runs, the browser is asked
   * `Browser.getVersion` every `intervalMs` (default 5000); no answer within
   * `timeoutMs` (default 10000) ends the session as gone. `timers` lets a test fire them.
   */
  liveness?: LivenessProbeOptions;
  /**
   * Largest file `stageFile` takes (bytes; default `limits.staging.fileBytesDefault`,
   * at most `limits.staging.fileBytesMax`). There is no disk to spool to: the
   * file is held in memory until the provider's file API has it.
   */
  stagingMaxBytes?: number;
  /** Largest download kept (bytes; default and ceiling `limits.downloads.fileBytes`); a larger one is cancelled and reported `too_large`. */
  downloadMaxBytes?: number;
  /**
   * Longest wait, in the page, for an action's own input events to be handled
   * before its answer goes without them (ms, default 1000). A test sets it far
   * past the commands' budgets to see that an input was seen handled.
   */
  inputSeenFallbackMs?: number;
}

interface CdpEngineSession {
  id: string;
  connection: CdpConnection;
  pages: CdpPages;
  liveness: LivenessProbe;
  staged: StagedFiles;
  downloads: CdpDownloads | undefined;
}

/** Time past a command's own timeout for the answers of its CDP calls (ms); the watchdog's grace is longer. */
const answerMarginMs = 2_000;

const handlers: Partial<{ [Op in CommandOp]: CdpHandler<Op> }> = {
  ...navigationHandlers,
  ...pageHandlers,
  ...interactionHandlers,
  ...inputHandlers,
  ...dragHandlers,
  ...observationHandlers,
  ...accessibilityHandlers,
  ...inspectionHandlers,
  ...uploadHandlers,
  ...downloadHandlers,
};

/** Ops whose target script itself changes the page (a fill's value set, options selected, an element scrolled): losing its answer is an unknown outcome. */
const scriptActs = new Set<CommandOp>(["fill", "select", "scroll"]);

/**
 * The CDP engine. Commands are parsed fully before anything runs; one
 * command per session at a time (the session manager enforces it).
 *
 * @example
 * ```ts
 * const adapter = new CdpBrowserAdapter({ provider: createBrowserbaseRestProvider({ apiKey, projectId, fetch }) });
 * const handle = await adapter.open();
 * await adapter.execute(handle, { op: "navigate", url: "https://example.com/" });
 * await adapter.execute(handle, { op: "click", target: { by: "role", role: "link", name: "More information" } });
 * await adapter.close(handle);
 * ```
 */
export class CdpBrowserAdapter implements BrowserAdapter {
  readonly #provider: BrowserProvider;
  readonly #webSocket: CdpWebSocketFactory | undefined;
  readonly #watchdogGraceMs: number;
  readonly #now: () => number;
  readonly #sessions = new Map<string, CdpEngineSession>();
  readonly #goneListeners = new Set<(handleId: string, reason?: string) => void>();
  readonly #liveness: LivenessProbeOptions;
  readonly #stagingMaxBytes: number;
  readonly #downloadMaxBytes: number;
  readonly #inputSeenFallbackMs: number;

  constructor(options: CdpBrowserAdapterOptions) {
    const stagingMaxBytes = options.stagingMaxBytes ?? limits.staging.fileBytesDefault;
    if (!Number.isInteger(stagingMaxBytes) || stagingMaxBytes < 1 || stagingMaxBytes > limits.staging.fileBytesMax) {
      throw new ValidationError("options.stagingMaxBytes", `expected an integer from 1 to ${limits.staging.fileBytesMax}`);
    }
    this.#stagingMaxBytes = stagingMaxBytes;
    const fallbackMs = options.inputSeenFallbackMs ?? inputSeenFallbackMs;
    if (!Number.isInteger(fallbackMs) || fallbackMs < 1) throw new ValidationError("options.inputSeenFallbackMs", "expected a positive integer (ms)");
    this.#inputSeenFallbackMs = fallbackMs;
    this.#downloadMaxBytes = Math.min(options.downloadMaxBytes ?? limits.downloads.fileBytes, limits.downloads.fileBytes);
    this.#provider = options.provider;
    this.#webSocket = options.webSocket;
    this.#watchdogGraceMs = Math.max(options.watchdogGraceMs ?? 5000, answerMarginMs + 1000);
    const clock = options.clock;
    this.#now = clock ? () => clock.now() : Date.now;
    this.#liveness = options.liveness ?? {};
  }

  /** Creates a provider session and connects to its `cdpUrl`; on failure the session is released. */
  async open(options: OpenOptions = {}, signal?: AbortSignal, context: AdapterOpenContext = {}): Promise<BrowserHandle> {
    const resolved = parseWith(OpenOptionsSchema, options, "options");
    const openTag = resolved.openTag ?? crypto.randomUUID();
    const profile = resolved.profileId ? { id: resolved.profileId } : undefined;
    if (profile && this.#provider.profiles) await this.#provider.profiles.awaitPersisted(profile, signal);
    const record = await this.#provider.create({
      openTag,
      ...(profile ? { profile } : {}),
      ...(resolved.viewport ? { viewport: resolved.viewport } : {}),
      ...(context.tenant === undefined ? {} : { tenant: context.tenant }),
      ...(signal ? { signal } : {}),
    });
    return this.#attach(record, openTag, resolved.viewport, signal, resolved.consoleText ?? false);
  }

  /** Provider sessions created with `openTag`. */
  async find(openTag: string): Promise<FoundSession[]> {
    const sessions = await this.#provider.find(openTag);
    return sessions.map((session) => ({
      id: session.id,
      provider: this.#provider.name,
      openTag: session.openTag,
      running: session.status === "RUNNING" || session.status === "PENDING",
      ...(session.profileId ? { profileId: session.profileId } : {}),
    }));
  }

  /** Connects to a running provider session found by {@link find}. */
  async adopt(found: FoundSession, options: OpenOptions = {}, signal?: AbortSignal): Promise<BrowserHandle> {
    const resolved = parseWith(OpenOptionsSchema, options, "options");
    const record = await this.#provider.get(found.id);
    if (!record || !(record.status === "RUNNING" || record.status === "PENDING")) {
      throw new NotFoundError(`${this.#provider.name} session ${found.id} is no longer running`);
    }
    return this.#attach(record, found.openTag, resolved.viewport, signal, resolved.consoleText ?? false);
  }

  async #attach(record: ProviderSession, openTag: string, viewport: { width: number; height: number } | undefined, signal?: AbortSignal, consoleText = false): Promise<BrowserHandle> {
    let connection: CdpConnection | undefined;
    try {
      if (!record.cdpUrl) throw new ProviderError(`${this.#provider.name} session ${record.id} has no CDP URL to connect to`);
      // The provider's own URL for the connection carries its credential (Steel's key); the record's never does.
      await this.#provider.awaitLaunched?.(record.id, signal);
      const url = this.#provider.cdpConnectUrl?.(record) ?? record.cdpUrl;
      connection = await connectCdp(url, { ...(this.#webSocket ? { webSocket: this.#webSocket } : {}), ...(signal ? { signal } : {}) });
      const size = viewport ?? record.viewport ?? { width: limits.viewport.widthDefault, height: limits.viewport.heightDefault };
      const events = new CdpSessionEvents(this.#now, consoleText);
      const pages = await CdpPages.open(record.id, connection, size, events);
      const owner = (frameId: string) => pages.all.find((page) => page.mainFrameId === frameId || page.targetId === frameId)?.pageId;
      const downloads = this.#provider.downloads ? await CdpDownloads.start(record.id, connection, this.#provider.downloads, this.#downloadMaxBytes, events.diagnostics, owner) : undefined;
      const live = connection;
      const liveness = new LivenessProbe(async () => live.ended?.reason ?? void (await live.browser.send("Browser.getVersion")), this.#liveness);
      const session = { id: record.id, connection, pages, liveness, staged: new StagedFiles(), downloads };
      this.#sessions.set(record.id, session);
      void connection.closed.then((end) => {
        // Closed through close() it is no longer in the map; otherwise the browser went away by itself (or stopped answering).
        if (this.#sessions.get(record.id) === session) for (const listener of this.#goneListeners) listener(record.id, end.reason);
      });
    } catch (error) {
      await connection?.close();
      const failure = asStationError(error, "open");
      try {
        await this.#provider.release(record.id);
      } catch (releaseError) {
        throw new OutcomeUnknownError(
          `open: ${failure.message}; releasing ${this.#provider.name} session ${record.id} then failed, so it may still be running (open tag ${openTag}): ${releaseError instanceof Error ? releaseError.message : String(releaseError)}`,
        );
      }
      throw failure;
    }
    return {
      id: record.id,
      provider: this.#provider.name,
      openTag,
      ...(record.profileId ? { profileId: record.profileId } : {}),
      ...(record.liveViewUrl ? { liveViewUrl: record.liveViewUrl } : {}),
    };
  }

  /**
   * Executes one command. A malformed payload throws a `ValidationError`
   * naming the field; an op the CDP engine does not implement yet, a
   * `NotImplementedError` naming it. Nothing runs in either case.
   */
  async execute<Command extends BrowserCommand | BrowserCommandInput>(handle: BrowserHandle, command: Command, signal?: AbortSignal): Promise<CommandResult<Command["op"]>> {
    const parsed = parseCommand(command);
    const session = this.#sessions.get(handle.id);
    if (!session) throw new NotFoundError(`Browser session ${handle.id} is not open`);
    const handler = handlers[parsed.op] as CdpHandler<CommandOp> | undefined;
    if (!handler) {
      throw new NotImplementedError(`${parsed.op}: not implemented by the CDP engine (CdpBrowserAdapter) yet; it runs ${cdpSupportedOps.join(", ")}`);
    }
    const ended = session.connection.ended;
    if (ended) throw new SessionClosedError(`Browser session ${handle.id} has ended: ${ended.reason}`);
    if (signal?.aborted) throw new ActionFailedError(`${parsed.op}: cancelled before it started`);
    // The last page just closed: its blank replacement is on its way.
    await session.pages.ready();
    const page = session.pages.selected();
    const budgetMs = commandBudgetMs(parsed);
    // The command's own timeout bounds its waits in the page; its CDP calls get a margin past it for their answers.
    const solver = this.#provider.solver;
    const context: CdpCommandContext = {
      page,
      pages: session.pages,
      signal,
      deadlineAt: Date.now() + budgetMs + answerMarginMs,
      reached: false,
      inputSeenFallbackMs: this.#inputSeenFallbackMs,
      staged: session.staged,
      downloads: session.downloads,
      providerName: this.#provider.name,
      ...(solver ? { solverStatus: () => solver.status(handle.id, signal) } : {}),
    };
    const mutating = !isObservationCommand(parsed);
    const navigationsBefore = page.navigations;
    // While the command runs, the browser is probed: a connection gone silent ends the session now.
    let stopWatching = () => {};
    const lost = new Promise<never>((_resolve, reject) => {
      stopWatching = session.liveness.watch((reason) => {
        reject(browserGoneError(session.id, parsed.op, mutating, reason));
        this.#reportGone(session, reason);
      });
    });
    try {
      const run = withChallenge(withTextChange(handler))(context, parsed as never);
      return (await withDeadline(Promise.race([run, lost]), { op: parsed.op, mutating, budgetMs: budgetMs + this.#watchdogGraceMs, signal })) as CommandResult<Command["op"]>;
    } catch (error) {
      const failure = asStationError(error, parsed.op);
      // A command cut off at its deadline may have met a dead connection: ask once, in the background.
      if (!session.liveness.busy && (isTimeoutError(failure) || isOutcomeUnknownError(failure))) void this.#probeOnce(session);
      if (!mutating) throw failure;
      throw settle(parsed, failure, context, context.page.navigations > (context.page === page ? navigationsBefore : 0));
    } finally {
      stopWatching();
    }
  }

  async #probeOnce(session: CdpEngineSession): Promise<void> {
    const reason = await session.liveness.check();
    if (reason !== undefined) this.#reportGone(session, reason);
  }

  /** Ends the connection of a session whose browser stopped answering; its close tells the gone listeners, once. */
  #reportGone(session: CdpEngineSession, reason: string): void {
    if (this.#sessions.get(session.id) !== session || session.connection.ended) return;
    void session.connection.close(reason);
  }

  /**
   * Stages a file for the session through the provider's file API (its
   * bytes, or its stream read into memory up to `stagingMaxBytes`; never a
   * path); an `upload` command then sets it into a file input with
   * `files: [{ staged: fileId }]`.
   *
   * @example
   * ```ts
   * const { fileId } = await adapter.stageFile(handle, { name: "clip.mp4", mimeType: "video/mp4", stream });
   * await adapter.execute(handle, { op: "upload", selector: "#media", files: [{ staged: fileId }] });
   * ```
   * @throws {NotImplementedError} when the provider has no file API; {@link ValidationError} for a bad or oversize file.
   */
  async stageFile(handle: BrowserHandle, file: StageFileInput, signal?: AbortSignal): Promise<StagedFile> {
    const session = this.#sessions.get(handle.id);
    if (!session) throw new NotFoundError(`Browser session ${handle.id} is not open`);
    const assertOpen = () => {
      const ended = session.connection.ended;
      if (ended || this.#sessions.get(handle.id) !== session) throw new SessionClosedError(`Browser session ${handle.id} has ended${ended ? `: ${ended.reason}` : ""}`);
    };
    try {
      return await stageFile(session.staged, this.#provider, session.id, file, this.#stagingMaxBytes, assertOpen, signal);
    } catch (error) {
      throw asStationError(error, "stageFile");
    }
  }

  /** Closes a session: its pages (those the site opened too), its connection, then the provider's session. Closing an unknown session is a no-op. */
  async close(handle: BrowserHandle): Promise<void> {
    const session = this.#sessions.get(handle.id);
    this.#sessions.delete(handle.id);
    if (session) {
      await session.pages.closeAll();
      await session.connection.close();
    }
    await this.#provider.release(handle.id);
  }

  /** Closes every session. */
  async shutdown(): Promise<void> {
    await Promise.allSettled([...this.#sessions.keys()].map((id) => this.close({ id, provider: this.#provider.name, openTag: "" })));
  }

  /** Tells `listener` the handle id of each session whose connection ended on its own (closed, or it stopped answering the liveness probe), and why. */
  onSessionGone(listener: (handleId: string, reason?: string) => void): void {
    this.#goneListeners.add(listener);
  }

  capabilities(): AdapterCapabilities {
    return {
      provider: this.#provider.name,
      ops: cdpOpsFor(this.#provider),
      notImplemented: cdpNotImplementedOps(this.#provider),
      persistentProfiles: this.#provider.profiles !== undefined,
    };
  }
}

function asStationError(error: unknown, op: string): StationBrowserError {
  if (isStationBrowserError(error)) return error;
  return new ActionFailedError(`${op}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/**
 * The outcome rule: `failed` while no input can have reached the page; once
 * it may have (or a navigation committed), unknown. The target script only
 * reads, scrolls and focuses, so losing its answer is a failure — except for
 * the ops whose script acts itself ({@link scriptActs}).
 */
function settle(command: BrowserCommand, failure: StationBrowserError, context: CdpCommandContext, committed: boolean): StationBrowserError {
  const { op } = command;
  const url = sanitizeUrl(context.page.url);
  const navigationCommitted = committed && navigationOps.has(op);
  // A script that acts itself, sent and never answered, may have acted.
  if (!context.reached && scriptActs.has(op) && mayHaveRun(failure)) context.reached = true;
  if (!context.reached && !navigationCommitted) {
    if (isOutcomeUnknownError(failure) && cdpCallOf(failure) !== undefined && !scriptActs.has(op)) {
      return new ActionFailedError(`${op}: ${failure.message}; no input had been sent (its target script only reads, scrolls and focuses)`, { cause: failure });
    }
    return failure;
  }
  if (isOutcomeUnknownError(failure)) return failure;
  return new OutcomeUnknownError(unknownOutcomeMessage(op, failure.message, navigationCommitted, url), { cause: failure });
}
