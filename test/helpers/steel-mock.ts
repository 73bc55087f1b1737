/**
 * A fake Steel API at the wire format (msw handlers scoped to a fake base
 * URL): `steel-api-key` auth, `POST /v1/sessions`, `GET /v1/sessions/{id}`,
 * `POST /v1/sessions/{id}/release` (empty body sent as JSON),
 * `GET /v1/sessions/{id}/live-details`, `GET /v1/profiles/{id}`. Every
 * request is recorded with its raw body.
 * Mode `selfHosted` behaves like steel-browser: no auth, one session at a
 * time, an unknown id answers 200 "released", release ends the live session
 * whatever the id, `timeout` reported as 0, no profiles route (Fastify's
 * 404 `Route GET:… not found`), and with `launchPolls` a session reads
 * `live` while its browser launches: `live-details` answers 500 for that
 * many polls, and a release in that window crashes the server (no answer;
 * counted in `releasesWhileLaunching`).
 */
import { http, HttpResponse, type HttpResponseResolver } from "msw";

export const steelBase = "https://api.steel.test";

export interface RecordedRequest {
  method: string;
  path: string;
  search: string;
  apiKey: string | null;
  contentType: string | null;
  /** The raw body text ("" when empty). */
  body: string;
}

export interface FakeSession {
  id: string;
  status: "live" | "released" | "failed";
  profileId?: string;
  persistProfile?: boolean;
  timeout: number;
  dimensions: { width: number; height: number };
  createdAt: string;
  /** `live-details` polls still answered 500 (the browser is launching). */
  launchPolls: number;
}

export interface FakeProfile {
  id: string;
  status: "UPLOADING" | "READY" | "FAILED";
  /** Polls still answered UPLOADING before the scripted end state. */
  uploadingPolls: number;
  /** State after the upload (default READY). */
  afterUpload: "READY" | "FAILED";
}

/** A scripted answer to the next matching request. */
export type Fault =
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: unknown }
  /** Do the work, then drop the answer (the connection fails after the request was handled). */
  | { kind: "lose-response" };

export interface FakeSteelOptions {
  /** The CDP URL handed out as `websocketUrl` (the local Chromium's). */
  websocketUrl: (session: FakeSession) => string;
  apiKey?: string;
  selfHosted?: boolean;
  /** Profile polls answered UPLOADING after a persisting session is released (default 1). */
  uploadPolls?: number;
  /** `live-details` polls answered 500 after each create, while the browser launches (default 0). */
  launchPolls?: number;
}

export interface FakeSteel {
  handlers: ReturnType<typeof http.all>[];
  requests: RecordedRequest[];
  sessions: Map<string, FakeSession>;
  profiles: Map<string, FakeProfile>;
  /** Queue of faults per route: `create`, `get`, `release`, `profile`. */
  faults: Record<"create" | "get" | "release" | "profile", Fault[]>;
  /** Releases that arrived while the live session was still launching (each one "crashed" the server). */
  releasesWhileLaunching: number;
  /** Requests to one route: an exact path, or a pattern. */
  requestsTo(method: string, path: string | RegExp): RecordedRequest[];
  reset(): void;
}

