import * as v from "valibot";
import type { Checkpoint, ControlGrant, ControlRelease, ControlState, LiveFrame, LiveView, ManagedSessionInfo, ReconcileReport, RecordingFrame, RecordingMeta } from "../protocol/sessions.js";
import type { PerformAction } from "../protocol/perform.js";
import { resolveExecuteOptions, type BrowserBackend, type CloseSessionOptions, type ExecuteOptions } from "../protocol/backend.js";
import { isObservationCommand } from "../protocol/command-ops.js";
import type { BrowserCommand, BrowserCommandInput } from "../protocol/commands.js";
import type { OpenOptions } from "../protocol/open-options.js";
import type { CommandResult } from "../protocol/results.js";
import type { WorkerMethod } from "../protocol/wire.js";
import type { CallContext } from "./call-context.js";
import { resolveClientOptions, type BrowserUseClientOptions } from "./options.js";
import { commandResultProblem, responseSchemas } from "./response-schemas.js";
import { WorkerTransport } from "./transport.js";

/** Per-call options of the client's methods. */
export interface ClientCallOptions {
  /** Cancels the call. A cancelled mutation that may have been sent fails with `OutcomeUnknownError`. */
  signal?: AbortSignal;
}

type Ids = Omit<CallContext, "method" | "stationId">;

