import {
  ActionFailedError,
  BusyError,
  JournalError,
  CapacityError,
  NotFoundError,
  NotImplementedError,
  OutcomeUnknownError,
  ProfileInUseError,
  ReconcileRequiredError,
  SessionClosedError,
  ValidationError,
  isNotFoundError,
  isOutcomeUnknownError,
  isStationBrowserError,
} from "../errors.js";
import { Pacer } from "../access/pacing/pacer.js";
import { resolvePacingPolicy } from "../access/pacing/policy.js";
import { awaitTurn, throttleSignal, type PacedStart } from "./pacing-gate.js";
import type { BrowserAdapter, BrowserHandle, ScreencastListener, ScreencastWatch } from "../protocol/adapter.js";
import { resolveExecuteOptions, type BrowserBackend, type CloseSessionOptions, type ExecuteOptions, type OpenCallOptions, type ResumeOptions } from "../protocol/backend.js";
import { isObservationCommand, type BrowserCommand, type BrowserCommandInput } from "../protocol/commands.js";
import { limits } from "../protocol/limits.js";
import { OpenOptionsSchema, type OpenOptions, type ResolvedOpenOptions } from "../protocol/open-options.js";
import { parseWith } from "../protocol/parse.js";
import { parseCommand } from "../protocol/parse-command.js";
import { profileId as profileIdSchema } from "../protocol/fields.js";
import type { ChallengeResult, CommandResult, ScreenshotResult } from "../protocol/results.js";
import { CheckpointBook } from "./checkpoints.js";
import { ControlLeases, type ControlGrant, type ControlState } from "./control.js";
import { SessionManagerEmitter, type SessionCloseReason } from "./events.js";
import { Journal } from "./journal.js";
import { boundTeardown, type TeardownAdapter } from "./bounded-teardown.js";
import { emptyReport, OpenLedger, type PendingRelease, type ReconcileReport, type UncertainOpening } from "./ledger.js";
import { describeCommand } from "./mask.js";
import { performCommand, type PerformAction } from "../protocol/perform.js";
import { resolveSessionManagerOptions, type ResolvedSessionManagerOptions, type SessionManagerOptions } from "./options.js";
import { Recorder, type RecordingFrame } from "./recordings.js";
import type { Checkpoint, JournalEntry, RecordingMeta, StoredLedger, StoredPacing } from "./stores.js";
import type { ControlRelease, LiveFrame, ManagedSessionInfo } from "../protocol/sessions.js";
import type { StageFileInput, StagedFile } from "../protocol/staging.js";

export type { ManagedSessionInfo } from "../protocol/sessions.js";

/** What {@link BrowserSessionManager.close} could not settle. */
export interface ManagerCloseReport {
  /** Provider sessions whose release was not confirmed (they may still run and bill). */
  unreleased: PendingRelease[];
  /** Opens whose outcome is still unknown (a session may run under their tag). */
  uncertain: UncertainOpening[];
}

interface ManagedSession {
  id: string;
  handle: BrowserHandle;
  options: ResolvedOpenOptions;
  openedAt: number;
  lastActionAt?: number;
  running?: { op: string; mutating: boolean; controller: AbortController };
  idleTimer: unknown;
  closed: boolean;
  /** Why the browser went away by itself, when it did (the adapter's word). */
  goneReason?: string;
}

/**
 * The one place that decides whether an action may run: admission against
 * `maxSessions`, one action at a time per session (a second gets
 * `BusyError`), idle expiry, human control leases, a durable journal that
 * records each action before it runs, checkpoints and recordings.
 *
 * Runtime-neutral: storage and the clock are passed in (in memory by default).
 * For `stateRootDir`/`recordingRootDir`, use the same class from
 * `station-browser-use/playwright`, which backs them with files.
 *
 * @example
 * ```ts
 * // ownsAdapter: close() shuts the adapter (its Chromium) down too.
 * const browsers = new BrowserSessionManager(new PlaywrightBrowserAdapter(), 2, { ownsAdapter: true });
 * const { id } = await browsers.open();
 * await browsers.perform(id, "navigate", "https://example.com/");
 * const shot = await browsers.perform(id, "screenshot");
 * await browsers.close();
 * ```
 */
