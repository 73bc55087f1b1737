/**
 * A Browserbase API stand-in for msw, at the wire format of
 * ../shared/notes/providers.md: `X-BB-API-Key`, `POST /v1/sessions`,
 * `GET /v1/sessions/{id}`, `POST /v1/sessions/{id}` `{"status":"REQUEST_RELEASE"}`,
 * `GET /v1/sessions?q=user_metadata['openTag']:'…'`, `GET /v1/sessions/{id}/debug`,
 * `POST /v1/contexts`. Sessions live in memory; `connectUrl` is whatever the
 * test gives (a local Chromium's CDP URL), so a session can be driven for real.
 */
import { http, HttpResponse, type HttpHandler } from "msw";

export const baseURL = "https://api.browserbase.test";

export interface RecordedRequest {
  method: string;
  /** Path with its query, e.g. `/v1/sessions?q=…`. */
  path: string;
  apiKey: string | null;
  /** Parsed JSON body; `undefined` for none. */
  body: unknown;
}

export interface MockSession {
  id: string;
  createdAt: string;
  updatedAt: string;
  startedAt: string;
  expiresAt: string;
  endedAt?: string;
  projectId: string;
  keepAlive: boolean;
  proxyBytes: number;
  region: string;
  status: "PENDING" | "RUNNING" | "ERROR" | "TIMED_OUT" | "COMPLETED";
  contextId?: string;
  userMetadata?: Record<string, unknown>;
  connectUrl: string;
  /** Reads (`GET /v1/sessions/{id}`) left before a released session reads COMPLETED. */
  readsUntilEnded: number;
}

export interface BrowserbaseMock {
  handlers: HttpHandler[];
  requests: RecordedRequest[];
  sessions: Map<string, MockSession>;
  contexts: string[];
  /** What the next create hands out as `connectUrl`. */
  connectUrl: string;
  /** A released session reads RUNNING this many more times before COMPLETED (default 0). */
  readsUntilEnded: number;
  /** Makes a session as `POST /v1/sessions` would, without answering (for lost-response faults). */
  createSession(body: Record<string, unknown>): MockSession;
  /** Records a request (for handlers a test puts in front with `server.use`); returns its JSON body. */
  record(request: Request): Promise<unknown>;
  /** A handler (for `server.use`) under which the next create makes its session, then the connection drops before the answer. */
  lostCreate(): HttpHandler;
  /** Requests as "METHOD path" (query dropped). */
  calls(): string[];
  reset(): void;
}

const notFound = (what: string) => HttpResponse.json({ statusCode: 404, error: "Not Found", message: `${what} not found` }, { status: 404 });

function publicSession(session: MockSession, withConnect: boolean) {
  const { connectUrl, readsUntilEnded: _reads, ...rest } = session;
  return withConnect ? { ...rest, connectUrl, seleniumRemoteUrl: "https://connect.browserbase.test/webdriver", signingKey: "signing-key-value" } : rest;
}

