import type { IncomingMessage, ServerResponse } from "node:http";
import type { Answer } from "./answers.js";
import { bodyMeter, type BodyRead, type LargeBodyGate } from "./body.js";
import type { IncomingCall } from "./incoming.js";

/**
 * Reads a Node request body up to `limit` bytes. Past the limit it stops
 * listening and pauses the stream (dropping what came): the worker answers
 * 413 and closes the connection instead of reading an unbounded body.
 */
export function readNodeBody(request: IncomingMessage, limit: number, gate?: LargeBodyGate): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stop = bodyMeter(limit, gate);
    let size = 0;
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

/** A Node request as the worker reads it; `signal` aborts when the client disconnects before the answer is sent. */
export function callFromNode(request: IncomingMessage, response: ServerResponse): IncomingCall {
  const controller = new AbortController();
  response.on("close", () => {
    if (!response.writableFinished) controller.abort();
  });
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  };
  const [pathname, search = ""] = (request.url ?? "/").split("?", 2) as [string, string?];
  return {
    method: request.method ?? "GET",
    pathname,
    query: new URLSearchParams(search),
    header,
    readBody: (limit, gate) => readNodeBody(request, limit, gate),
    signal: controller.signal,
  };
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
