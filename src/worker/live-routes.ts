import * as v from "valibot";
import { AuthenticationError, NotFoundError, ValidationError } from "../errors.js";
import type { BrowserSessionManager } from "../lifecycle/manager.js";
import type { ScreencastFrame } from "../protocol/adapter.js";
import { liveViewServing } from "../protocol/limits.js";
import { parseWith } from "../protocol/parse.js";
import { dataAnswer, errorAnswer, failureAnswer, type Answer } from "./answers.js";
import type { IncomingCall } from "./incoming.js";
import { livePage } from "./live-page.js";
import type { ViewGrant, ViewTokens } from "./view-token.js";

/** What the live view routes need from the worker. */
export interface LiveRoutesContext {
  manager: BrowserSessionManager;
  tokens: ViewTokens;
  now: () => number;
  maxResponseBytes: number;
  /** True while the worker drains: a human may still watch and hand control back, not take it. */
  draining: () => boolean;
  /** Removes the worker's own secrets from a message. */
  redact: (text: string) => string;
  report: (error: unknown) => void;
}

/** True for a path under `/live/`. */
export const isLivePath = (pathname: string): boolean => pathname === "/live" || pathname.startsWith("/live/");

const tokenField = v.pipe(v.string("expected a string"), v.minLength(1, "expected the control token"), v.maxLength(256, "expected the control token"));
const coordinate = v.number("expected a number");

/** The input a live viewer may forward: pointer and keys only, on the selected page, in the command vocabulary. */
const InputSchema = v.variant(
  "op",
  [
    v.strictObject({ op: v.literal("mouseClick"), x: coordinate, y: coordinate, button: v.optional(v.picklist(["left", "right", "middle"])) }),
    v.strictObject({ op: v.literal("mouseMove"), x: coordinate, y: coordinate }),
    v.strictObject({ op: v.literal("scroll"), deltaX: v.optional(coordinate), deltaY: v.optional(coordinate) }),
    v.strictObject({ op: v.literal("press"), key: v.string("expected a key name") }),
  ],
  'expected op "mouseClick", "mouseMove", "scroll" or "press"',
);

const ControlBodySchema = v.variant(
  "action",
  [
    v.strictObject({ action: v.literal("acquire") }),
    v.strictObject({ action: v.literal("renew"), controlToken: tokenField }),
    v.strictObject({ action: v.literal("release"), controlToken: tokenField }),
    v.strictObject({ action: v.literal("input"), controlToken: tokenField, input: InputSchema }),
  ],
  'expected action "acquire", "renew", "release" or "input"',
);

const securityHeaders = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};

const encoder = new TextEncoder();

/**
 * The live view (`GET /live/:sessionId?token=…`): the page, its event stream
 * (`/stream`: the session's screencast as server-sent events), its polled
 * frame (`/frame`) and its control route (`POST /control`: take, renew and
 * release the human control lease, and forward clicks, scrolls and keys as
 * commands under that lease). Every route needs a valid view token for that
 * very session: a missing, malformed, forged or expired one is 401, one for
 * another session 403; nothing is read from the session before that.
 */
