import type { BrowserCommand, BrowserCommandInput, CommandOp } from "./commands.js";
import type { OpenOptions } from "./open-options.js";
import type { CommandResult } from "./results.js";
import type { StageFileInput, StagedFile } from "./staging.js";

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

/** One frame of a live screencast (JPEG, at most 1280×800) and the viewport it shows. */
export interface ScreencastFrame {
  mimeType: "image/jpeg";
  base64: string;
  /** Image size in pixels. */
  width: number;
  height: number;
  /** The viewport the image shows, in CSS pixels: a point (x, y) on the image is (x × viewportWidth / width, y × viewportHeight / height) on the page. */
  viewportWidth: number;
  viewportHeight: number;
  /** The page (its id in the session) the frame shows. */
  pageId: string;
}

/** Who watches a screencast: frames as they come, and its end (the session closed). */
export interface ScreencastListener {
  frame(frame: ScreencastFrame): void;
  end(reason: "closed"): void;
}

/** A running watch of a session's screencast; `stop` ends it (idempotent). */
export interface ScreencastWatch {
  stop(): Promise<void>;
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
   * session closed through `close` — and, when known, why (`reason`: the
   * connection closed, the browser stopped answering a liveness probe).
   */
  onSessionGone?(listener: (handleId: string, reason?: string) => void): void;
  /**
   * Watches the session's selected page as a screencast (it follows the
   * selection to another page); frames stop when the watch stops. Absent
   * where the engine has none: viewers then poll screenshots.
   *
   * @throws {CapacityError} when the session already has its limit of viewers.
   */
  screencast?(handle: BrowserHandle, listener: ScreencastListener): Promise<ScreencastWatch>;
  /**
   * Stages a file (the host's bytes or stream, never a path) through the
   * provider's file API, for an `upload` with `files: [{ staged: fileId }]`.
   * Absent where the engine has none.
   *
   * @throws {NotImplementedError} when the provider has no file API.
   */
  stageFile?(handle: BrowserHandle, file: StageFileInput, signal?: AbortSignal): Promise<StagedFile>;
  /** Closes every session and ends what the adapter started (browsers, connections). */
  shutdown?(): Promise<void>;
}