export class BrowserSessionManager implements BrowserBackend {
  /** Events: `session-open`, `session-close`, `action-start`, `action-finish`, `pacing-wait`, `pacing-pause`, `control-change`, `recording-stop`. */
  readonly events = new SessionManagerEmitter();
  private readonly options: ResolvedSessionManagerOptions;
  private readonly sessions = new Map<string, ManagedSession>();
  private readonly openProfiles = new Set<string>();
  private readonly journal: Journal;
  private readonly checkpointBook: CheckpointBook;
  private readonly leases: ControlLeases;
  private readonly recorder: Recorder;
  private readonly initialized: Promise<void>;
  private initError: unknown;
  private opening = 0;
  private readonly pendingOpens = new Map<string, Promise<ManagedSessionInfo>>();
  private readonly ledger: OpenLedger;
  /** `find`, `adopt` and a `close` bounded by `limits.teardown.closeMs`, for every teardown path. */
  private readonly teardown: TeardownAdapter;
  private readonly grants: Set<string>;
  private closedManager = false;
  /** Set when `close()` begins: nothing more is admitted. */
  private closing = false;
  private ledgerWrites: Promise<void> = Promise.resolve();
  private ledgerFailure: Error | undefined;
  private readonly pacer: Pacer;
  /** Throttle signals already applied (results, their challenges, errors): noting one again is no new throttle. */
  private readonly notedThrottles = new WeakSet<object>();
  private pacingWrites: Promise<void> = Promise.resolve();
  private pacingQueued: StoredPacing | undefined;

  constructor(
    private readonly adapter: BrowserAdapter,
    private readonly maxSessions: number,
    options: SessionManagerOptions = {},
  ) {
    if (!Number.isInteger(maxSessions) || maxSessions < 1 || maxSessions > limits.manager.maxSessionsMax) {
      throw new ValidationError("maxSessions", `expected an integer from 1 to ${limits.manager.maxSessionsMax}`);
    }
    this.options = resolveSessionManagerOptions(options);
    const { clock } = this.options;
    this.journal = new Journal(this.options.stateStore, this.options.auditLimit, () => clock.now());
    this.teardown = boundTeardown(adapter, clock);
    this.ledger = new OpenLedger(
      () => clock.now(),
      (ledger) => this.persistLedger(ledger),
    );
    this.grants = new Set(this.options.profileGrants);
    this.pacer = new Pacer(
      () => clock.now(),
      this.options.random,
      (pacing) => this.persistPacing(pacing),
    );
    this.checkpointBook = new CheckpointBook(this.options.stateStore);
    this.leases = new ControlLeases(clock, (sessionId, state, reason) =>
      this.events.emit("control-change", { sessionId, mode: state.mode, ...(state.expiresAt ? { expiresAt: state.expiresAt } : {}), reason }),
    );
    this.recorder = new Recorder(
      this.options.recordingStore,
      clock,
      this.options.recordingLimits,
      (sessionId) => this.captureIdle(sessionId),
      (recording) => this.events.emit("recording-stop", { recordingId: recording.id, sessionId: recording.sessionId, reason: recording.stopReason ?? "stopped" }),
    );
    // A browser that goes away by itself (crash, disconnect, reaped) closes its session: the slot,
    // the profile and the provider session are released instead of waiting for the idle timeout.
    this.adapter.onSessionGone?.((handleId, reason) => {
      const session = [...this.sessions.values()].find((candidate) => candidate.handle.id === handleId);
      if (!session || session.closed) return;
      session.goneReason = reason ?? "its browser went away";
      void this.endSession(session.id, "browserGone").catch(() => undefined);
    });
    this.initialized = this.initialize().catch((error: unknown) => {
      this.initError = error;
    });
  }

  /** Resolves once the state root is claimed and read; rejects if it cannot be (another owner, another tenant). */
  async ready(): Promise<void> {
    await this.initialized;
    if (this.initError) throw this.initError;
    if (this.closedManager) throw new SessionClosedError("This session manager is closed");
  }

  private async initialize(): Promise<void> {
    const stored = await this.options.stateStore.open(this.options.tenantId === undefined ? {} : { tenantId: this.options.tenantId });
    this.journal.load(stored.journal);
    // What a previous owner of this root still owed its provider: found again by reconcile().
    this.ledger.load(stored.ledger);
    this.pacer.load(stored.pacing);
    this.checkpointBook.load(stored.checkpoints);
    await this.recorder.load(this.options.recordingTtlMs);
  }