export function createLiveRoutes(context: LiveRoutesContext): (call: IncomingCall) => Promise<Answer> {
  const { manager, tokens } = context;

  return async (call) => {
    const segments = call.pathname.split("/");
    const sub = segments[3];
    let sessionId: string | undefined;
    try {
      sessionId = segments.length === 3 || segments.length === 4 ? decodeURIComponent(segments[2]!) : undefined;
    } catch {
      sessionId = undefined;
    }
    const method = sub === "control" ? "POST" : "GET";
    if (!sessionId || (sub !== undefined && sub !== "stream" && sub !== "frame" && sub !== "control")) {
      return unread(errorAnswer("not_found", "No route at this path; the live view is GET /live/<sessionId>?token=<view token>"));
    }
    if (call.method !== method) {
      return unread(errorAnswer("bad_request", `Method ${call.method.slice(0, 16)} is not allowed here; use ${method}`, { status: 405, headers: { allow: method } }));
    }
    const presented = call.query.get("token");
    const redact = (text: string) => context.redact(presented ? text.split(presented).join("[redacted]") : text);
    const fail = (error: unknown) => failureAnswer(error, "live view", redact, context.report);
    try {
      const grant = await authorize(presented, sessionId);
      if (sub === undefined) return page(sessionId);
      if (sub === "frame") return dataAnswer(await manager.liveFrame(sessionId), context.maxResponseBytes, "live frame");
      if (sub === "stream") return await eventStream(sessionId, grant);
      return await controlCall(call, sessionId, redact);
    } catch (error) {
      const answer = fail(error);
      return sub === "control" && error instanceof AuthenticationError ? unread(answer) : answer;
    }
  };

  async function authorize(presented: string | null, sessionId: string): Promise<ViewGrant> {
    const checked = await tokens.verify(presented);
    if (!checked.ok) {
      const why = { missing: "no view token (add ?token=…)", malformed: "the view token is malformed", signature: "the view token is not valid for this worker", expired: "the view token has expired; ask for a new live view link" }[checked.reason];
      throw new AuthenticationError("unauthorized", `Live view refused: ${why}`);
    }
    if (checked.grant.sessionId !== sessionId) throw new AuthenticationError("forbidden", "Live view refused: the view token is for another session");
    if (!manager.list().some((info) => info.id === sessionId)) throw new NotFoundError(`Browser session ${sessionId} does not exist`);
    return checked.grant;
  }

  function page(sessionId: string): Answer {
    const nonce = crypto.randomUUID().replace(/-/g, "");
    return {
      status: 200,
      headers: {
        ...securityHeaders,
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": `default-src 'none'; img-src data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
        "x-frame-options": "DENY",
      },
      body: encoder.encode(livePage(sessionId, nonce)),
    };
  }

  async function controlCall(call: IncomingCall, sessionId: string, redact: (text: string) => string): Promise<Answer> {
    const read = await call.readBody(liveViewServing.controlBodyBytes).catch(() => undefined);
    if (!read?.ok) return unread(errorAnswer("bad_request", `The control request body could not be read, or is over ${liveViewServing.controlBodyBytes} bytes; nothing was done`));
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(read.bytes));
    } catch {
      throw new ValidationError("body", "expected a JSON object");
    }
    const body = parseWith(ControlBodySchema, json, "body");
    if (context.draining() && body.action !== "release") {
      return errorAnswer("draining", `This worker is draining: live control ${body.action} is refused (release still works); use another worker`);
    }
    const answer = (data: unknown) => dataAnswer(data, context.maxResponseBytes, `live control ${body.action}`);
    switch (body.action) {
      case "acquire":
        return answer(await manager.acquireControl(sessionId, liveViewServing.controlTtlMs));
      case "renew":
        return answer(await manager.renewControl(sessionId, body.controlToken, liveViewServing.controlTtlMs));
      case "release":
        await manager.releaseControl(sessionId, body.controlToken);
        return answer(null);
      case "input":
        try {
          const options = { controlToken: body.controlToken, signal: call.signal };
          const result = await manager.execute(sessionId, body.input, options);
          // A page the human's input opened (a popup, a new tab) is where they go next: select it, and the view follows.
          const opened = "newPages" in result ? result.newPages.at(-1) : undefined;
          if (opened) await manager.execute(sessionId, { op: "selectPage", pageId: opened.pageId }, options);
        } catch (error) {
          if (error instanceof Error) error.message = redact(error.message.split(body.controlToken).join("[redacted]"));
          throw error;
        }
        return answer({ ok: true });
    }
  }

  /**
   * The screencast as server-sent events: `frame` (JSON: base64 JPEG, its
   * size and the viewport it shows), `fallback` when the engine has no
   * screencast (the page then polls `/frame`), `end` when the session closes
   * or the token expires. A slow viewer gets the newest frame, never a
   * growing queue.
   */
  async function eventStream(sessionId: string, grant: ViewGrant): Promise<Answer> {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let newest: Uint8Array | undefined;
    let done = false;
    let watch: { stop(): Promise<void> } | undefined;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const event = (name: string, data: unknown) => encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    const finish = () => {
      if (done) return;
      done = true;
      for (const timer of timers) clearTimeout(timer);
      void watch?.stop().catch(() => undefined);
      try {
        controller.close();
      } catch {
        // Already cancelled by the viewer.
      }
    };
    const push = (chunk: Uint8Array) => {
      if (!done) controller.enqueue(chunk);
    };
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (started) => void (controller = started),
        pull: () => {
          if (newest === undefined) return;
          push(newest);
          newest = undefined;
        },
        cancel: finish,
      },
      { highWaterMark: 2 },
    );
    const frame = (shot: ScreencastFrame) => {
      if (done) return;
      const { base64, width, height, viewportWidth, viewportHeight } = shot;
      const chunk = event("frame", { base64, width, height, viewportWidth, viewportHeight });
      if ((controller.desiredSize ?? 0) > 0) push(chunk);
      else newest = chunk;
    };
    watch = await manager.watchScreencast(sessionId, {
      frame,
      end: (reason) => {
        push(event("end", { reason }));
        finish();
      },
    });
    // The session closed while the watch started: it ended already.
    if (done) void watch?.stop().catch(() => undefined);
    if (watch === undefined) {
      push(event("fallback", { reason: "this browser has no screencast; poll frames" }));
      finish();
    } else if (!done) {
      timers.push(
        setTimeout(() => {
          push(event("end", { reason: "expired" }));
          finish();
        }, Math.max(0, grant.expiresAt - context.now())),
      );
      const ping = setInterval(() => (controller.desiredSize ?? 0) > 0 && push(encoder.encode(": ping\n\n")), 15_000);
      timers.push(ping);
    }
    return {
      status: 200,
      headers: { ...securityHeaders, "content-type": "text/event-stream; charset=utf-8", "x-accel-buffering": "no" },
      body: new Uint8Array(0),
      stream,
    };
  }
}

/** Refusals sent before a body is read close the connection. */
const unread = (answer: Answer): Answer => ({ ...answer, closeConnection: true });
