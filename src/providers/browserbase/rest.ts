/**
 * The REST half of the Browserbase provider: create, read, find and release
 * sessions, and map host profiles to Browserbase contexts. Web standards
 * only (the SDK runs on `fetch`); the driving half is `./index.ts`.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, Browserbase } from "@browserbasehq/sdk";
import {
  ActionFailedError,
  isNotFoundError,
  isOutcomeUnknownError,
  isProviderError,
  isStationBrowserError,
  OutcomeUnknownError,
  ValidationError,
} from "../../errors.js";
import { profileIdPattern, profileIdRule } from "../../protocol/fields.js";
import { readProviderFailure, toProviderError, type ProviderErrorClasses } from "../hosted/errors.js";
import { abortableSleep, retryAfterWait } from "../hosted/rate-limit.js";
import { keyPlaceholder, providerFetch } from "../hosted/fetch.js";
import type { BrowserProvider, CreateSessionRequest, ProfileGrant, ProviderSession } from "../types.js";
import { createContextHolds } from "./context-holds.js";
import { resolveBrowserbaseOptions, type BrowserbaseRestProviderOptions } from "./options.js";
import { assertOpenTag, createSessionBody, openTagQuery, sessionPathId, storedOpenTag, toProviderSession, type WireSession } from "./wire.js";
import { createBrowserbaseUploads } from "./uploads.js";
import { createBrowserbaseDownloads } from "./downloads.js";

/** A Browserbase provider without a driver: REST only, usable on every runtime. */
export interface BrowserbaseRestProvider extends BrowserProvider {
  readonly name: "browserbase";
  profiles: { awaitPersisted(profile: ProfileGrant, signal?: AbortSignal): Promise<void> };
  /**
   * Reads a fresh live view URL (`debuggerFullscreenUrl` of `GET /v1/sessions/{id}/debug`),
   * or `undefined` when the session is gone. The URL lets whoever holds it
   * watch and control the browser: give it to a human, never to a model.
   */
  liveViewUrl(id: string): Promise<string | undefined>;
}

const sdkErrors: ProviderErrorClasses = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

type RequestOptions = { signal?: AbortSignal; timeout?: number };

/**
 * Creates the REST half of the Browserbase provider. The SDK client is built
 * with `maxRetries: 0` and an explicit `fetch`; 429s are waited out up to
 * `rateLimitCapMs` and then reported as `CapacityError`; a `create` is never
 * repeated after it may have been received (its failure is then
 * `OutcomeUnknownError`, and `find(openTag)` finds the session).
 *
 * Most users want {@link createBrowserbaseProvider} (it adds the Playwright
 * driving half); this one suits runtimes without Playwright, e.g. a Worker
 * that only creates and releases sessions.
 *
 * @throws {ValidationError} for malformed options (the key is never echoed).
 * @example
 * ```ts
 * const rest = createBrowserbaseRestProvider({ apiKey: env.BROWSERBASE_API_KEY });
 * const session = await rest.create({ openTag: crypto.randomUUID() });
 * await rest.release(session.id);
 * ```
 */
