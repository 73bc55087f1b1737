import type { IncomingMessage, ServerResponse } from "node:http";
import { drainingMethods, type WorkerRequest } from "../protocol/wire.js";
import { dataAnswer, errorAnswer, failureAnswer, type Answer } from "./answers.js";
import { createAuthenticator, type Caller } from "./auth.js";
import { envelopeBytes, parseWorkerRequest, tooLarge, type BodyRead, type LargeBodyGate } from "./body.js";
import { createDispatch } from "./dispatch.js";
import { answerToResponse, callFromRequest } from "./fetch-adapter.js";
import { InFlight } from "./in-flight.js";
import { createLiveRoutes, isLivePath } from "./live-routes.js";
import { createViewTokens } from "./view-token.js";
import type { IncomingCall } from "./incoming.js";
import { callFromNode, sendNodeAnswer } from "./node-http.js";
import { resolveBrowserWorkerOptions, type BrowserWorkerOptions } from "./options.js";
import { routeMatcher } from "./routes.js";
import { filesSuffix, stageFromCall } from "./files-route.js";
import { TenantScope } from "./tenant-scope.js";

/** A running worker: one HTTP handler in two forms, plus draining and shutdown. */
export interface BrowserWorker {
  /** The standard web handler: `(Request) => Promise<Response>` (Deno.serve, Bun.serve, undici…). */
  fetch(request: Request): Promise<Response>;
  /** The `node:http` handler: `http.createServer(worker.handleNode)`. Never throws. */
  handleNode(request: IncomingMessage, response: ServerResponse): void;
  /**
   * Refuses new work from now on (`open`, commands, checkpoints… answer 503
   * `draining`) while `list`, `close`, `control` and `reconcile` still work.
   * Resolves once no request is in flight.
   */
  drain(): Promise<void>;
  /**
   * Drains, waits up to `closeGraceMs` for requests in flight, then closes the
   * manager (every session). Every later request answers 503 `draining`.
   */
  close(): Promise<void>;
  /** True once `drain()` or `close()` was called. */
  readonly draining: boolean;
}

const isJson = (contentType: string | undefined) => contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType.trim());

/** How a request is named in messages: the method, and the op of a command. */
function describeRequest(request: WorkerRequest): string {
  if (request.method === "execute") {
    const op = (request.command as { op?: unknown } | null)?.op;
    return typeof op === "string" ? `execute (${op.slice(0, 32)})` : "execute";
  }
  return request.method === "action" ? `action (${request.action})` : request.method;
}

/**
 * The HTTP face of a {@link BrowserSessionManager} (DESIGN.md "Worker and
 * client"): `POST /api/v1/stations/:stationId/execution/browser` for the
 * operator token and `POST /api/v1/tenant/stations/:stationId/execution/browser`
 * for tenant keys, JSON bodies `{ "method": … }`, `{ "data": … }` on success,
 * `{ "error": { code, message } }` on failure. Credentials are checked before
 * the body is read; bodies are capped while they stream (128 KiB, 8 MiB for
 * an upload command); a tenant reaches only its own sessions, checkpoints and
 * recordings. No redirect is ever sent.
 *
 * @throws {ValidationError} when the token has fewer than 32 characters, or another option is invalid.
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { BrowserSessionManager, PlaywrightBrowserAdapter } from "station-browser-use/playwright";
 * import { createBrowserWorker } from "station-browser-use/worker";
 *
 * const manager = new BrowserSessionManager(new PlaywrightBrowserAdapter(), 4, { ownsAdapter: true });
 * const worker = createBrowserWorker({ manager, stationId: "local", token: process.env.STATION_EXECUTION_TOKEN! });
 * createServer(worker.handleNode).listen(8931, "127.0.0.1");
 * ```
 */