  /**
   * Opens a browser session, within `maxSessions`. Opening again with the
   * `openTag` of a live session (or of an open still in progress) returns that
   * session instead of a second one: an uncertain open can be repeated safely.
   *
   * While an earlier open's outcome is unknown, only an open with that same
   * tag is admitted (it takes the session over if the provider has it);
   * anything else gets `ReconcileRequiredError` until {@link reconcile} runs.
   */
  async open(options: OpenOptions = {}, call: OpenCallOptions = {}): Promise<ManagedSessionInfo> {
    const resolved = parseWith(OpenOptionsSchema, options, "options");
    const tag = resolved.openTag;
    if (tag !== undefined) {
      const pending = this.pendingOpens.get(tag);
      if (pending) return pending;
      const live = this.findByOpenTag(tag)[0];
      if (live) return live;
      const opening = this.openTagged({ ...resolved, openTag: tag }, call).finally(() => this.pendingOpens.delete(tag));
      this.pendingOpens.set(tag, opening);
      return opening;
    }
    return this.openNew({ ...resolved, openTag: crypto.randomUUID() }, call);
  }

  private async openTagged(resolved: ResolvedOpenOptions & { openTag: string }, call: OpenCallOptions): Promise<ManagedSessionInfo> {
    if (this.ledger.isUncertain(resolved.openTag)) {
      await this.ready();
      const report = emptyReport();
      await this.ledger.settleUncertain(this.teardown, resolved.openTag, report, (handle, options) => this.admit(handle, options).id);
      const adopted = report.adopted[0];
      if (adopted) return this.info(this.session(adopted.sessionId));
      // A concurrent settlement of the same tag may have taken the session over.
      const live = this.findByOpenTag(resolved.openTag)[0];
      if (live) return live;
      const unresolved = report.unresolved[0];
      if (unresolved) throw new ReconcileRequiredError(`The earlier open with tag ${resolved.openTag} is still unsettled: ${unresolved.reason}`);
    }
    return this.openNew(resolved, call);
  }

  /**
   * Settles what is owed to the provider. With an `openTag`: settles that
   * uncertain open (taking its session over if the provider has it) and
   * returns the live sessions opened with the tag — how a caller resolves
   * its own uncertain open. Without: settles every uncertain open (found
   * sessions are released, or handed back with `adopt: true`), retries
   * unconfirmed releases, and reports what it did.
   */
  reconcile(openTag: string): Promise<ManagedSessionInfo[]>;
  reconcile(options?: { adopt?: boolean }): Promise<ReconcileReport>;
  async reconcile(which?: string | { adopt?: boolean }): Promise<ManagedSessionInfo[] | ReconcileReport> {
    await this.ready();
    if (typeof which === "string") {
      await this.ledger.settleUncertain(this.teardown, which, emptyReport(), (handle, options) => this.admit(handle, options).id);
      return this.findByOpenTag(which);
    }
    const adopt = which?.adopt === true;
    const report = emptyReport();
    // Only releases owed before this pass are retried: one that fails while an open is settled below is already
    // reported unresolved, and trying it again at once would list its tag as released too.
    const owed = new Set(this.ledger.pendingReleases().map((release) => release.providerSessionId));
    for (const { openTag } of this.ledger.uncertainOpenings()) {
      await this.ledger.settleUncertain(this.teardown, openTag, report, adopt ? (handle, options) => this.admit(handle, options).id : undefined);
    }
    await this.ledger.retryReleases(this.teardown, report, owed);
    return report;
  }

  /** Writes the ledger after the writes before it; a failed write stops admission (what is owed must not be lost). */
  private persistLedger(ledger: StoredLedger): void {
    const store = this.options.stateStore;
    if (!store.writeLedger) return;
    this.ledgerWrites = this.ledgerWrites
      .then(() => store.writeLedger!(ledger))
      .catch((error: unknown) => {
        this.ledgerFailure ??= error instanceof Error ? error : new Error(String(error));
      });
  }

  /**
   * Writes the pacing counters after the writes before them. A failed write
   * does not stop actions (the counters in memory still hold them back); the
   * next write carries the whole state again.
   */
  private persistPacing(pacing: StoredPacing): void {
    const store = this.options.stateStore;
    if (!store.writePacing) return;
    // Writes do not pile up behind a slow disk: a write not started yet takes the latest state.
    const queued = this.pacingQueued !== undefined;
    this.pacingQueued = pacing;
    if (queued) return;
    this.pacingWrites = this.pacingWrites
      .then(() => {
        const latest = this.pacingQueued!;
        this.pacingQueued = undefined;
        return store.writePacing!(latest);
      })
      .catch(() => undefined);
  }

  /** Opens whose outcome is unknown; while any remain, new opens are refused. */
  uncertainOpenings(): UncertainOpening[] {
    return this.ledger.uncertainOpenings();
  }

  /** Provider sessions closed here whose release the provider has not confirmed; `reconcile()` retries them. */
  pendingReleases(): PendingRelease[] {
    return this.ledger.pendingReleases();
  }

  /** Allows a host profile id to be opened (e.g. `whatsapp:acme:+4712345678`). */
  grantProfile(profileId: string): void {
    this.grants.add(parseWith(profileIdSchema, profileId, "profileId"));
  }