export function createBrowserbaseRestProvider(options: BrowserbaseRestProviderOptions): BrowserbaseRestProvider {
  const resolved = resolveBrowserbaseOptions(options);
  const secrets = [resolved.apiKey];
  const sleep = resolved.sleep ?? abortableSleep;
  const client = new Browserbase({
    // The key travels in the fetch below, so an SDK debug log never prints it.
    apiKey: keyPlaceholder,
    baseURL: resolved.baseURL,
    fetch: providerFetch({
      fetch: resolved.fetch,
      timeoutMs: resolved.requestTimeoutMs,
      auth: { header: "X-BB-API-Key", key: resolved.apiKey },
    }) as never,
    maxRetries: 0,
    timeout: resolved.requestTimeoutMs,
  });
  /** Browserbase context id → host profile id, for sessions read back. */
  const profileByContext = new Map<string, string>();
  /** Live view URLs read at create, by session id. */
  const liveViews = new Map<string, string>();

  /** Runs one SDK call with the bounded 429 wait; failures become this package's errors. */
  async function call<T>(
    operation: string,
    mutating: boolean,
    run: (requestOptions: RequestOptions) => PromiseLike<T>,
    signal?: AbortSignal,
    rateLimitCapMs = resolved.rateLimitCapMs,
  ): Promise<T> {
    const read = (error: unknown) => readProviderFailure(error, sdkErrors, secrets);
    if (signal?.aborted) throw new ActionFailedError(`browserbase: ${operation}: cancelled before it was sent`);
    try {
      return await retryAfterWait(async () => run(signal ? { signal } : {}), read, {
        capMs: rateLimitCapMs,
        signal,
        sleep,
      });
    } catch (error) {
      if (isStationBrowserError(error)) throw error;
      throw toProviderError(read(error), { provider: "browserbase", operation, mutating, secrets });
    }
  }

  async function get(id: string): Promise<ProviderSession | undefined> {
    const pathId = sessionPathId(id);
    let session: WireSession;
    try {
      session = await call(`read session ${id}`, false, (request) => client.sessions.retrieve(pathId, request));
    } catch (error) {
      if (isNotFoundError(error)) return undefined;
      throw error;
    }
    return readBack(session, undefined);
  }

  async function find(openTag: string): Promise<ProviderSession[]> {
    assertOpenTag(openTag, "openTag");
    const listed: unknown = await call(`find sessions with open tag ${openTag}`, false, (request) =>
      client.sessions.list({ q: openTagQuery(openTag) }, request),
    );
    if (!Array.isArray(listed)) throw new ActionFailedError(`browserbase: find sessions with open tag ${openTag}: the answer is not a list`);
    // The query matches by equality; a session whose stored tag differs is never taken for this open.
    const sessions = (listed as WireSession[])
      .filter((session) => typeof session?.id === "string" && storedOpenTag(session) === openTag)
      .map((session) => readBack(session, openTag));
    holds.found(openTag, sessions);
    return sessions;
  }

  const holds = createContextHolds({
    read: get,
    find,
    sleep,
    settleMs: resolved.persistSettleMs,
    timeoutMs: resolved.persistTimeoutMs,
  });

  function readBack(session: WireSession, openTag: string | undefined): ProviderSession {
    const profileId = holds.profileOf(session.id) ?? (session.contextId === undefined ? undefined : profileByContext.get(session.contextId));
    return toProviderSession(session, {
      openTag: storedOpenTag(session) ?? openTag ?? "",
      profileId,
      liveViewUrl: liveViews.get(session.id),
    });
  }

  /** The context of a host profile, created on first use and kept in the profile store. */
  async function contextFor(profileId: string, signal: AbortSignal | undefined): Promise<string> {
    const stored = await resolved.profileStore.get(profileId);
    if (stored !== undefined) {
      profileByContext.set(stored, profileId);
      return stored;
    }
    // Not a session: an unknown outcome here leaves at most an unused context, so it is a plain ProviderError.
    const context = await call(
      `create a context for profile ${profileId}`,
      false,
      (request) => client.contexts.create(resolved.projectId === undefined ? {} : { projectId: resolved.projectId }, request),
      signal,
    );
    if (typeof context?.id !== "string" || context.id.length === 0) {
      throw new ActionFailedError(`browserbase: create a context for profile ${profileId}: the answer has no context id`);
    }
    await resolved.profileStore.set(profileId, context.id);
    profileByContext.set(context.id, profileId);
    return context.id;
  }

  /** The live view URL; `waitOn429: false` gives up at once on a 429 (the read right after create is optional). */
  async function readLiveView(id: string, waitOn429 = true): Promise<string | undefined> {
    const pathId = sessionPathId(id);
    try {
      const urls = await call(
        `read the live view of session ${id}`,
        false,
        (request) => client.sessions.debug(pathId, request),
        undefined,
        waitOn429 ? resolved.rateLimitCapMs : 0,
      );
      return typeof urls?.debuggerFullscreenUrl === "string" && urls.debuggerFullscreenUrl.length > 0 ? urls.debuggerFullscreenUrl : undefined;
    } catch (error) {
      if (isNotFoundError(error)) return undefined;
      throw error;
    }
  }

  async function create(request: CreateSessionRequest): Promise<ProviderSession> {
    assertOpenTag(request.openTag, "request.openTag");
    const profileId = request.profile?.id;
    if (profileId !== undefined && (typeof profileId !== "string" || !profileIdPattern.test(profileId))) {
      throw new ValidationError("request.profile.id", profileIdRule);
    }
    const { openTag, signal } = request;
    if (signal?.aborted) throw new ActionFailedError(`browserbase: create session (open tag ${openTag}): cancelled before it was sent`);
    if (profileId !== undefined) {
      await holds.awaitFree(profileId, signal);
      holds.claim(profileId, openTag);
    }
    let created: WireSession;
    try {
      const contextId = profileId === undefined ? undefined : await contextFor(profileId, signal);
      const body = createSessionBody(resolved, request, contextId);
      created = await call(`create session (open tag ${openTag})`, true, (requestOptions) => client.sessions.create(body, requestOptions), signal);
      if (typeof created?.id !== "string" || created.id.length === 0) {
        throw new OutcomeUnknownError(`browserbase: create session (open tag ${openTag}): the answer has no session id, so a session may exist; find it by its open tag`);
      }
    } catch (error) {
      if (profileId !== undefined) holds.failed(profileId, isOutcomeUnknownError(error));
      throw error;
    }
    if (profileId !== undefined) holds.created(profileId, openTag, created.id);
    if (resolved.liveView) {
      // A session without a live view is still a session: a failed read only leaves the URL out.
      const url = await readLiveView(created.id, false).catch(() => undefined);
      if (url) liveViews.set(created.id, url);
    }
    return readBack(created, openTag);
  }

  async function release(id: string): Promise<void> {
    const pathId = sessionPathId(id);
    holds.ending(id);
    liveViews.delete(id);
    const body = { status: "REQUEST_RELEASE" as const, ...(resolved.projectId === undefined ? {} : { projectId: resolved.projectId }) };
    try {
      await call(`release session ${id}`, true, (request) => client.sessions.update(pathId, body, request));
    } catch (error) {
      // Already gone: released.
      if (isNotFoundError(error)) return;
      // A refusal for a session that has already ended (e.g. it ended when its CDP connection closed) is a release too.
      if (isProviderError(error) && error.status !== undefined && [400, 409, 410, 422].includes(error.status)) {
        const current = await get(id).catch(() => "unreadable" as const);
        if (current === undefined || (current !== "unreadable" && current.status !== "RUNNING" && current.status !== "PENDING")) return;
      }
      throw error;
    }
  }

  return {
    name: "browserbase",
    create,
    get,
    release,
    find,
    liveViewUrl: (id) => readLiveView(id),
    files: createBrowserbaseUploads((id, file, signal) =>
      call(`upload file ${file.name} to session ${id}`, true, (request) => client.sessions.uploads.create(sessionPathId(id), { file }, request), signal),
    ),
    downloads: createBrowserbaseDownloads((id, signal) =>
      call(`read the downloads of session ${id}`, false, (request) => client.sessions.downloads.list(sessionPathId(id), request), signal),
    ),
    profiles: {
      async awaitPersisted(profile, signal) {
        if (typeof profile?.id !== "string" || !profileIdPattern.test(profile.id)) throw new ValidationError("profile.id", profileIdRule);
        await holds.awaitFree(profile.id, signal);
      },
    },
  };
}