/** The stand-in. `apiKey` is the only key it accepts. */
export function createBrowserbaseMock(options: { apiKey: string; connectUrl?: string }): BrowserbaseMock {
  let counter = 0;
  const mock: BrowserbaseMock = {
    handlers: [],
    requests: [],
    sessions: new Map(),
    contexts: [],
    connectUrl: options.connectUrl ?? "ws://127.0.0.1:9/devtools/browser/none",
    readsUntilEnded: 0,
    lostCreate() {
      return http.post(
        `${baseURL}/v1/sessions`,
        async ({ request }) => {
          mock.createSession((await mock.record(request)) as Record<string, unknown>);
          return HttpResponse.error();
        },
        { once: true },
      );
    },
    createSession(body) {
      const id = `00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}`;
      const now = new Date().toISOString();
      const settings = (body["browserSettings"] ?? {}) as { context?: { id?: string } };
      const session: MockSession = {
        id,
        createdAt: now,
        updatedAt: now,
        startedAt: now,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        projectId: typeof body["projectId"] === "string" ? body["projectId"] : "proj_from_key",
        keepAlive: body["keepAlive"] === true,
        proxyBytes: 0,
        region: typeof body["region"] === "string" ? body["region"] : "us-west-2",
        status: "RUNNING",
        ...(settings.context?.id ? { contextId: settings.context.id } : {}),
        ...(body["userMetadata"] ? { userMetadata: body["userMetadata"] as Record<string, unknown> } : {}),
        connectUrl: mock.connectUrl,
        readsUntilEnded: 0,
      };
      mock.sessions.set(id, session);
      return session;
    },
    async record(request) {
      const url = new URL(request.url);
      const text = await request.clone().text();
      const body = text.length > 0 ? (JSON.parse(text) as unknown) : undefined;
      mock.requests.push({ method: request.method, path: `${url.pathname}${url.search}`, apiKey: request.headers.get("x-bb-api-key"), body });
      return body;
    },
    calls() {
      return mock.requests.map((request) => `${request.method} ${request.path.split("?")[0]}`);
    },
    reset() {
      mock.requests.length = 0;
      mock.sessions.clear();
      mock.contexts.length = 0;
      mock.readsUntilEnded = 0;
    },
  };

  /** Records the request and checks the key; answers 401 on a wrong key. */
  async function admit(request: Request): Promise<{ body: unknown; refused?: Response }> {
    const body = await mock.record(request);
    const apiKey = request.headers.get("x-bb-api-key");
    if (apiKey !== options.apiKey) {
      return {
        body,
        refused: HttpResponse.json({ statusCode: 401, error: "Unauthorized", message: `Invalid API key ${apiKey ?? ""}` }, { status: 401 }),
      };
    }
    return { body };
  }

  mock.handlers = [
    http.post(`${baseURL}/v1/sessions`, async ({ request }) => {
      const { body, refused } = await admit(request);
      if (refused) return refused;
      return HttpResponse.json(publicSession(mock.createSession((body ?? {}) as Record<string, unknown>), true), { status: 201 });
    }),
    http.get(`${baseURL}/v1/sessions`, async ({ request }) => {
      const { refused } = await admit(request);
      if (refused) return refused;
      const url = new URL(request.url);
      const q = url.searchParams.get("q");
      const status = url.searchParams.get("status");
      const match = q === null ? undefined : /^user_metadata\['([A-Za-z0-9_]+)'\]:'([^']*)'$/.exec(q);
      if (q !== null && !match) return HttpResponse.json({ statusCode: 400, error: "Bad Request", message: "Invalid query" }, { status: 400 });
      const found = [...mock.sessions.values()].filter(
        (session) => (!match || session.userMetadata?.[match[1]!] === match[2]) && (status === null || session.status === status),
      );
      return HttpResponse.json(found.map((session) => publicSession(session, false)));
    }),
    http.get(`${baseURL}/v1/sessions/:id/debug`, async ({ request, params }) => {
      const { refused } = await admit(request);
      if (refused) return refused;
      const session = mock.sessions.get(String(params["id"]));
      if (!session) return notFound("Session");
      const base = `https://www.browserbase.test/devtools-fullscreen/inspector.html?wss=connect.browserbase.test/debug/${session.id}`;
      return HttpResponse.json({ debuggerUrl: base, debuggerFullscreenUrl: `${base}&fullscreen=1`, wsUrl: `wss://connect.browserbase.test/debug/${session.id}`, pages: [] });
    }),
    http.get(`${baseURL}/v1/sessions/:id`, async ({ request, params }) => {
      const { refused } = await admit(request);
      if (refused) return refused;
      const session = mock.sessions.get(String(params["id"]));
      if (!session) return notFound("Session");
      if (session.readsUntilEnded > 0) {
        session.readsUntilEnded--;
        if (session.readsUntilEnded === 0) {
          session.status = "COMPLETED";
          session.endedAt = new Date().toISOString();
        }
      }
      return HttpResponse.json(publicSession(session, session.status === "RUNNING"));
    }),
    http.post(`${baseURL}/v1/sessions/:id`, async ({ request, params }) => {
      const { body, refused } = await admit(request);
      if (refused) return refused;
      const session = mock.sessions.get(String(params["id"]));
      if (!session) return notFound("Session");
      if ((body as { status?: unknown } | undefined)?.status !== "REQUEST_RELEASE") {
        return HttpResponse.json({ statusCode: 400, error: "Bad Request", message: "status must be REQUEST_RELEASE" }, { status: 400 });
      }
      if (session.status !== "RUNNING" && session.status !== "PENDING") {
        return HttpResponse.json({ statusCode: 400, error: "Bad Request", message: "Session is not running" }, { status: 400 });
      }
      if (mock.readsUntilEnded > 0) session.readsUntilEnded = mock.readsUntilEnded;
      else {
        session.status = "COMPLETED";
        session.endedAt = new Date().toISOString();
      }
      return HttpResponse.json(publicSession(session, false));
    }),
    http.post(`${baseURL}/v1/contexts`, async ({ request }) => {
      const { refused } = await admit(request);
      if (refused) return refused;
      const id = `ctx_${mock.contexts.length + 1}`;
      mock.contexts.push(id);
      return HttpResponse.json(
        { id, cipherAlgorithm: "AES-256-CBC", initializationVectorSize: 16, publicKey: "pk", uploadUrl: "https://upload.invalid/" },
        { status: 201 },
      );
    }),
  ];
  return mock;
}

export { fakeSleep } from "./fake-sleep.js";
