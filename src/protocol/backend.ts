import type { Checkpoint, ControlState, ManagedSessionInfo } from "./sessions.js";
import type { BrowserCommand, BrowserCommandInput } from "./commands.js";
import type { OpenOptions } from "./open-options.js";
import type { CommandResult } from "./results.js";

/** Per-call options of {@link BrowserBackend.execute}. */
export interface ExecuteOptions {
  /** The human control token, when a human acts during a lease. */
  controlToken?: string;
  /** Cancels the call. */
  signal?: AbortSignal;
}

/** Per-call options of {@link BrowserBackend.closeSession}. */
export interface CloseSessionOptions {
  /** The human control token: while a lease is held, only it can close the session. */
  controlToken?: string;
  /** Cancels the call. */
  signal?: AbortSignal;
}

/** Per-call options of {@link BrowserBackend.open}. */
export interface OpenCallOptions {
  /** Cancels the open; a create already sent then has an unknown outcome (reconcile by its tag). */
  signal?: AbortSignal;
  /** The tenant the session is for (set by the worker from the caller); browsers are not shared across tenants. */
  tenant?: string;
}

/** Options of {@link BrowserBackend.resumeCheckpoint}. */
export interface ResumeOptions {
  /**
   * The tag of the new session (made by the caller), so a resume whose answer
   * is lost can be found with `reconcile(openTag)`; repeating the resume with
   * the same tag returns that session instead of a second one.
   */
  openTag?: string;
  signal?: AbortSignal;
  /** As {@link OpenCallOptions.tenant}. */
  tenant?: string;
}

/**
 * What agent tools need from a browser backend: the in-process
 * `BrowserSessionManager` and the remote `BrowserUseClient` both provide it.
 */
export interface BrowserBackend {
  open(options?: OpenOptions, call?: OpenCallOptions): Promise<ManagedSessionInfo>;
  execute<Command extends BrowserCommand | BrowserCommandInput>(
    sessionId: string,
    command: Command,
    options?: ExecuteOptions,
  ): Promise<CommandResult<Command["op"]>>;
  /** Closes a session; refused with `ControlLeaseError` while a human holds its lease, unless `controlToken` is theirs. */
  closeSession(sessionId: string, options?: CloseSessionOptions): Promise<void>;
  list(): ManagedSessionInfo[] | Promise<ManagedSessionInfo[]>;
  checkpoint(sessionId: string): Promise<Checkpoint>;
  resumeCheckpoint(checkpointId: string, options?: ResumeOptions): Promise<ManagedSessionInfo>;
  liveFrame(sessionId: string): Promise<{ mimeType: "image/png"; base64: string; capturedAt: string }>;
  control(sessionId: string): Promise<ControlState>;
  /** Live sessions opened with `openTag`: how an uncertain open is resolved. */
  reconcile(openTag: string): Promise<ManagedSessionInfo[]>;
}

/** `execute`'s third argument as options: a bare string is the control token. */
export function resolveExecuteOptions(options: string | ExecuteOptions | undefined): ExecuteOptions {
  return typeof options === "string" ? { controlToken: options } : (options ?? {});
}
