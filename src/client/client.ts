import type { ControlGrant, ControlState } from "../lifecycle/control.js";
import type { ReconcileReport } from "../lifecycle/ledger.js";
import type { ManagedSessionInfo } from "../lifecycle/manager.js";
import type { PerformAction } from "../lifecycle/perform.js";
import type { RecordingFrame } from "../lifecycle/recordings.js";
import type { Checkpoint, RecordingMeta } from "../lifecycle/stores.js";
import { resolveExecuteOptions, type BrowserBackend, type CloseSessionOptions, type ExecuteOptions } from "../protocol/backend.js";
import { isObservationCommand } from "../protocol/command-ops.js";
import type { BrowserCommand, BrowserCommandInput } from "../protocol/commands.js";
import type { OpenOptions } from "../protocol/open-options.js";
import type { CommandResult } from "../protocol/results.js";
import type { WorkerMethod } from "../protocol/wire.js";
import type { CallContext } from "./call-context.js";
import { resolveClientOptions, type BrowserUseClientOptions } from "./options.js";
import { commandResultSchema, responseSchemas } from "./response-schemas.js";
import { WorkerTransport } from "./transport.js";

/** Per-call options of the client's methods. */
export interface ClientCallOptions {
  /** Cancels the call. A cancelled mutation that may have been sent fails with `OutcomeUnknownError`. */
  signal?: AbortSignal;
}

type Ids = Omit<CallContext, "method" | "stationId">;

/**
 * The remote {@link BrowserBackend}: talks HTTP JSON to a station's browser
 * worker. Runs unchanged on Node, Deno, Bun, Cloudflare Workers and edge
 * runtimes (web standards only).
 *
 * - Tenant route by default; the operator route only with `operator: true`.
 * - Redirects are refused, never followed.
 * - Reads (`list`, `liveFrame`, `control`, `checkpoints`, `getRecording`,
 *   `recordings`, `recordingFrame`, `reconcile`) are retried with backoff on
 *   network errors and 502/503/504; mutations are never retried.
 * - A mutation whose request may have reached the worker without an answer
 *   coming back throws `OutcomeUnknownError`, naming the method, the ids and
 *   what to check (for `open`: `reconcile(openTag)`; every open sends one).
 * - Worker errors come back as the package's error classes (`isBusyError`…).
 * - The API key never appears in an error message.
 *
 * @example
 * ```ts
 * const client = new BrowserUseClient({ baseUrl: "https://browsers.example.com", stationId: "local", apiKey: env.STATION_API_KEY });
 * const { id } = await client.open();
 * await client.execute(id, { op: "navigate", url: "https://example.com/" });
 * const page = await client.execute(id, { op: "inspect" });
 * await client.close(id);
 * ```
 */
export class BrowserUseClient implements BrowserBackend {
  /** The station (worker) this client is bound to. */
  readonly stationId: string;
  // A private field: the key inside stays out of `console.log(client)` and JSON.
  readonly #transport: WorkerTransport;

  /** @throws `ValidationError` naming the bad option, e.g. `options.baseUrl: …`. */
  constructor(options: BrowserUseClientOptions) {
    const resolved = resolveClientOptions(options);
    this.stationId = resolved.stationId;
    this.#transport = new WorkerTransport(resolved);
  }

  /**
   * Opens a session. Always sends an `openTag` (a random UUID when none is
   * given), so an open whose answer is lost can be found with `reconcile`.
   */
  async open(options: OpenOptions = {}, call: ClientCallOptions = {}): Promise<ManagedSessionInfo> {
    const openTag = options.openTag ?? crypto.randomUUID();
    const context = this.context("open", { openTag });
    const info = await this.#transport.call(context, { method: "open", options: { ...options, openTag } }, responseSchemas.open, call.signal);
    if (info.openTag !== openTag) {
      throw this.#transport.unreadable(context, 200, `data.openTag: expected the tag that was sent, got ${JSON.stringify(info.openTag)}`);
    }
    return info;
  }