  /** Withdraws a grant; a session already open with the profile stays open. */
  revokeProfile(profileId: string): void {
    this.grants.delete(profileId);
  }

  /** The granted profile ids. */
  grantedProfiles(): string[] {
    return [...this.grants];
  }

  /** Live sessions opened with `openTag` (at most one). */
  findByOpenTag(openTag: string): ManagedSessionInfo[] {
    return [...this.sessions.values()].filter((session) => session.handle.openTag === openTag).map((session) => this.info(session));
  }

  private async openNew(resolved: ResolvedOpenOptions & { openTag: string }, call: OpenCallOptions): Promise<ManagedSessionInfo> {
    const { signal } = call;
    await this.ready();
    if (this.closing) throw new SessionClosedError("This session manager is closing");
    this.journal.assertWritable();
    await this.ledgerWrites;
    if (this.ledgerFailure) {
      throw new JournalError(`The ledger of uncertain opens cannot be written (${this.ledgerFailure.message}); no open is admitted until the manager is reopened`, {
        cause: this.ledgerFailure,
      });
    }
    const uncertain = this.ledger.uncertainOpenings();
    if (uncertain.length > 0) {
      throw new ReconcileRequiredError(
        `${uncertain.length} earlier open(s) have an unknown outcome; they must be reconciled (reconcile(openTag) by whoever opened them, or reconcile()) before more are opened`,
      );
    }
    const held = this.ledger.size;
    if (this.sessions.size + this.opening + held >= this.maxSessions) {
      const owed = held === 0 ? "" : ` (${held} held by unconfirmed releases; reconcile() retries them)`;
      throw new CapacityError(`All ${this.maxSessions} browser sessions are in use${owed}; close one first`);
    }
    const profileId = resolved.profileId;
    if (profileId !== undefined) {
      if (!this.grants.has(profileId)) {
        throw new ValidationError("options.profileId", `profile ${profileId} is not granted to this manager; grant it first (grantProfile or the profileGrants option)`);
      }
      if (this.openProfiles.has(profileId) || this.ledger.heldProfiles().includes(profileId)) {
        throw new ProfileInUseError(`Profile ${profileId} is already open in this manager (or its last session is not yet settled); close it first`);
      }
    }
    this.opening++;
    if (profileId !== undefined) this.openProfiles.add(profileId);
    let handle: BrowserHandle;
    try {
      if (signal?.aborted) throw new ActionFailedError("open was cancelled before it started");
      handle = await this.adapter.open(resolved, signal, call.tenant === undefined ? {} : { tenant: call.tenant });
    } catch (error) {
      if (profileId !== undefined) this.openProfiles.delete(profileId);
      if (isOutcomeUnknownError(error)) this.ledger.recordUncertain(resolved, error);
      throw error;
    } finally {
      this.opening--;
    }
    try {
      return this.info(this.admit(handle, resolved));
    } catch (error) {
      // The manager closed while the browser opened: release it, or owe its release.
      await this.teardown.close(handle).catch((closeError: unknown) => {
        if (!isNotFoundError(closeError)) this.ledger.recordPending(handle, undefined, closeError);
      });
      throw error;
    }
  }

  /** Registers an open browser as a managed session. */
  private admit(handle: BrowserHandle, options: ResolvedOpenOptions): ManagedSession {
    if (this.closing) throw new SessionClosedError("This session manager is closing; the session was not admitted");
    const session: ManagedSession = {
      id: `s_${crypto.randomUUID()}`,
      handle,
      options,
      openedAt: this.options.clock.now(),
      idleTimer: undefined,
      closed: false,
    };
    if (options.profileId !== undefined) this.openProfiles.add(options.profileId);
    this.sessions.set(session.id, session);
    this.pacer.openSession(session.id, resolvePacingPolicy(options.pacing, handle.provider), options.profileId);
    this.touch(session);
    this.events.emit("session-open", { sessionId: session.id, provider: handle.provider, ...(handle.profileId ? { profileId: handle.profileId } : {}) });
    return session;
  }