export function createBrowserWorker(options: BrowserWorkerOptions): BrowserWorker {
  const resolved = resolveBrowserWorkerOptions(options);
  const { manager, stationId, maxRequestBytes, maxResponseBytes } = resolved;
  const matchRoute = routeMatcher(stationId);
  const authenticate = createAuthenticator(resolved.token, resolved.tenants, resolved.tenantId);
  const secrets = [resolved.token, ...resolved.tenants.map((tenant) => tenant.key)];
  const redact = (text: string) => secrets.reduce((clean, secret) => clean.split(secret).join("[redacted]"), text);
  const scope = new TenantScope(manager, resolved.profileOwners, resolved.tenantMaxSessions);
  const tokens = createViewTokens(resolved.now);
  const dispatch = createDispatch(manager, scope, tokens);
  const live = createLiveRoutes({ manager, tokens, now: resolved.now, maxResponseBytes, draining: () => draining, redact, report: (error) => report("live view")(error) });
  const inFlight = new InFlight();
  const forgetClosed = ({ sessionId }: { sessionId: string }) => scope.forget(sessionId);
  manager.events.on("session-close", forgetClosed);
  let draining = false;
  let closing: Promise<void> | undefined;
  /** Bodies over the request limit (uploads of up to 8 MiB) being held now, and how many may be. */
  let largeBodies = 0;
  const maxLargeBodies = resolved.maxLargeBodies;

  const report = (method: string | undefined) => (error: unknown) => {
    try {
      resolved.onError(error, { method });
    } catch {
      // A failing error hook must not change the answer.
    }
  };

  /** Refusals sent before the body is read close the connection: the body is never read. */
  const unread = (refusal: Answer): Answer => ({ ...refusal, closeConnection: true });

  async function answer(call: IncomingCall): Promise<Answer> {
    if (isLivePath(call.pathname)) {
      if (closing) return unread(errorAnswer("draining", "This worker is shutting down and takes no more requests"));
      return live(call);
    }
    const stagingScope = call.pathname.endsWith(filesSuffix) ? matchRoute(call.pathname.slice(0, -filesSuffix.length)) : undefined;
    const routeScope = stagingScope ?? matchRoute(call.pathname);
    if (!routeScope) {
      return unread(errorAnswer("not_found", "No route at this path (a wrong station id?); routes are POST /api/v1/stations/:stationId/execution/browser and POST /api/v1/tenant/stations/:stationId/execution/browser"));
    }
    if (call.method !== "POST") {
      return unread(errorAnswer("bad_request", `Method ${call.method.slice(0, 16)} is not allowed here; send a JSON POST`, { status: 405, headers: { allow: "POST" } }));
    }
    const auth = authenticate(call.header("authorization"), routeScope);
    if (!auth.ok) {
      const headers = auth.error.code === "unauthorized" ? { "www-authenticate": 'Bearer realm="station-browser-use"' } : undefined;
      return unread(errorAnswer(auth.error.code, auth.error.message, headers ? { headers } : {}));
    }
    if (closing) return unread(errorAnswer("draining", "This worker is shutting down and takes no more requests"));
    if (stagingScope) return stage(call, auth.caller);
    if (!isJson(call.header("content-type"))) {
      return unread(errorAnswer("bad_request", "Expected a JSON body with content-type: application/json"));
    }
    const declared = Number(call.header("content-length") ?? "0");
    if (declared > envelopeBytes) return unread(refusal(tooLarge(declared, envelopeBytes, true)));
    // At most `maxLargeBodies` bodies over the request limit (uploads) are held at once.
    let admittedLarge = false;
    const gate: LargeBodyGate = {
      threshold: maxRequestBytes,
      enter: () => (largeBodies < maxLargeBodies ? ((largeBodies++, (admittedLarge = true)), true) : false),
    };
    try {
      return await readAndRun(call, auth.caller, gate);
    } finally {
      if (admittedLarge) largeBodies--;
    }
  }

  /** The staging route: the body streams into `stageFile`, counted as one of the large bodies held at once. */
  async function stage(call: IncomingCall, caller: Caller): Promise<Answer> {
    if (draining) return unread(errorAnswer("draining", "This worker is draining: stageFile is refused; use another worker"));
    if (call.header("content-type")?.split(";")[0]?.trim().toLowerCase() !== "application/octet-stream") {
      return unread(errorAnswer("bad_request", "Expected the file's bytes as the body with content-type: application/octet-stream"));
    }
    if (largeBodies >= maxLargeBodies) {
      return unread(errorAnswer("capacity", `${maxLargeBodies} large request bodies (uploads) are being received already; nothing was staged; send it again shortly`));
    }
    largeBodies++;
    try {
      return await stageFromCall(call, caller, manager, scope, maxResponseBytes);
    } catch (error) {
      return unread(failureAnswer(error, "stageFile", redact, report("stageFile")));
    } finally {
      largeBodies--;
    }
  }

  async function readAndRun(call: IncomingCall, caller: Caller, gate: LargeBodyGate): Promise<Answer> {
    let read: BodyRead;
    try {
      read = await call.readBody(envelopeBytes, gate);
    } catch {
      // The client went away mid-body (or sent a broken stream): nothing ran, nothing to report.
      return unread(errorAnswer("bad_request", "The request body could not be read completely; nothing was executed"));
    }
    if (!read.ok && read.reason === "gate") {
      return unread(
        errorAnswer("capacity", `${maxLargeBodies} large request bodies (uploads) are being received already; nothing was executed; send it again shortly`),
      );
    }
    if (!read.ok) return unread(refusal(tooLarge(read.receivedAtLeast, envelopeBytes, false)));
    let request: WorkerRequest;
    try {
      request = parseWorkerRequest(read.bytes, maxRequestBytes);
    } catch (error) {
      return failureAnswer(error, undefined, redact, report(undefined));
    }
    if (draining && !drainingMethods.has(request.method)) {
      return errorAnswer("draining", `This worker is draining: ${request.method} is refused (it still serves ${[...drainingMethods].join(", ")}); use another worker`);
    }
    try {
      const data = await dispatch(request, { caller, signal: call.signal });
      return dataAnswer(data, maxResponseBytes, describeRequest(request));
    } catch (error) {
      return failureAnswer(error, request.method, redact, report(request.method));
    }
  }

  const refusal = (error: unknown) => failureAnswer(error, undefined, redact, report(undefined));

  /** Every request, answered; nothing escapes as an exception. */
  const handle = (call: IncomingCall): Promise<Answer> =>
    inFlight.track(() => answer(call)).catch((error: unknown) => failureAnswer(error, undefined, redact, report(undefined)));

  return {
    fetch: async (request) => answerToResponse(await handle(callFromRequest(request))),
    handleNode(request, response) {
      void handle(callFromNode(request, response))
        .then((result) => sendNodeAnswer(response, result))
        // Writing the answer failed (the socket is gone): drop the connection, never crash the process.
        .catch(() => response.destroy());
    },
    async drain() {
      draining = true;
      await inFlight.idle();
    },
    close() {
      draining = true;
      closing ??= (async () => {
        await inFlight.idle(resolved.closeGraceMs);
        manager.events.off("session-close", forgetClosed);
        await manager.close();
      })();
      return closing;
    },
    get draining() {
      return draining;
    },
  };
}