  /** Runs one command. Mutating commands under a human lease need `controlToken`. */
  async execute<Command extends BrowserCommand | BrowserCommandInput>(
    sessionId: string,
    command: Command,
    options?: string | ExecuteOptions,
  ): Promise<CommandResult<Command["op"]>> {
    const { controlToken, signal } = resolveExecuteOptions(options);
    const op = (command as { op?: unknown } | null)?.op;
    const context = this.context("execute", { sessionId, ...(typeof op === "string" && isObservationCommand({ op }) ? { observation: true } : {}) });
    const body = { method: "execute", id: sessionId, command, controlToken };
    return (await this.#transport.call(context, body, commandResultSchema(op), signal)) as CommandResult<Command["op"]>;
  }

  /** The short form of {@link execute}: `navigate` (URL), `evaluate`, `click` (selector), `type`, `press`, `screenshot`. */
  async perform(sessionId: string, action: PerformAction, value?: string, options?: string | ExecuteOptions): Promise<CommandResult> {
    const { controlToken, signal } = resolveExecuteOptions(options);
    const context = this.context("action", { sessionId });
    const body = { method: "action", id: sessionId, action, value, controlToken };
    return (await this.#transport.call(context, body, commandResultSchema(action), signal)) as CommandResult;
  }

  /**
   * Closes a session (the worker's `close`). While a human holds its control
   * lease, only their `controlToken` can close it (`ControlLeaseError` otherwise).
   */
  async close(sessionId: string, options: CloseSessionOptions = {}): Promise<void> {
    const body = { method: "close", id: sessionId, ...(options.controlToken === undefined ? {} : { controlToken: options.controlToken }) };
    await this.#transport.call(this.context("close", { sessionId }), body, responseSchemas.close, options.signal);
  }

  /** Same as {@link close}: the name the `BrowserBackend` interface uses. */
  async closeSession(sessionId: string, options: CloseSessionOptions = {}): Promise<void> {
    await this.close(sessionId, options);
  }

  /** Open sessions this key may see. */
  async list(call: ClientCallOptions = {}): Promise<ManagedSessionInfo[]> {
    return this.#transport.call(this.context("list", {}), { method: "list" }, responseSchemas.list, call.signal);
  }

  /** Live sessions opened with `openTag`: how an uncertain open is resolved. */
  async reconcile(openTag: string, call: ClientCallOptions = {}): Promise<ManagedSessionInfo[]> {
    return this.#transport.call(this.context("reconcile", { openTag }), { method: "reconcile", openTag }, responseSchemas.reconcile, call.signal);
  }

  /**
   * Operator only (`operator: true`): settles every uncertain open and
   * unconfirmed release of the worker's manager, and reports what it did.
   * Found sessions are released, or handed back with `adopt: true`.
   */
  async reconcileAll(options: { adopt?: boolean } = {}, call: ClientCallOptions = {}): Promise<ReconcileReport> {
    const body = { method: "reconcileAll", ...(options.adopt === undefined ? {} : { adopt: options.adopt }) };
    return this.#transport.call(this.context("reconcileAll", {}), body, responseSchemas.reconcileAll, call.signal);
  }

  /** A PNG of the selected page, for a human watching. */
  async liveFrame(sessionId: string, call: ClientCallOptions = {}): Promise<RecordingFrame> {
    const context = this.context("liveFrame", { sessionId });
    return this.#transport.call(context, { method: "liveFrame", id: sessionId }, responseSchemas.liveFrame, call.signal);
  }

  // Human control

  /** Grants exclusive human control for 1–120 s. The token is for the human's client only. */
  async acquireControl(sessionId: string, ttlMs?: number, call: ClientCallOptions = {}): Promise<ControlGrant> {
    const context = this.context("controlAcquire", { sessionId });
    return this.#transport.call(context, { method: "controlAcquire", id: sessionId, ttlMs }, responseSchemas.controlAcquire, call.signal);
  }

  async renewControl(sessionId: string, token: string, ttlMs?: number, call: ClientCallOptions = {}): Promise<ControlGrant> {
    const context = this.context("controlRenew", { sessionId });
    return this.#transport.call(context, { method: "controlRenew", id: sessionId, token, ttlMs }, responseSchemas.controlRenew, call.signal);
  }

  async releaseControl(sessionId: string, token: string, call: ClientCallOptions = {}): Promise<void> {
    const context = this.context("controlRelease", { sessionId });
    await this.#transport.call(context, { method: "controlRelease", id: sessionId, token }, responseSchemas.controlRelease, call.signal);
  }

  /** Who drives the session: mode and expiry, never the token. */
  async control(sessionId: string, call: ClientCallOptions = {}): Promise<ControlState> {
    return this.#transport.call(this.context("control", { sessionId }), { method: "control", id: sessionId }, responseSchemas.control, call.signal);
  }

  // Checkpoints

  async checkpoint(sessionId: string, call: ClientCallOptions = {}): Promise<Checkpoint> {
    const context = this.context("checkpoint", { sessionId });
    return this.#transport.call(context, { method: "checkpoint", id: sessionId }, responseSchemas.checkpoint, call.signal);
  }

  async checkpoints(call: ClientCallOptions = {}): Promise<Checkpoint[]> {
    return this.#transport.call(this.context("checkpoints", {}), { method: "checkpoints" }, responseSchemas.checkpoints, call.signal);
  }

  /** Opens a new session from a checkpoint. Never automatic. */
  /**
   * Opens a new session from a checkpoint. Every resume sends an `openTag`
   * (`options.openTag`, or one made here), so a resume whose answer is lost
   * (`OutcomeUnknownError`) is found with `reconcile(openTag)`, and repeating
   * it with the same tag returns that session instead of a second one.
   */
  async resumeCheckpoint(checkpointId: string, options: ClientCallOptions & { openTag?: string } = {}): Promise<ManagedSessionInfo> {
    const openTag = options.openTag ?? crypto.randomUUID();
    const context = this.context("resume", { checkpointId, openTag });
    return this.#transport.call(context, { method: "resume", checkpointId, openTag }, responseSchemas.resume, options.signal);
  }

  async deleteCheckpoint(checkpointId: string, call: ClientCallOptions = {}): Promise<void> {
    const context = this.context("deleteCheckpoint", { checkpointId });
    await this.#transport.call(context, { method: "deleteCheckpoint", checkpointId }, responseSchemas.deleteCheckpoint, call.signal);
  }

  // Recordings

  async startRecording(sessionId: string, call: ClientCallOptions = {}): Promise<RecordingMeta> {
    const context = this.context("recordingStart", { sessionId });
    return this.#transport.call(context, { method: "recordingStart", id: sessionId }, responseSchemas.recordingStart, call.signal);
  }

  async stopRecording(recordingId: string, call: ClientCallOptions = {}): Promise<RecordingMeta> {
    const context = this.context("recordingStop", { recordingId });
    return this.#transport.call(context, { method: "recordingStop", recordingId }, responseSchemas.recordingStop, call.signal);
  }

  async getRecording(recordingId: string, call: ClientCallOptions = {}): Promise<RecordingMeta> {
    const context = this.context("recording", { recordingId });
    return this.#transport.call(context, { method: "recording", recordingId }, responseSchemas.recording, call.signal);
  }

  async recordings(call: ClientCallOptions = {}): Promise<RecordingMeta[]> {
    return this.#transport.call(this.context("recordings", {}), { method: "recordings" }, responseSchemas.recordings, call.signal);
  }

  async recordingFrame(recordingId: string, frameId: string, call: ClientCallOptions = {}): Promise<RecordingFrame> {
    const context = this.context("recordingFrame", { recordingId });
    return this.#transport.call(context, { method: "recordingFrame", recordingId, frameId }, responseSchemas.recordingFrame, call.signal);
  }

  async deleteRecording(recordingId: string, call: ClientCallOptions = {}): Promise<void> {
    const context = this.context("recordingDelete", { recordingId });
    await this.#transport.call(context, { method: "recordingDelete", recordingId }, responseSchemas.recordingDelete, call.signal);
  }

  private context(method: WorkerMethod, ids: Ids): CallContext {
    return { method, stationId: this.stationId, ...ids };
  }
}