  /**
   * Executes any command of the protocol. While a human holds control,
   * mutating commands need `controlToken`. The start is journaled before the
   * command runs; an outcome that cannot be confirmed is `unknown` and never
   * retried.
   */
  async execute<Command extends BrowserCommand | BrowserCommandInput>(
    sessionId: string,
    command: Command,
    options?: string | ExecuteOptions,
  ): Promise<CommandResult<Command["op"]>> {
    const { controlToken, signal } = resolveExecuteOptions(options);
    const parsed = parseCommand(command);
    await this.ready();
    const session = this.session(sessionId);
    this.journal.assertWritable();
    if (session.running) throw new BusyError(`Session ${sessionId} is busy with ${session.running.op}; actions are not queued`);
    const mutating = !isObservationCommand(parsed);
    const human = this.leases.authorize(sessionId, controlToken, mutating);
    const controller = new AbortController();
    if (signal?.aborted) throw new ActionFailedError(`${parsed.op} was cancelled before it started`);
    signal?.addEventListener("abort", () => controller.abort(), { once: true });
    session.running = { op: parsed.op, mutating, controller };
    let seq: number;
    let paced: PacedStart | undefined;
    try {
      // A human's own input (under the control lease) is not paced.
      paced = human ? undefined : await awaitTurn(this.pacer, this.options.clock, this.events, sessionId, parsed, controller.signal);
      seq = await this.journal.start({ sessionId, op: parsed.op, detail: describeCommand(parsed), ...(human ? { human } : {}) });
    } catch (error) {
      if (session.running?.controller === controller) session.running = undefined;
      if (paced) this.pacer.finished(sessionId, parsed.op);
      throw error;
    }
    const started = this.options.clock.now();
    this.events.emit("action-start", { sessionId, seq, op: parsed.op });
    this.touch(session);
    let outcome: "ok" | "error" | "unknown" = "ok";
    let errorCode: string | undefined;
    try {
      const result = await this.adapter.execute(session.handle, paced?.command ?? parsed, controller.signal);
      this.noteThrottle(sessionId, result);
      const challenge = (result as { challenge?: ChallengeResult } | undefined)?.challenge;
      if (challenge && parsed.op !== "challenge") this.events.emit("challenge", { sessionId, challenge, after: "action" });
      const reported = parsed.op === "diagnostics" ? { ...result, pacing: this.pacer.report(sessionId) } : result;
      return (paced ? { ...reported, pacedMs: paced.pacedMs } : reported) as CommandResult<Command["op"]>;
    } catch (error) {
      this.noteThrottle(sessionId, error);
      const failure = session.closed ? this.closedDuring(session, parsed.op, mutating, error) : error;
      outcome = isOutcomeUnknownError(failure) ? "unknown" : "error";
      errorCode = isStationBrowserError(failure) ? failure.code : "internal";
      throw failure;
    } finally {
      if (session.running?.controller === controller) session.running = undefined;
      if (paced) this.pacer.finished(sessionId, parsed.op);
      session.lastActionAt = this.options.clock.now();
      // Not awaited: the answer does not wait for the finish record (see Journal.finish).
      this.journal.finish(seq, outcome, errorCode);
      this.events.emit("action-finish", {
        sessionId,
        seq,
        op: parsed.op,
        outcome,
        durationMs: this.options.clock.now() - started,
        ...(errorCode ? { errorCode } : {}),
      });
      if (!session.closed) this.touch(session);
    }
  }

  /**
   * Hands the manager a throttle signal from the site for a session: an
   * action result (or a `challenge` result) whose `challenge.state` is
   * `rate_limited`, or a `RateLimitedError` the site caused (this manager's
   * own pacing refusals are ignored). The session's profile bucket then
   * pauses for its policy's `backoffMs` (or the site's `retryAfterMs`, when
   * longer) instead of trying harder: its actions fail with
   * `RateLimitedError` until the pause ends. `execute` applies this to every
   * result and error itself; call it for signals seen elsewhere. Returns the
   * end of the pause (ISO time), or undefined when there was no signal or
   * the session is not paced, or when this signal was noted already (a
   * result `execute` returned, its `challenge`, an error it threw): one
   * throttle pauses once.
   *
   * @example
   * ```ts
   * const seen = await browsers.execute(id, { op: "challenge" });
   * browsers.noteThrottle(id, seen); // already done by execute; shown for a host's own signals
   * ```
   */
  noteThrottle(sessionId: string, outcome: unknown): string | undefined {
    const session = this.sessions.get(sessionId);
    const signal = session ? throttleSignal(this.pacer, outcome) : undefined;
    if (!session || !signal) return undefined;
    const carriers = [outcome as object, (outcome as { challenge?: unknown }).challenge].filter((each): each is object => typeof each === "object" && each !== null);
    if (carriers.some((each) => this.notedThrottles.has(each))) return undefined;
    for (const each of carriers) this.notedThrottles.add(each);
    const until = this.pacer.throttled(sessionId, signal.reason, signal.atLeastMs);
    if (until === undefined) return undefined;
    const at = new Date(until).toISOString();
    this.events.emit("pacing-pause", { sessionId, ...(session.options.profileId ? { profileId: session.options.profileId } : {}), until: at, reason: signal.reason });
    return at;
  }

