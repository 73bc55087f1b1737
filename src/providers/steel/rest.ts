/**
 * The REST half of the Steel provider (neutral: web standards and the Steel
 * SDK only). It creates, reads, finds and releases Steel sessions and keeps
 * profile grants; `createSteelProvider` (Node, Deno, Bun) adds the Playwright
 * connection.
 */
import type Steel from "steel-sdk";
import {
  CapacityError,
  OutcomeUnknownError,
  ProfileError,
  ProfileInUseError,
  ProviderError,
  isNotFoundError,
  isOutcomeUnknownError,
  isProviderError,
} from "../../errors.js";
import { redactSecrets } from "../hosted/errors.js";
import type { BrowserProvider, CreateSessionRequest, ProfileGrant, ProviderSession, Viewport } from "../types.js";
import { createSteelApi } from "./api.js";
import { resolveSteelOptions, type SteelRestProviderOptions } from "./options.js";
import { createSteelProfiles } from "./profiles.js";
import { steelSolverStatus } from "./captchas.js";
import { createSteelFiles } from "./files.js";
import { createSteelDownloads } from "./downloads.js";
import { awaitLaunched, createSelfHostedSlot } from "./self-hosted.js";
import { dimensionsOf, isAbsenceAnswer, isUuid, steelSessionId, toProviderSession, withApiKey } from "./sessions.js";

/** The Steel provider's REST half: the provider contract plus the CDP URL to connect with. */
export interface SteelRestProvider extends BrowserProvider {
  readonly name: "steel";
  profiles: { awaitPersisted(profile: ProfileGrant, signal?: AbortSignal): Promise<void> };
  /**
   * Releases a session. On self-hosted Steel it is sent only while that
   * session reads live, after its browser has finished launching (bounded by
   * `launchTimeoutMs`; `signal` ends the wait early); a release not sent
   * throws, so the caller still owes it.
   */
  release(id: string, signal?: AbortSignal): Promise<void>;
  /**
   * Resolves once the session's browser is up. On self-hosted Steel, which
   * reads `live` while it launches, this polls `live-details` (bounded by
   * `launchTimeoutMs`: `TimeoutError`; `signal` ends it); on Steel cloud it
   * resolves at once. The driving half waits on it before connecting.
   */
  awaitLaunched(id: string, signal?: AbortSignal): Promise<void>;
  /**
   * The URL to hand to `connectOverCDP` for a session: its `cdpUrl` with the
   * API key appended. It carries the credential: never log or return it.
   * `undefined` when the session has no CDP URL.
   */
  cdpConnectUrl(session: ProviderSession): string | undefined;
}

/** What this provider knows about a session it created or found. */
interface HeldSession {
  openTag: string;
  /** The host profile id granted to it. */
  profileId: string | undefined;
  /** The page viewport it was created with. */
  viewport: Viewport;
}

/**
 * Creates the REST half of the Steel provider. Use it directly where no
 * Playwright runs (e.g. to reconcile or release from a Worker); drive
 * sessions with `createSteelProvider` from `station-browser-use/playwright`.
 *
 * - `create` sends the open tag (a UUID) as Steel's `sessionId`, so an
 *   uncertain create is answered by `find(openTag)` = `GET /v1/sessions/{tag}`.
 * - 429s wait up to `rateLimitCapMs` for `retry-after`, then `CapacityError`;
 *   nothing else is retried.
 * - A granted profile loads its Steel profile (`profileId` +
 *   `persistProfile: true`) once it reads `READY`; the first session creates it.
 *
 * @example
 * ```ts
 * const steel = createSteelRestProvider({ apiKey: env.STEEL_API_KEY });
 * const [found] = await steel.find(openTag);
 * if (found?.status === "RUNNING") await steel.release(found.id);
 * ```
 */
