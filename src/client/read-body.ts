const decoder = new TextDecoder();

/** Thrown by {@link readBoundedText} when the body is larger than allowed. */
export class BodyTooLarge {
  constructor(
    readonly limit: number,
    /** The answer's HTTP status. */
    readonly status: number,
  ) {}
}

/**
 * Reads a response body as UTF-8 text, at most `limit` bytes. Aborting
 * `signal` cancels the read; a body cut off by the network rejects.
 */
export async function readBoundedText(response: Response, limit: number, signal: AbortSignal): Promise<string> {
  return decoder.decode(await readBoundedBytes(response, limit, signal));
}

/** Reads a response body's bytes, at most `limit` (else {@link BodyTooLarge}); as {@link readBoundedText}. */
export async function readBoundedBytes(response: Response, limit: number, signal?: AbortSignal): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) {
    void response.body?.cancel().catch(() => undefined);
    throw new BodyTooLarge(limit, response.status);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener("abort", cancel, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        void reader.cancel().catch(() => undefined);
        throw new BodyTooLarge(limit, response.status);
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener("abort", cancel);
  }
  // A cancelled reader ends as if the body were complete: say what happened instead.
  signal?.throwIfAborted();
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