  /**
   * The short form of {@link execute}: `navigate` (url), `evaluate`
   * (expression), `click` (selector), `type` (text into the focused element),
   * `press` (key), `screenshot`.
   */
  async perform(sessionId: string, action: PerformAction, value?: string, controlToken?: string): Promise<CommandResult> {
    return this.execute(sessionId, performCommand(action, value), controlToken);
  }

  /**
   * Closes a session. While a human holds its control lease, only their
   * token (`controlToken`, or the options' `controlToken`) can close it:
   * otherwise `ControlLeaseError`, and the session stays open. A pending
   * action ends with a clear error and the slot is free at once — unless the
   * provider does not confirm the release: then the error is thrown, and the
   * provider session stays listed in {@link pendingReleases} (holding its
   * slot) until `reconcile()` releases it. A definite not-found from the
   * provider counts as released.
   */
  async closeSession(sessionId: string, options?: string | CloseSessionOptions): Promise<void> {
    const controlToken = typeof options === "string" ? options : options?.controlToken;
    await this.initialized;
    if (!this.sessions.has(sessionId)) throw new NotFoundError(`Browser session ${sessionId} does not exist`);
    this.leases.authorizeClose(sessionId, controlToken);
    await this.endSession(sessionId, "closed");
  }

  /**
   * Closes a session whatever its control lease: the manager's own
   * lifecycle (idle expiry, a browser gone, `close()`, a failed resume).
   */
  private async endSession(sessionId: string, reason: SessionCloseReason): Promise<void> {
    await this.initialized;
    const session = this.sessions.get(sessionId);
    if (!session) throw new NotFoundError(`Browser session ${sessionId} does not exist`);
    session.closed = true;
    this.sessions.delete(sessionId);
    if (session.options.profileId !== undefined) this.openProfiles.delete(session.options.profileId);
    this.options.clock.clearTimeout(session.idleTimer);
    session.running?.controller.abort();
    this.leases.drop(sessionId);
    this.pacer.closeSession(sessionId);
    await this.recorder.stopSession(sessionId);
    try {
      await this.teardown.close(session.handle);
    } catch (error) {
      if (!isNotFoundError(error)) {
        this.ledger.recordPending(session.handle, sessionId, error);
        throw error;
      }
    } finally {
      this.events.emit("session-close", { sessionId, reason });
    }
  }

  /** Open sessions. */
  list(): ManagedSessionInfo[] {
    return [...this.sessions.values()].map((session) => this.info(session));
  }

  /**
   * Closes every session, retries unconfirmed releases once, stops
   * recordings and releases the state root. The adapter stays open (it is
   * the caller's: call its `shutdown()`) unless the manager was made with
   * `ownsAdapter: true`, which shuts it down last. Returns what it could not
   * settle: provider sessions that may still run.
   */
  async close(): Promise<ManagerCloseReport> {
    if (this.closedManager) return { unreleased: this.ledger.pendingReleases(), uncertain: this.ledger.uncertainOpenings() };
    this.closing = true;
    await this.initialized;
    // Opens and settlements in flight finish first (what they bring is released, not admitted).
    await Promise.allSettled([...this.pendingOpens.values()]);
    await this.ledger.idle();
    await Promise.allSettled([...this.sessions.keys()].map((sessionId) => this.endSession(sessionId, "managerClosed")));
    this.closedManager = true;
    if (this.ledger.size > 0) {
      const report = emptyReport();
      for (const { openTag } of this.ledger.uncertainOpenings()) await this.ledger.settleUncertain(this.teardown, openTag, report);
      await this.ledger.retryReleases(this.teardown, report);
    }
    await this.recorder.close().catch(() => undefined);
    await this.journal.flush();
    await this.ledgerWrites;
    await this.pacingWrites;
    // Releasing the root may fail (a read-only disk); a stale owner lock is taken over by the next owner.
    if (!this.initError) await this.options.stateStore.close().catch(() => undefined);
    if (this.options.ownsAdapter) await this.adapter.shutdown?.();
    return { unreleased: this.ledger.pendingReleases(), uncertain: this.ledger.uncertainOpenings() };
  }

  // Human control

  /** Grants exclusive human control for 1–120 s (default 30 s). The token is for the human's client only. */
  async acquireControl(sessionId: string, ttlMs?: number): Promise<ControlGrant> {
    await this.ready();
    this.session(sessionId);
    return this.leases.acquire(sessionId, ttlMs);
  }