export function createSteelRestProvider(options: SteelRestProviderOptions): SteelRestProvider {
  const resolved = resolveSteelOptions(options);
  const api = createSteelApi(resolved);
  const { client, secrets } = api;
  const profiles = createSteelProfiles(api, resolved);
  /** Sessions created (or found live) and not released. */
  const held = new Map<string, HeldSession>();
  /** Creates whose outcome is unknown, by session id, until `find` settles them. */
  const uncertain = new Map<string, HeldSession>();
  /** Host profile id → the session using it (or the create in flight). */
  const profilesInUse = new Map<string, string>();
  /** Self-hosted: the server's one browser, claimed by each create and release. */
  const slot = createSelfHostedSlot();
  /** Self-hosted: steel-browser's session viewer (its `sessionViewerUrl` names the server root, a 404 where only the API runs). */
  const selfHostedViewer = `${resolved.baseURL}/v1/sessions/debug`;

  function forget(id: string): void {
    const key = id.toLowerCase();
    for (const map of [held, uncertain]) map.delete(key);
    for (const [profileId, sessionId] of profilesInUse) if (sessionId === key) profilesInUse.delete(profileId);
  }

  function hostProfileOf(id: string, session: Steel.Session): string | undefined {
    const known = held.get(id) ?? uncertain.get(id);
    if (known?.profileId !== undefined) return known.profileId;
    return typeof session.profileId === "string" ? profiles.hostIdOf(session.profileId) : undefined;
  }

  /** `GET /v1/sessions/{id}`; `undefined` when the answer proves absence (404, or steel-browser's made-up "released"). */
  async function read(id: string): Promise<Steel.Session | undefined> {
    const session = await api.callOrAbsent({ operation: `read session ${id}`, mutating: false }, () =>
      client.sessions.retrieve(encodeURIComponent(id)),
    );
    if (session === undefined || isAbsenceAnswer(session, id, resolved.selfHosted)) return undefined;
    return session;
  }

  function describe(id: string, session: Steel.Session): ProviderSession {
    const key = id.toLowerCase();
    const known = held.get(key) ?? uncertain.get(key);
    const record = toSession(session, {
      openTag: known?.openTag ?? session.id,
      profileId: hostProfileOf(key, session),
      viewport: known?.viewport ?? dimensionsOf(session),
    });
    if (record.status !== "RUNNING" && record.status !== "PENDING") forget(key);
    return record;
  }

  function toSession(session: Steel.Session, context: { openTag: string; profileId: string | undefined; viewport: Viewport | undefined }): ProviderSession {
    const record = toProviderSession(session, { openTag: context.openTag, profileId: context.profileId, secrets });
    if (!resolved.selfHosted) return record;
    // steel-browser sizes the window to `dimensions`, so its pages come out shorter (by the window's frame): the
    // CDP connection sets the viewport asked for on each page.
    return { ...record, liveViewUrl: selfHostedViewer, ...(context.viewport === undefined ? {} : { viewport: context.viewport }) };
  }

  /** steel-browser runs one session: a create would replace (end) the live one, so refuse while one is held. */
  async function assertSelfHostedFree(): Promise<void> {
    for (const id of new Set([...held.keys(), ...uncertain.keys()])) {
      const session = await read(id);
      if (session && session.status === "live") {
        throw new CapacityError(`steel: self-hosted Steel runs one session at a time and session ${id} is live; close it first`);
      }
      forget(id);
    }
  }

  async function create(request: CreateSessionRequest): Promise<ProviderSession> {
    const sessionId = steelSessionId(request.openTag);
    if (!resolved.selfHosted) return createSession(request, sessionId);
    if (request.profile !== undefined) {
      throw new ProfileError(`steel: profile ${request.profile.id} cannot be opened: self-hosted Steel has no profiles API (Steel cloud only)`);
    }
    // Claimed before the first await: two opens at once must not both pass the check below.
    const done = slot.claimForCreate(sessionId);
    try {
      await assertSelfHostedFree();
      return await createSession(request, sessionId);
    } finally {
      done();
    }
  }

  async function createSession(request: CreateSessionRequest, sessionId: string): Promise<ProviderSession> {
    const profileId = request.profile?.id;
    if (profileId !== undefined) {
      if (profilesInUse.has(profileId)) {
        throw new ProfileInUseError(`steel: profile ${profileId} is already open in session ${profilesInUse.get(profileId)}; close it first`);
      }
      profilesInUse.set(profileId, sessionId);
    }
    let keepReservation = false;
    try {
      const steelProfileId = request.profile ? await profiles.prepare(request.profile, request.signal) : undefined;
      const viewport = request.viewport ?? resolved.viewport;
      const body: Steel.SessionCreateParams = {
        sessionId,
        timeout: resolved.sessionTimeoutMs,
        dimensions: { width: viewport.width, height: viewport.height },
        ...resolved.sessionSettings,
        ...(profileId !== undefined ? { ...(steelProfileId !== undefined ? { profileId: steelProfileId } : {}), persistProfile: true } : {}),
      };
      const entry: HeldSession = { openTag: request.openTag, profileId, viewport: { width: viewport.width, height: viewport.height } };
      uncertain.set(sessionId, entry);
      let session: Steel.Session;
      try {
        session = await api.call({ operation: `create session ${sessionId}`, mutating: true, signal: request.signal }, () =>
          client.sessions.create(body, request.signal ? { signal: request.signal } : undefined),
        );
      } catch (error) {
        // An unknown outcome stays recorded (and the profile reserved) until find(openTag) settles it.
        if (isOutcomeUnknownError(error)) keepReservation = true;
        else uncertain.delete(sessionId);
        throw error;
      }
      uncertain.delete(sessionId);
      const id = typeof session.id === "string" && session.id !== "" ? session.id : sessionId;
      held.set(id.toLowerCase(), entry);
      if (profileId !== undefined) profilesInUse.set(profileId, id.toLowerCase());
      keepReservation = true;
      if (profileId !== undefined && typeof session.profileId !== "string") {
        await releaseAfter(id, `steel: Steel's answer to the create persisting profile ${profileId} names no profile (nothing would be saved)`);
      }
      if (profileId !== undefined && typeof session.profileId === "string" && session.profileId !== steelProfileId) {
        await rememberOrRelease(profileId, session.profileId, id);
      }
      return toSession({ ...session, id }, { openTag: request.openTag, profileId, viewport: entry.viewport });
    } finally {
      if (!keepReservation && profileId !== undefined && profilesInUse.get(profileId) === sessionId) profilesInUse.delete(profileId);
    }
  }

  /** Stores a new profile mapping; if that fails the session is released (it would persist into a profile nobody can find). */
  async function rememberOrRelease(profileId: string, steelProfileId: string, id: string): Promise<void> {
    try {
      await profiles.remember(profileId, steelProfileId);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await releaseAfter(id, `steel: could not store the Steel profile of ${profileId} (${reason})`);
    }
  }

  /** Releases a session that must not be used, then throws a `ProfileError` saying why (an unknown outcome if the release fails). */
  async function releaseAfter(id: string, problem: string): Promise<never> {
    try {
      await release(id);
    } catch (releaseError) {
      throw new OutcomeUnknownError(
        `${problem}; releasing session ${id} then failed, so it may still be running: ${releaseError instanceof Error ? releaseError.message : String(releaseError)}`,
      );
    }
    throw new ProfileError(`${problem}, so session ${id} was released`);
  }

  async function release(id: string, signal?: AbortSignal): Promise<void> {
    if (!resolved.selfHosted) return sendRelease(id);
    const done = slot.claimForRelease(id);
    try {
      // steel-browser releases whatever session is live, whatever id is sent: only send it while this one is live,
      // and only once its browser is up (it reads live while launching, and a release then crashes the server).
      const current = await read(id);
      if (!current || current.status !== "live") return forget(id);
      await awaitLaunched(api, resolved, id, signal, "it was not released (a release then crashes steel-browser); release it again later");
      return await sendRelease(id);
    } finally {
      done();
    }
  }

  async function sendRelease(id: string): Promise<void> {
    let answer: Steel.SessionReleaseResponse | undefined;
    try {
      answer = await api.call({ operation: `release session ${id}`, mutating: true }, () => client.sessions.release(encodeURIComponent(id)));
    } catch (error) {
      // 404: already gone, which is what release wants.
      if (isNotFoundError(error)) return forget(id);
      // Another 4xx for a session that no longer runs (released meanwhile, reaped): released all the same.
      if (isProviderError(error) && error.status !== undefined && error.status >= 400 && error.status < 500) {
        const current = await read(id).catch(() => "unknown" as const);
        if (current === undefined || (current !== "unknown" && current.status !== "live")) return forget(id);
      }
      throw error;
    }
    if (answer && answer.success === false) {
      throw new ProviderError(`steel: release session ${id} was refused: ${redactSecrets(String(answer.message ?? ""), secrets)}`);
    }
    forget(id);
  }

  async function find(openTag: string): Promise<ProviderSession[]> {
    // Only a UUID tag can have been sent as a Steel session id; read one session, never the list's auto-pager.
    if (!isUuid(openTag)) return [];
    const id = openTag.toLowerCase();
    const session = await read(id);
    const pending = uncertain.get(id);
    if (!session) {
      forget(id);
      return [];
    }
    if (pending) {
      if (pending.profileId !== undefined) {
        profilesInUse.set(pending.profileId, id);
        // The lost answer carried the Steel profile a first session created: record it now.
        if (typeof session.profileId === "string") {
          await profiles.remember(pending.profileId, session.profileId).catch((error: unknown) => {
            throw new ProfileError(
              `steel: found session ${id}, but could not store the Steel profile of ${pending.profileId}; find again to retry: ${
                error instanceof Error ? error.message : String(error)
              }`,
            );
          });
        }
      }
      uncertain.delete(id);
      held.set(id, pending);
    }
    return [describe(id, session)];
  }

  return {
    name: "steel",
    create,
    release,
    find,
    async get(id) {
      const session = await read(id);
      if (!session) {
        forget(id);
        return undefined;
      }
      return describe(id, session);
    },
    profiles: { awaitPersisted: (profile, signal) => profiles.awaitPersisted(profile, signal) },
    files: createSteelFiles(api),
    downloads: createSteelDownloads(api, resolved.filesFolder),
    // Self-hosted steel-browser has no captcha routes.
    ...(resolved.selfHosted ? {} : { solver: { status: (id: string, signal?: AbortSignal) => steelSolverStatus(api, id, signal) } }),
    awaitLaunched: async (id, signal) => (resolved.selfHosted ? awaitLaunched(api, resolved, id, signal) : undefined),
    cdpConnectUrl(session) {
      return session.cdpUrl === undefined ? undefined : withApiKey(session.cdpUrl, resolved.apiKey);
    },
  };
}
