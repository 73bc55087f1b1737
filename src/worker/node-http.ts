import type { IncomingMessage, ServerResponse } from "node:http";
import type { Answer } from "./answers.js";
import { bodyMeter, type BodyRead, type LargeBodyGate } from "./body.js";
import type { IncomingCall } from "./incoming.js";

/**
 * Reads a Node request body up to `limit` bytes. Past the limit it stops
 * listening and pauses the stream (dropping what came): the worker answers
 * 413 and closes the connection instead of reading an unbounded body.
 * `declaredBytes` is the request's `Content-Length`, when it has one.
 */
export async function readNodeBody(request: IncomingMessage, limit: number, gate?: LargeBodyGate, declaredBytes?: number): Promise<BodyRead> {
  // Node's parser pushes a body that came with the headers right after the
  // `request` event: one microtask later it is buffered, and is taken in one
  // synchronous read instead of through `data` and `end` events. It is whole
  // once the message is complete, or once as many bytes as its Content-Length
  // are buffered (the parser delivers no more than that for this message):
  // at this point `complete` is still false for a body that came with the
  // head, since the parser marks it only after the `request` event's turn.
  await undefined;
  const size = request.readableLength;
  const whole = request.complete || size === declaredBytes;
  if (whole && !request.readableFlowing && !request.destroyed && size <= limit && size <= (gate?.threshold ?? limit)) {
    const bytes = (request.read() as Buffer | null) ?? Buffer.alloc(0);
    if (bytes.byteLength === size && request.readableLength === 0) {
      // Its end comes from the parser a moment later: flowing, the stream
      // takes it and ends (`end`), as a body read through events does.
      request.resume();
      return { ok: true, bytes };
    }
    // Not what the buffer said (never seen): read the rest as it comes.
    return readNodeBodyEvents(request, limit, gate, bytes);
  }
  return readNodeBodyEvents(request, limit, gate);
}

/** {@link readNodeBody} through the stream's events, after `first` (bytes read already). */
function readNodeBodyEvents(request: IncomingMessage, limit: number, gate: LargeBodyGate | undefined, first?: Buffer): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = first && first.byteLength > 0 ? [first] : [];
    const stop = bodyMeter(limit, gate);
    let size = first?.byteLength ?? 0;
    const cleanup = () => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
      request.off("aborted", onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      const reason = stop(size);
      if (reason) {
        cleanup();
        request.pause();
        chunks.length = 0;
        resolve({ ok: false, receivedAtLeast: size, reason });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve({ ok: true, bytes: Buffer.concat(chunks, size) });
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAborted = () => onError(new Error("the client aborted the request"));
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
    request.on("aborted", onAborted);
  });
}

/**
 * A Node request as the worker reads it; `signal` aborts when the client
 * disconnects before the answer is sent. One object per request, with its
 * methods on the prototype: nothing more is built per request than the
 * abort controller and one `close` listener.
 */
class NodeCall implements IncomingCall {
  readonly method: string;
  readonly pathname: string;
  readonly signal: AbortSignal;
  readonly #search: string;

  constructor(
    private readonly request: IncomingMessage,
    response: ServerResponse,
  ) {
    const controller = new AbortController();
    response.on("close", () => {
      if (!response.writableFinished) controller.abort();
    });
    this.method = request.method ?? "GET";
    const url = request.url ?? "/";
    const query = url.indexOf("?");
    this.pathname = query < 0 ? url : url.slice(0, query);
    this.#search = query < 0 ? "" : url.slice(query + 1);
    this.signal = controller.signal;
  }

  /** The query's parameters, parsed when asked for (only the live view routes read them). */
  get query(): URLSearchParams {
    return new URLSearchParams(this.#search);
  }

  /**
   * The first value of a header, read from `rawHeaders` (the worker asks for
   * three headers; `request.headers` would build an object of all of them).
   * Node keeps the first value of a repeated `authorization`, `content-type`
   * or `content-length` too.
   */
  header(name: string): string | undefined {
    const raw = this.request.rawHeaders;
    for (let index = 0; index < raw.length; index += 2) {
      const key = raw[index]!;
      if (key.length === name.length && key.toLowerCase() === name) return raw[index + 1];
    }
    return undefined;
  }

  readBody(limit: number, gate?: LargeBodyGate): Promise<BodyRead> {
    const declared = this.header("content-length");
    return readNodeBody(this.request, limit, gate, declared === undefined ? undefined : Number(declared));
  }

  /**
   * The body as a web stream with the socket's backpressure (nothing is read
   * ahead past its small queue). Not `Readable.toWeb`: on Node 20 its data
   * handler still enqueues after the stream was cancelled (a refused file),
   * an uncaught `ERR_INVALID_STATE` that would take the worker down.
   */
  bodyStream(): ReadableStream<Uint8Array> {
    return nodeBodyStream(this.request);
  }
}

function nodeBodyStream(request: IncomingMessage): ReadableStream<Uint8Array> {
  let settled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      request.on("data", (chunk: Buffer) => {
        if (settled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) request.pause();
      });
      request.once("end", () => {
        if (settled) return;
        settled = true;
        controller.close();
      });
      request.once("error", (error) => {
        if (settled) return;
        settled = true;
        controller.error(error);
      });
      request.once("close", () => {
        if (settled) return;
        settled = true;
        controller.error(new Error("the request body ended before it was complete"));
      });
    },
    pull() {
      request.resume();
    },
    cancel() {
      // The rest stays unread; the answer then closes the connection.
      settled = true;
      request.pause();
    },
  });
}

/** A Node request as the worker reads it; `signal` aborts when the client disconnects before the answer is sent. */
export function callFromNode(request: IncomingMessage, response: ServerResponse): IncomingCall {
  return new NodeCall(request, response);
}

/** Sends an answer, closing the connection after it when the request body was left unread. */
export function sendNodeAnswer(response: ServerResponse, answer: Answer): void {
  if (answer.stream) return sendNodeStream(response, answer, answer.stream);
  if (response.destroyed) return;
  const headers: Record<string, string | number> = { ...answer.headers, "content-length": answer.body.byteLength };
  if (answer.closeConnection) headers.connection = "close";
  response.writeHead(answer.status, headers).end(answer.body);
}

/**
 * Sends a streamed answer (the live view's events) chunk by chunk, waiting
 * for the socket to drain before reading more, so a slow viewer makes the
 * stream drop frames instead of filling memory. The stream is cancelled when
 * the client goes away.
 */
function sendNodeStream(response: ServerResponse, answer: Answer, stream: ReadableStream<Uint8Array>): void {
  const reader = stream.getReader();
  if (response.destroyed) {
    void reader.cancel().catch(() => undefined);
    return;
  }
  response.on("close", () => void reader.cancel().catch(() => undefined));
  response.writeHead(answer.status, answer.headers);
  response.flushHeaders();
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || response.destroyed) break;
      if (!response.write(value)) await new Promise((resolve) => response.once("drain", resolve).once("close", resolve));
    }
    response.end();
  })().catch(() => response.destroy());
}