  async renewControl(sessionId: string, token: string, ttlMs?: number): Promise<ControlGrant> {
    await this.ready();
    this.session(sessionId);
    return this.leases.renew(sessionId, token, ttlMs);
  }

  /**
   * Re-runs challenge detection (one `challenge` read, while the lease is
   * still held), then hands the session back to automation and reports what
   * the read saw, in the answer and as a `challenge` event: the agent should
   * resume only when the page no longer shows a challenge. A page that cannot
   * be read leaves `challenge` out.
   */
  async releaseControl(sessionId: string, token: string): Promise<ControlRelease> {
    await this.ready();
    this.session(sessionId);
    this.leases.check(sessionId, token);
    // Read while the human still holds the page (observing needs no token), so that once
    // automation sees the lease released no read of ours is in the session's way.
    const challenge = await this.execute(sessionId, { op: "challenge" }).catch(() => undefined);
    this.leases.release(sessionId, token);
    if (challenge) this.events.emit("challenge", { sessionId, challenge, after: "control-release" });
    return { mode: "automation", ...(challenge ? { challenge } : {}) };
  }

  /** Who drives the session: mode and expiry, never the token. */
  async control(sessionId: string): Promise<ControlState> {
    await this.ready();
    this.session(sessionId);
    return this.leases.state(sessionId);
  }

  // Checkpoints

  /** Saves what is needed to reopen the session: backend, options, pages (sanitised URLs), selected page. */
  async checkpoint(sessionId: string): Promise<Checkpoint> {
    await this.ready();
    const session = this.session(sessionId);
    const pages = await this.adapter.execute(session.handle, { op: "pages" });
    return this.checkpointBook.add({
      sessionId,
      backend: session.handle.provider,
      options: session.options,
      pages,
      now: this.options.clock.now(),
    });
  }

  /**
   * Opens a new session from a checkpoint and navigates its pages. Never
   * automatic. With an `openTag`, a resume whose answer was lost is found
   * with `reconcile(openTag)`, and repeating it returns that session.
   */
  async resumeCheckpoint(checkpointId: string, options: ResumeOptions = {}): Promise<ManagedSessionInfo> {
    await this.ready();
    const checkpoint = this.checkpointBook.get(checkpointId);
    if (options.openTag !== undefined) {
      const again = this.findByOpenTag(options.openTag)[0];
      if (again) return again;
    }
    const info = await this.open(
      { ...checkpoint.options, ...(options.openTag === undefined ? {} : { openTag: options.openTag }) },
      { ...(options.signal ? { signal: options.signal } : {}), ...(options.tenant === undefined ? {} : { tenant: options.tenant }) },
    );
    try {
      for (const [index, page] of checkpoint.pages.entries()) {
        const command: BrowserCommandInput =
          index === 0 ? { op: "navigate", url: page.url } : { op: "newPage", ...(page.url === "about:blank" ? {} : { url: page.url }) };
        if (index === 0 && page.url === "about:blank") continue;
        await this.execute(info.id, command);
      }
      const pages = await this.adapter.execute(this.session(info.id).handle, { op: "pages" });
      const selected = pages.pages[checkpoint.selectedIndex];
      if (selected && selected.pageId !== pages.selectedPageId) await this.execute(info.id, { op: "selectPage", pageId: selected.pageId });
    } catch (error) {
      await this.endSession(info.id, "closed").catch(() => undefined);
      throw error;
    }
    return this.info(this.session(info.id));
  }

  async deleteCheckpoint(checkpointId: string): Promise<void> {
    await this.ready();
    await this.checkpointBook.delete(checkpointId);
  }

  async checkpoints(): Promise<Checkpoint[]> {
    await this.ready();
    return this.checkpointBook.list();
  }

  // Recordings and live frames

  async startRecording(sessionId: string): Promise<RecordingMeta> {
    await this.ready();
    this.session(sessionId);
    return this.recorder.start(sessionId);
  }

  async stopRecording(recordingId: string): Promise<RecordingMeta> {
    await this.ready();
    return this.recorder.stop(recordingId);
  }

  async getRecording(recordingId: string): Promise<RecordingMeta> {
    await this.ready();
    return this.recorder.describe(recordingId);
  }

  async recordingFrame(recordingId: string, frameId: string): Promise<RecordingFrame> {
    await this.ready();
    return this.recorder.frame(recordingId, frameId);
  }

  async deleteRecording(recordingId: string): Promise<void> {
    await this.ready();
    await this.recorder.delete(recordingId);
  }

  async recordings(): Promise<RecordingMeta[]> {
    await this.ready();
    return this.recorder.list();
  }

