import type { ControlState } from "../lifecycle/control.js";
import type { ManagedSessionInfo } from "../lifecycle/manager.js";
import type { Checkpoint } from "../lifecycle/stores.js";
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

/**
 * What agent tools need from a browser backend: the in-process
 * `BrowserSessionManager` and the remote `BrowserUseClient` both provide it.
 */
export interface BrowserBackend {
  open(options?: OpenOptions): Promise<ManagedSessionInfo>;
  execute<Command extends BrowserCommand | BrowserCommandInput>(
    sessionId: string,
    command: Command,
    options?: ExecuteOptions,
  ): Promise<CommandResult<Command["op"]>>;
  closeSession(sessionId: string): Promise<void>;
  list(): ManagedSessionInfo[] | Promise<ManagedSessionInfo[]>;
  checkpoint(sessionId: string): Promise<Checkpoint>;
  resumeCheckpoint(checkpointId: string): Promise<ManagedSessionInfo>;
  liveFrame(sessionId: string): Promise<{ mimeType: "image/png"; base64: string; capturedAt: string }>;
  control(sessionId: string): Promise<ControlState>;
  /** Live sessions opened with `openTag`: how an uncertain open is resolved. */
  reconcile(openTag: string): Promise<ManagedSessionInfo[]>;
}

/** `execute`'s third argument as options: a bare string is the control token. */
export function resolveExecuteOptions(options: string | ExecuteOptions | undefined): ExecuteOptions {
  return typeof options === "string" ? { controlToken: options } : (options ?? {});
}
