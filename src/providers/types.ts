/**
 * The provider contract (DESIGN.md "Providers"). A provider makes, finds and
 * releases browser sessions; the engine drives them. This file is neutral:
 * it names no runtime.
 */
import type { SolverSignal } from "../protocol/results.js";

/** A host-granted profile: the host's own profile id, mapped by the provider to its state. */
export interface ProfileGrant {
  id: string;
}

/** Viewport in CSS pixels. */
export interface Viewport {
  width: number;
  height: number;
}

/** What `create` is asked for. */
export interface CreateSessionRequest {
  /** A client-made tag, stored with the session so an uncertain create can be found again. */
  openTag: string;
  profile?: ProfileGrant;
  viewport?: Viewport;
  /**
   * Who the session is for (a tenant id; absent for the operator or an
   * in-process host). A provider that shares browser processes shares them
   * only within one tenant.
   */
  tenant?: string;
  signal?: AbortSignal;
}

/** A browser session as the provider sees it. */
export interface ProviderSession {
  id: string;
  status: "PENDING" | "RUNNING" | "ENDED" | "ERROR";
  /** CDP endpoint for hosted browsers; absent for the local provider, which hands its context over directly. */
  cdpUrl?: string;
  liveViewUrl?: string;
  profileId?: string;
  openTag: string;
  createdAt: string;
  /**
   * The page viewport the session should have. Set by providers whose browser
   * window does not give its pages that viewport by itself (self-hosted Steel);
   * the CDP connection then sets it on every page.
   */
  viewport?: Viewport;
}

/** A file handed to a provider's file API: the host's bytes, never a host path. */
export interface StagingFile {
  /** The file name, without slashes. */
  name: string;
  mimeType: string;
  /** The bytes (a file-backed `Blob` on Node, so a large file is not held in memory). */
  data: Blob;
}

/**
 * A provider's own file API: puts a file where the session's browser can read
 * it and says where, as a path on the browser's machine (Steel
 * `sessions.files.upload`, Browserbase `sessions.uploads.create`, the local
 * provider's session-scoped staging folder). The engine then sets that path
 * into a file input over CDP; it never clicks or submits anything.
 */
export interface ProviderFiles {
  stage(sessionId: string, file: StagingFile, signal?: AbortSignal): Promise<{ path: string }>;
}

/**
 * Where a session's browser saves the files it downloads, and how their
 * bytes are read back, as paths on the browser's machine (the local
 * providers' download folders; Browserbase's session downloads and Steel's
 * session files, read over their REST APIs). The CDP engine points the browser there
 * (`Browser.setDownloadBehavior`) and follows the downloads by the browser's
 * own events; without it, downloads are refused as not implemented.
 */
export interface ProviderDownloads {
  /**
   * How the browser names the files it saves (`Browser.setDownloadBehavior`'s
   * `behavior`): `allowAndName` (default) by the download's guid,
   * `allow` by the file's own name (Browserbase's documented setting).
   */
  readonly behavior?: "allow" | "allowAndName";
  /** The folder the session's browser saves downloads in (absolute, or as the provider's browser resolves it). */
  folder(sessionId: string): Promise<string>;
  /** Up to `length` bytes from `offset` of a finished download the browser saved at `path`. */
  read(sessionId: string, path: string, offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array>;
  /** Deletes a download's file (idempotent). */
  delete(sessionId: string, path: string): Promise<void>;
  /** False where the provider's API cannot delete a file (Browserbase): `delete` then only lets it go here. Default true. */
  readonly deletes?: boolean;
}

/** The contract every provider implements. */
export interface BrowserProvider {
  readonly name: string;
  create(request: CreateSessionRequest): Promise<ProviderSession>;
  /** The session, or `undefined` when it definitely does not exist. */
  get(id: string): Promise<ProviderSession | undefined>;
  /** Releases a session; `signal`, where a provider takes it, ends a wait before the release is sent. */
  release(id: string, signal?: AbortSignal): Promise<void>;
  /** Sessions created with this open tag (for reconciling an uncertain open). */
  find(openTag: string): Promise<ProviderSession[]>;
  profiles?: { awaitPersisted(profile: ProfileGrant, signal?: AbortSignal): Promise<void> };
  /**
   * The provider's captcha solver state for a session, where its API has one
   * (Steel cloud's captcha status); `undefined` when it saw no captcha. Read
   * by the `challenge` command only, never after every action.
   */
  solver?: { status(id: string, signal?: AbortSignal): Promise<SolverSignal | undefined> };
  /** The provider's file API for staged uploads; without it, staging is refused as not implemented. */
  files?: ProviderFiles;
  /**
   * Resolves once a session's browser can be connected to (self-hosted Steel
   * launches it after its create answered); without it, at once. An engine
   * that connects to `cdpUrl` itself waits on it first.
   */
  awaitLaunched?(id: string, signal?: AbortSignal): Promise<void>;
  /**
   * The URL to connect to a session's browser with, its credential included
   * (Steel appends the API key to the bare `websocketUrl`); without it, the
   * session's `cdpUrl`. It carries the credential: never log or return it.
   */
  cdpConnectUrl?(session: ProviderSession): string | undefined;
  /** Where downloads are saved and read back, for the CDP engine; without it, its download commands are refused as not implemented. */
  downloads?: ProviderDownloads;
}