  /**
   * A PNG of the selected page for a human watching (at most 1280×800, with
   * its size and scale). Viewing does not extend idle time.
   */
  async liveFrame(sessionId: string): Promise<LiveFrame> {
    await this.ready();
    const session = this.session(sessionId);
    const shot = await this.adapter.execute(session.handle, { op: "screenshot" });
    const { base64, width, height, scale } = shot;
    return { mimeType: "image/png", base64, capturedAt: new Date(this.options.clock.now()).toISOString(), width, height, scale };
  }

  /**
   * Watches a session's selected page as a screencast, for a live view;
   * `undefined` when the adapter has none (poll {@link liveFrame} instead).
   * Viewing does not extend idle time; the watch ends when the session closes.
   *
   * @throws {NotFoundError} for an unknown session; `CapacityError` past the viewer limit.
   */
  async watchScreencast(sessionId: string, listener: ScreencastListener): Promise<ScreencastWatch | undefined> {
    await this.ready();
    const session = this.session(sessionId);
    if (!this.adapter.screencast) return undefined;
    return this.adapter.screencast(session.handle, listener);
  }

  /**
   * Stages a file for a session through its provider's file API (the host's
   * bytes or stream, never a path; bounded by the engine's `stagingMaxBytes`),
   * for an `upload` with `files: [{ staged: fileId }]`. It touches no page,
   * so it is not an action and counts as activity.
   *
   * @example
   * ```ts
   * const { fileId } = await manager.stageFile(id, { name: "clip.mp4", mimeType: "video/mp4", stream });
   * await manager.execute(id, { op: "upload", selector: "#media", files: [{ staged: fileId }] });
   * ```
   * @throws {NotFoundError} for an unknown session; {@link NotImplementedError} when the adapter or provider cannot stage files.
   */
  async stageFile(sessionId: string, file: StageFileInput, signal?: AbortSignal): Promise<StagedFile> {
    await this.ready();
    const session = this.session(sessionId);
    if (!this.adapter.stageFile) {
      await (file as { stream?: ReadableStream }).stream?.cancel().catch(() => undefined);
      throw new NotImplementedError(`stageFile: this adapter cannot stage files (session ${sessionId})`);
    }
    this.touch(session);
    const staged = await this.adapter.stageFile(session.handle, file, signal);
    this.touch(session);
    return staged;
  }

  /** The latest journal entries (bounded metadata; typed text masked). */
  async audit(): Promise<JournalEntry[]> {
    await this.ready();
    return this.journal.list();
  }

  private session(sessionId: string): ManagedSession {
    const session = this.sessions.get(sessionId);
    if (!session) throw new NotFoundError(`Browser session ${sessionId} does not exist`);
    return session;
  }

  private info(session: ManagedSession): ManagedSessionInfo {
    return {
      id: session.id,
      provider: session.handle.provider,
      openTag: session.handle.openTag,
      ...(session.handle.profileId ? { profileId: session.handle.profileId } : {}),
      ...(session.handle.liveViewUrl ? { liveViewUrl: session.handle.liveViewUrl } : {}),
      openedAt: new Date(session.openedAt).toISOString(),
      ...(session.lastActionAt === undefined ? {} : { lastActionAt: new Date(session.lastActionAt).toISOString() }),
      ...(session.running ? { busy: session.running.op } : {}),
      control: this.leases.state(session.id),
    };
  }

  /** (Re)starts the idle timer; expiry closes the session unless an action is running. */
  private touch(session: ManagedSession): void {
    const { clock, idleTimeoutMs } = this.options;
    clock.clearTimeout(session.idleTimer);
    session.idleTimer = clock.setTimeout(() => {
      if (session.closed) return;
      if (session.running) return this.touch(session);
      void this.endSession(session.id, "idleTimeout").catch(() => undefined);
    }, idleTimeoutMs);
  }

  /** A frame for a recording, skipped (undefined) while the session is busy. */
  private async captureIdle(sessionId: string): Promise<string | undefined> {
    const session = this.sessions.get(sessionId);
    if (!session || session.running) return undefined;
    const shot: ScreenshotResult = await this.adapter.execute(session.handle, { op: "screenshot" });
    return shot.base64;
  }

  private closedDuring(session: ManagedSession, op: string, mutating: boolean, cause: unknown): Error {
    const why = session.goneReason === undefined ? "" : ` (its browser is gone: ${session.goneReason})`;
    return mutating
      ? new OutcomeUnknownError(`Session ${session.id} was closed${why} while ${op} was running; it may have taken effect`, { cause })
      : new SessionClosedError(`Session ${session.id} was closed${why} while ${op} was running`, { cause });
  }
}
