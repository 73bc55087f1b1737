import type { Answer } from "./answers.js";
import { bodyMeter, type BodyRead, type LargeBodyGate } from "./body.js";
import type { IncomingCall } from "./incoming.js";

/** Reads a web stream up to `limit` bytes, cancelling it as soon as it runs over. */
export async function readStreamBody(stream: ReadableStream<Uint8Array> | null, limit: number, gate?: LargeBodyGate): Promise<BodyRead> {
  if (!stream) return { ok: true, bytes: new Uint8Array(0) };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  const stop = bodyMeter(limit, gate);
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    const reason = stop(size);
    if (reason) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, receivedAtLeast: size, reason };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/** A standard `Request` as the worker reads it. */
export function callFromRequest(request: Request): IncomingCall {
  const url = new URL(request.url);
  return {
    method: request.method,
    pathname: url.pathname,
    query: url.searchParams,
    header: (name) => request.headers.get(name) ?? undefined,
    readBody: (limit, gate) => readStreamBody(request.body, limit, gate),
    bodyStream: () => request.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }),
    signal: request.signal,
  };
}

/** An answer as a standard `Response`. */
export function answerToResponse(answer: Answer): Response {
  return new Response(answer.stream ?? answer.body, { status: answer.status, headers: answer.headers });
}