/** `data` as the transport hands it to {@link BrowserUseClient.command}, which checks it per op. */
const AnyDataSchema = v.unknown();

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
    const context = this.#context("open", { openTag });
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
    const body = { method: "execute", id: sessionId, command, controlToken };
    return (await this.#command("execute", sessionId, op, body, signal)) as CommandResult<Command["op"]>;
  }

  /** The short form of {@link execute}: `navigate` (URL), `evaluate`, `click` (selector), `type`, `press`, `screenshot`. */
  async perform(sessionId: string, action: PerformAction, value?: string, options?: string | ExecuteOptions): Promise<CommandResult> {
    const { controlToken, signal } = resolveExecuteOptions(options);
    const body = { method: "action", id: sessionId, action, value, controlToken };
    return (await this.#command("action", sessionId, action, body, signal)) as CommandResult;
  }

  /**
   * Closes a session (the worker's `close`). While a human holds its control
   * lease, only their `controlToken` can close it (`ControlLeaseError` otherwise).
   */
  async close(sessionId: string, options: CloseSessionOptions = {}): Promise<void> {
    await this.#onSession("close", sessionId, options.controlToken === undefined ? {} : { controlToken: options.controlToken }, options.signal);
  }

  /** Same as {@link close}: the name the `BrowserBackend` interface uses. */
  async closeSession(sessionId: string, options: CloseSessionOptions = {}): Promise<void> {
    await this.close(sessionId, options);
  }

  /** Open sessions this key may see. */
  async list(call: ClientCallOptions = {}): Promise<ManagedSessionInfo[]> {
    return this.#request("list", {}, {}, call.signal);
  }

  /** Live sessions opened with `openTag`: how an uncertain open is resolved. */
  async reconcile(openTag: string, call: ClientCallOptions = {}): Promise<ManagedSessionInfo[]> {
    return this.#request("reconcile", { openTag }, { openTag }, call.signal);
  }

  /**
   * Operator only (`operator: true`): settles every uncertain open and
   * unconfirmed release of the worker's manager, and reports what it did.
   * Found sessions are released, or handed back with `adopt: true`.
   */
  async reconcileAll(options: { adopt?: boolean } = {}, call: ClientCallOptions = {}): Promise<ReconcileReport> {
    return this.#request("reconcileAll", {}, options.adopt === undefined ? {} : { adopt: options.adopt }, call.signal);
  }

  /** A PNG of the selected page, for a human watching. */
  async liveFrame(sessionId: string, call: ClientCallOptions = {}): Promise<LiveFrame> {
    return this.#onSession("liveFrame", sessionId, {}, call.signal);
  }

  /**
   * A live view link for a human: the worker's page showing the session's
   * frames, where "Take control" takes the control lease, until `expiresAt`
   * (`ttlMs` 10 s–1 h, default 10 min); `providerUrl` is the hosted
   * provider's own live view when there is one. The link carries a signed
   * view token: give it to the human, never to a model.
   *
   * @example
   * ```ts
   * const { url } = await client.createLiveView(id, { ttlMs: 5 * 60_000 });
   * ```
   */
  async createLiveView(sessionId: string, options: ClientCallOptions & { ttlMs?: number } = {}): Promise<LiveView> {
    const { path, ...view } = await this.#onSession("liveView", sessionId, { ttlMs: options.ttlMs }, options.signal);
    return { url: this.#transport.baseUrl + path, ...view };
  }

  // Human control

  /** Grants exclusive human control for 1–120 s. The token is for the human's client only. */
  async acquireControl(sessionId: string, ttlMs?: number, call: ClientCallOptions = {}): Promise<ControlGrant> {
    return this.#onSession("controlAcquire", sessionId, { ttlMs }, call.signal);
  }

  async renewControl(sessionId: string, token: string, ttlMs?: number, call: ClientCallOptions = {}): Promise<ControlGrant> {
    return this.#onSession("controlRenew", sessionId, { token, ttlMs }, call.signal);
  }

  /** Hands the session back to automation; the answer says what challenge detection sees on the page now. */
  async releaseControl(sessionId: string, token: string, call: ClientCallOptions = {}): Promise<ControlRelease> {
    return this.#onSession("controlRelease", sessionId, { token }, call.signal);
  }

  /** Who drives the session: mode and expiry, never the token. */
  async control(sessionId: string, call: ClientCallOptions = {}): Promise<ControlState> {
    return this.#onSession("control", sessionId, {}, call.signal);
  }

  // Checkpoints

  async checkpoint(sessionId: string, call: ClientCallOptions = {}): Promise<Checkpoint> {
    return this.#onSession("checkpoint", sessionId, {}, call.signal);
  }

  async checkpoints(call: ClientCallOptions = {}): Promise<Checkpoint[]> {
    return this.#request("checkpoints", {}, {}, call.signal);
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
    return this.#request("resume", { checkpointId, openTag }, { checkpointId, openTag }, options.signal);
  }

  async deleteCheckpoint(checkpointId: string, call: ClientCallOptions = {}): Promise<void> {
    await this.#request("deleteCheckpoint", { checkpointId }, { checkpointId }, call.signal);
  }

  // Recordings

  async startRecording(sessionId: string, call: ClientCallOptions = {}): Promise<RecordingMeta> {
    return this.#onSession("recordingStart", sessionId, {}, call.signal);
  }

  async stopRecording(recordingId: string, call: ClientCallOptions = {}): Promise<RecordingMeta> {
    return this.#request("recordingStop", { recordingId }, { recordingId }, call.signal);
  }

  async getRecording(recordingId: string, call: ClientCallOptions = {}): Promise<RecordingMeta> {
    return this.#request("recording", { recordingId }, { recordingId }, call.signal);
  }

  async recordings(call: ClientCallOptions = {}): Promise<RecordingMeta[]> {
    return this.#request("recordings", {}, {}, call.signal);
  }

  async recordingFrame(recordingId: string, frameId: string, call: ClientCallOptions = {}): Promise<RecordingFrame> {
    return this.#request("recordingFrame", { recordingId }, { recordingId, frameId }, call.signal);
  }

  async deleteRecording(recordingId: string, call: ClientCallOptions = {}): Promise<void> {
    await this.#request("recordingDelete", { recordingId }, { recordingId }, call.signal);
  }

  #context(method: WorkerMethod, ids: Ids): CallContext {
    return { method, stationId: this.stationId, ...ids };
  }

  /**
   * One command (`execute`, `action`): its result is checked against the
   * protocol's schema for `op`. A result that does not match came with a
   * success answer, so the command ran: for a mutating op that is an unknown
   * outcome (`OutcomeUnknownError`, never "nothing happened"), for an
   * observation a `ProviderError`; either names the op and the bad field.
   */
  async #command(method: "execute" | "action", sessionId: string, op: unknown, body: Record<string, unknown>, signal: AbortSignal | undefined): Promise<unknown> {
    const context = this.#context(method, { sessionId, ...(typeof op === "string" && isObservationCommand({ op }) ? { observation: true } : {}) });
    const data = await this.#transport.call(context, body, AnyDataSchema, signal);
    const problem = commandResultProblem(op, data);
    if (problem !== undefined) throw this.#transport.unreadable(context, 200, problem);
    return data;
  }

  /** One call of `method`: `fields` besides the method in the body, `ids` in every error it may raise. */
  #request<const Method extends keyof typeof responseSchemas>(
    method: Method,
    ids: Ids,
    fields: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<v.InferOutput<(typeof responseSchemas)[Method]>> {
    return this.#transport.call(this.#context(method, ids), { method, ...fields }, responseSchemas[method], signal);
  }

  /** A call about one session: its id as `id` in the body. */
  #onSession<const Method extends keyof typeof responseSchemas>(
    method: Method,
    sessionId: string,
    fields: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<v.InferOutput<(typeof responseSchemas)[Method]>> {
    return this.#request(method, { sessionId }, { id: sessionId, ...fields }, signal);
  }
}
