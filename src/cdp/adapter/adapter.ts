/**
 * `CdpBrowserAdapter`: the engine contract (`BrowserAdapter`) on the neutral
 * CDP client, for every runtime with a standard `WebSocket` (workerd, Deno,
 * Bun, Node ≥ 22; Node 20 passes `ws`). It opens provider sessions by their
 * `cdpUrl` and drives one page each, with the command vocabulary, results,
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
  isOutcomeUnknownError,
  isStationBrowserError,
  type StationBrowserError,
} from "../../errors.js";
import { withDeadline } from "../../protocol/deadline.js";
import type { AdapterCapabilities, AdapterOpenContext, BrowserAdapter, BrowserHandle, FoundSession } from "../../protocol/adapter.js";
import { commandBudgetMs } from "../../protocol/budget.js";
import { isObservationCommand, type BrowserCommand, type BrowserCommandInput, type CommandOp } from "../../protocol/commands.js";
import { limits } from "../../protocol/limits.js";
import { OpenOptionsSchema, type OpenOptions } from "../../protocol/open-options.js";
import { navigationOps, unknownOutcomeMessage } from "../../protocol/outcome-advice.js";
import { parseWith } from "../../protocol/parse.js";
import { parseCommand } from "../../protocol/parse-command.js";
import type { CommandResult } from "../../protocol/results.js";
import { sanitizeUrl } from "../../protocol/url-policy.js";
import type { BrowserProvider, ProviderSession } from "../../providers/types.js";
import { cdpCallOf } from "../call-errors.js";
import { connectCdp, type CdpConnection } from "../connection.js";
import type { CdpWebSocketFactory } from "../websocket.js";
import { accessibilityHandlers } from "./accessibility.js";
import { cdpNotImplementedOps, cdpSupportedOps } from "./capabilities.js";
import type { CdpCommandContext, CdpHandler } from "./context.js";
import { inspectionHandlers } from "./inspection.js";
import { interactionHandlers } from "./interaction.js";
import { navigationHandlers } from "./navigation.js";
import { observationHandlers } from "./observation.js";
import { CdpPage } from "./page.js";

/** Options of {@link CdpBrowserAdapter}. */
export interface CdpBrowserAdapterOptions {
  /** Where browsers run: a provider whose sessions carry a `cdpUrl` (Browserbase, Steel, `createLocalCdpProvider`). */
  provider: BrowserProvider;
  /** Makes the WebSocket; default the runtime's own. Node 20 has none: pass one over `ws` (`nodeWebSocket`). */
  webSocket?: CdpWebSocketFactory;
  /** Extra time past a command's own timeout before the watchdog cuts it off (ms, default 5000, at least 3000); a mutating command cut off is an unknown outcome. */
  watchdogGraceMs?: number;
}

interface CdpEngineSession {
  id: string;
  connection: CdpConnection;
  page: CdpPage;
}

/** Time past a command's own timeout for the answers of its CDP calls (ms); the watchdog's grace is longer. */
const answerMarginMs = 2_000;

const handlers: Partial<{ [Op in CommandOp]: CdpHandler<Op> }> = { ...navigationHandlers, ...interactionHandlers, ...observationHandlers, ...accessibilityHandlers, ...inspectionHandlers };

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
  readonly #sessions = new Map<string, CdpEngineSession>();
  readonly #goneListeners = new Set<(handleId: string) => void>();

  constructor(options: CdpBrowserAdapterOptions) {
    this.#provider = options.provider;
    this.#webSocket = options.webSocket;
    this.#watchdogGraceMs = Math.max(options.watchdogGraceMs ?? 5000, answerMarginMs + 1000);
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
      connection = await connectCdp(record.cdpUrl, { ...(this.#webSocket ? { webSocket: this.#webSocket } : {}), ...(signal ? { signal } : {}) });
      const size = viewport ?? record.viewport ?? { width: limits.viewport.widthDefault, height: limits.viewport.heightDefault };
      const page = await CdpPage.create(connection, size, { consoleText });
      const session = { id: record.id, connection, page };
      this.#sessions.set(record.id, session);
      void connection.closed.then(() => {
        // Closed through close() it is no longer in the map; otherwise the browser went away by itself.
        if (this.#sessions.get(record.id) === session) for (const listener of this.#goneListeners) listener(record.id);
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
    const ended = session.page.session.ended;
    if (ended) throw new SessionClosedError(`Browser session ${handle.id} has ended: ${ended.reason}`);
    if (signal?.aborted) throw new ActionFailedError(`${parsed.op}: cancelled before it started`);
    const budgetMs = commandBudgetMs(parsed);
    // The command's own timeout bounds its waits in the page; its CDP calls get a margin past it for their answers.
    const context: CdpCommandContext = { page: session.page, signal, deadlineAt: Date.now() + budgetMs + answerMarginMs, reached: false };
    const mutating = !isObservationCommand(parsed);
    const navigationsBefore = session.page.navigations;
    try {
      return (await withDeadline(handler(context, parsed as never), { op: parsed.op, mutating, budgetMs: budgetMs + this.#watchdogGraceMs, signal })) as CommandResult<Command["op"]>;
    } catch (error) {
      const failure = asStationError(error, parsed.op);
      if (!mutating) throw failure;
      throw settle(parsed, failure, context, session.page.navigations > navigationsBefore);
    }
  }

  /** Closes a session: its page, its connection, then the provider's session. Closing an unknown session is a no-op. */
  async close(handle: BrowserHandle): Promise<void> {
    const session = this.#sessions.get(handle.id);
    this.#sessions.delete(handle.id);
    if (session) {
      // closeTarget answers before the target is gone; its session's detach says it is (bounded: a dead link never says).
      const pageSessionId = session.page.session.id;
      const gone = session.connection.browser
        .waitForEvent("Target.detachedFromTarget", { predicate: (event) => event.sessionId === pageSessionId, timeoutMs: limits.teardown.disconnectMs })
        .catch(() => undefined);
      const closed = await session.connection.browser.send("Target.closeTarget", { targetId: session.page.targetId }).then(
        () => true,
        () => false,
      );
      if (closed) await gone;
      await session.connection.close();
    }
    await this.#provider.release(handle.id);
  }

  /** Closes every session. */
  async shutdown(): Promise<void> {
    await Promise.allSettled([...this.#sessions.keys()].map((id) => this.close({ id, provider: this.#provider.name, openTag: "" })));
  }

  /** Tells `listener` the handle id of each session whose connection ended on its own. */
  onSessionGone(listener: (handleId: string) => void): void {
    this.#goneListeners.add(listener);
  }

  capabilities(): AdapterCapabilities {
    return {
      provider: this.#provider.name,
      ops: [...cdpSupportedOps],
      notImplemented: cdpNotImplementedOps(),
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
 * a fill, whose script sets the value of a date, colour or range input itself.
 */
function settle(command: BrowserCommand, failure: StationBrowserError, context: CdpCommandContext, committed: boolean): StationBrowserError {
  const { op } = command;
  const url = sanitizeUrl(context.page.url);
  const navigationCommitted = committed && navigationOps.has(op);
  if (!context.reached && !navigationCommitted) {
    if (isOutcomeUnknownError(failure) && cdpCallOf(failure) !== undefined && op !== "fill") {
      return new ActionFailedError(`${op}: ${failure.message}; no input had been sent (its target script only reads, scrolls and focuses)`, { cause: failure });
    }
    return failure;
  }
  if (isOutcomeUnknownError(failure)) return failure;
  return new OutcomeUnknownError(unknownOutcomeMessage(op, failure.message, navigationCommitted, url), { cause: failure });
}
