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
  return {
    method: request.method ?? "GET",
    pathname: (request.url ?? "/").split("?")[0]!,
    header,
    readBody: (limit, gate) => readNodeBody(request, limit, gate),
    signal: controller.signal,
  };
}

/** Sends an answer, closing the connection after it when the request body was left unread. */
export function sendNodeAnswer(response: ServerResponse, answer: Answer): void {
  if (response.destroyed) return;
  const headers: Record<string, string | number> = { ...answer.headers, "content-length": answer.body.byteLength };
  if (answer.closeConnection) headers.connection = "close";
  response.writeHead(answer.status, headers).end(answer.body);
}
