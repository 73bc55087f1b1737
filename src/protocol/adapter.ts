import type { BrowserCommand, BrowserCommandInput, CommandOp } from "./commands.js";
import type { OpenOptions } from "./open-options.js";
import type { CommandResult } from "./results.js";

/** An open browser session as the adapter hands it out. */
export interface BrowserHandle {
  /** The provider's session id. */
  readonly id: string;
  /** Name of the provider that runs it (`local`, `browserbase`, `steel`). */
  readonly provider: string;
  readonly openTag: string;
  readonly profileId?: string;
  readonly liveViewUrl?: string;
}

/** What an adapter can do. */
export interface AdapterCapabilities {
  provider: string;
  /** Commands implemented now. */
  ops: CommandOp[];
  /** Commands in the protocol that this adapter refuses as not implemented yet. */
  notImplemented: CommandOp[];
  persistentProfiles: boolean;
}

/** A provider session found by its open tag (reconciling an uncertain open). */
export interface FoundSession {
  /** The provider's session id. */
  id: string;
  provider: string;
  openTag: string;
  /** True while it runs; an ended session needs no release. */
  running: boolean;
  profileId?: string;
}

/** Who an open is for; set by the host (the worker), never by the model or the wire options. */
export interface AdapterOpenContext {
  /** The tenant the session is for; browser processes are never shared across tenants. */
  tenant?: string;
}

/** The engine contract the session manager builds on. */
export interface BrowserAdapter {
  open(options?: OpenOptions, signal?: AbortSignal, context?: AdapterOpenContext): Promise<BrowserHandle>;
  execute<Command extends BrowserCommand | BrowserCommandInput>(
    handle: BrowserHandle,
    command: Command,
    signal?: AbortSignal,
  ): Promise<CommandResult<Command["op"]>>;
  close(handle: BrowserHandle): Promise<void>;
  capabilities(): AdapterCapabilities;
  /** Provider sessions created with `openTag` (for reconciling an uncertain open). */
  find?(openTag: string): Promise<FoundSession[]>;
  /** Takes over a found, running session: connects to it and hands it out as an open session. */
  adopt?(found: FoundSession, options?: OpenOptions, signal?: AbortSignal): Promise<BrowserHandle>;
  /**
   * Calls `listener` with the handle id of a session whose browser went away
   * on its own (crashed, disconnected, reaped by the provider) — never for a
   * session closed through `close`.
   */
  onSessionGone?(listener: (handleId: string) => void): void;
  /** Closes every session and ends what the adapter started (browsers, connections). */
  shutdown?(): Promise<void>;
}