export function createFakeSteel(options: FakeSteelOptions): FakeSteel {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const profiles = new Map<string, FakeProfile>();
  const faults: FakeSteel["faults"] = { create: [], get: [], release: [], profile: [] };
  let profileCounter = 0;
  let active: string | undefined;
  let releasesWhileLaunching = 0;

  async function record(request: Request): Promise<RecordedRequest> {
    const url = new URL(request.url);
    const entry: RecordedRequest = {
      method: request.method,
      path: url.pathname,
      search: url.search,
      apiKey: request.headers.get("steel-api-key"),
      contentType: request.headers.get("content-type"),
      body: await request.text(),
    };
    requests.push(entry);
    return entry;
  }

  function unauthorized(entry: RecordedRequest): Response | undefined {
    if (options.selfHosted) return undefined;
    if (entry.apiKey !== options.apiKey) return HttpResponse.json({ message: "Invalid API key" }, { status: 401 });
    return undefined;
  }

  function view(session: FakeSession) {
    return {
      id: session.id,
      createdAt: session.createdAt,
      status: session.status,
      websocketUrl: options.websocketUrl(session),
      debugUrl: `${steelBase}/debug/${session.id}`,
      sessionViewerUrl: options.selfHosted ? "http://steel.local:3000" : `https://app.steel.test/sessions/${session.id}`,
      timeout: options.selfHosted ? 0 : session.timeout,
      duration: 1234,
      eventCount: 7,
      creditsUsed: 1,
      proxyBytesUsed: 0,
      dimensions: session.dimensions,
      ...(session.profileId ? { profileId: session.profileId } : {}),
      ...(session.persistProfile ? { persistProfile: true } : {}),
    };
  }

  function answerFault(fault: Fault | undefined): Response | undefined {
    if (!fault || fault.kind !== "status") return undefined;
    return HttpResponse.json(fault.body ?? { message: `scripted ${fault.status}` }, { status: fault.status, headers: fault.headers ?? {} });
  }

  function releaseSession(session: FakeSession): void {
    session.status = "released";
    if (active === session.id) active = undefined;
    if (session.persistProfile && session.profileId) {
      const profile = profiles.get(session.profileId);
      if (profile) {
        profile.status = "UPLOADING";
        profile.uploadingPolls = options.uploadPolls ?? 1;
      }
    }
  }

  const create: HttpResponseResolver = async ({ request }) => {
    const entry = await record(request);
    const denied = unauthorized(entry);
    if (denied) return denied;
    const fault = faults.create.shift();
    const scripted = answerFault(fault);
    if (scripted) return scripted;
    const body = JSON.parse(entry.body || "{}") as Record<string, unknown>;
    const id = typeof body.sessionId === "string" ? body.sessionId : crypto.randomUUID();
    if (options.selfHosted && active) {
      // steel-browser: a create replaces the live session.
      const previous = sessions.get(active);
      if (previous) previous.status = "released";
    }
    let profileId: string | undefined;
    if (!options.selfHosted && body.persistProfile === true) {
      profileId = typeof body.profileId === "string" ? body.profileId : `prof_${++profileCounter}`;
      if (!profiles.has(profileId)) profiles.set(profileId, { id: profileId, status: "UPLOADING", uploadingPolls: options.uploadPolls ?? 1, afterUpload: "READY" });
    } else if (!options.selfHosted && typeof body.profileId === "string") {
      profileId = body.profileId;
    }
    const session: FakeSession = {
      id,
      status: "live",
      timeout: typeof body.timeout === "number" ? body.timeout : 300_000,
      dimensions: (body.dimensions as FakeSession["dimensions"]) ?? { width: 1920, height: 1080 },
      createdAt: new Date().toISOString(),
      launchPolls: options.launchPolls ?? 0,
      ...(profileId ? { profileId } : {}),
      ...(body.persistProfile === true && !options.selfHosted ? { persistProfile: true } : {}),
    };
    sessions.set(id, session);
    active = id;
    if (fault?.kind === "lose-response") return HttpResponse.error();
    return HttpResponse.json(view(session));
  };

  const get: HttpResponseResolver = async ({ request, params }) => {
    const entry = await record(request);
    const denied = unauthorized(entry);
    if (denied) return denied;
    const fault = faults.get.shift();
    const scripted = answerFault(fault);
    if (scripted) return scripted;
    const id = String(params.id);
    const session = sessions.get(id);
    if (options.selfHosted && (!session || id !== active)) {
      // steel-browser's made-up answer for an id it does not hold.
      return HttpResponse.json({
        id,
        createdAt: new Date().toISOString(),
        status: "released",
        duration: 0,
        eventCount: 0,
        timeout: 0,
        creditsUsed: 0,
        websocketUrl: "ws://steel.local:3000/",
        debugUrl: "http://steel.local:3000/v1/sessions/debug",
        sessionViewerUrl: "http://steel.local:3000",
        userAgent: "",
        isSelenium: false,
        proxy: "",
        solveCaptcha: false,
      });
    }
    if (!session) return HttpResponse.json({ message: "Session not found" }, { status: 404 });
    if (fault?.kind === "lose-response") return HttpResponse.error();
    return HttpResponse.json(view(session));
  };

  const release: HttpResponseResolver = async ({ request, params }) => {
    const entry = await record(request);
    const denied = unauthorized(entry);
    if (denied) return denied;
    const fault = faults.release.shift();
    const scripted = answerFault(fault);
    if (scripted) return scripted;
    if (options.selfHosted) {
      // steel-browser ends whatever is live, whatever id was sent.
      const live = active ? sessions.get(active) : undefined;
      if (live && live.launchPolls > 0) {
        // steel-browser crashes on a release while its browser launches.
        releasesWhileLaunching++;
        return HttpResponse.error();
      }
      if (live) releaseSession(live);
      if (fault?.kind === "lose-response") return HttpResponse.error();
      return HttpResponse.json({ success: true, ...(live ? view(live) : {}) });
    }
    const session = sessions.get(String(params.id));
    if (!session) return HttpResponse.json({ message: "Session not found" }, { status: 404 });
    releaseSession(session);
    if (fault?.kind === "lose-response") return HttpResponse.error();
    return HttpResponse.json({ success: true, message: "Session released" });
  };

  const liveDetails: HttpResponseResolver = async ({ request, params }) => {
    const entry = await record(request);
    const denied = unauthorized(entry);
    if (denied) return denied;
    const id = options.selfHosted ? active : String(params.id);
    const session = id === undefined ? undefined : sessions.get(id);
    if (session && session.launchPolls > 0) {
      session.launchPolls--;
      return HttpResponse.json({ statusCode: 500, error: "Internal Server Error", message: "Cannot read properties of null (reading 'pages')" }, { status: 500 });
    }
    if (!session && !options.selfHosted) return HttpResponse.json({ message: "Session not found" }, { status: 404 });
    const viewer = options.selfHosted ? "http://steel.local:3000/v1/sessions/debug" : `https://app.steel.test/sessions/${String(params.id)}`;
    return HttpResponse.json({ sessionViewerUrl: viewer, sessionViewerFullscreenUrl: `${viewer}?fullscreen=true`, wsUrl: "ws://steel.local:3000/", pages: [] });
  };

  const profile: HttpResponseResolver = async ({ request, params }) => {
    const entry = await record(request);
    const denied = unauthorized(entry);
    if (denied) return denied;
    const scripted = answerFault(faults.profile.shift());
    if (scripted) return scripted;
    if (options.selfHosted) {
      // steel-browser has no profiles route: Fastify's own not-found answer.
      return HttpResponse.json({ message: `Route GET:${entry.path} not found`, error: "Not Found", statusCode: 404 }, { status: 404 });
    }
    const found = profiles.get(String(params.id));
    if (!found) return HttpResponse.json({ message: "Profile not found" }, { status: 404 });
    if (found.status === "UPLOADING") {
      if (found.uploadingPolls > 0) found.uploadingPolls--;
      else found.status = found.afterUpload;
    }
    return HttpResponse.json({
      id: found.id,
      createdAt: "2026-06-01T00:00:00.000Z",
      updatedAt: "2026-06-01T00:00:00.000Z",
      status: found.status,
      sourceSessionId: null,
      credentialsConfig: null,
      dimensions: null,
      extensionIds: null,
      fingerprint: null,
      useProxyConfig: null,
      userAgent: null,
    });
  };

  const handlers = [
    http.post(`${steelBase}/v1/sessions`, create),
    http.get(`${steelBase}/v1/sessions/:id`, get),
    http.post(`${steelBase}/v1/sessions/:id/release`, release),
    http.get(`${steelBase}/v1/sessions/:id/live-details`, liveDetails),
    http.get(`${steelBase}/v1/profiles/:id`, profile),
    // Anything else at the fake base is a bug in the provider: answer loudly.
    http.all(`${steelBase}/*`, async ({ request }) => {
      await record(request);
      return HttpResponse.json({ message: "unexpected route" }, { status: 418 });
    }),
  ];

  return {
    handlers,
    requests,
    sessions,
    profiles,
    faults,
    get releasesWhileLaunching() {
      return releasesWhileLaunching;
    },
    requestsTo: (method, path) =>
      requests.filter((entry) => entry.method === method && (typeof path === "string" ? entry.path === path : path.test(entry.path))),
    reset() {
      requests.length = 0;
      sessions.clear();
      profiles.clear();
      for (const queue of Object.values(faults)) queue.length = 0;
      active = undefined;
      releasesWhileLaunching = 0;
    },
  };
}
