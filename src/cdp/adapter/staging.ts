/**
 * `stageFile` on the CDP engine, with no local disk (neutral code): the
 * host's bytes, or its stream counted as it arrives (past `maxBytes` the
 * stream is cancelled and nothing is kept), become a `Blob` in memory that
 * goes to the provider's file API (`files.stage`); the provider answers the
 * path on the browser's machine, which the session keeps for
 * `upload { staged }`. Checks and errors are the Playwright engine's
 * (src/engine/stage-file.ts).
 */
import { CapacityError, NotImplementedError, ValidationError } from "../../errors.js";
import { limits } from "../../protocol/limits.js";
import { parseWith } from "../../protocol/parse.js";
import { StageFileSchema, boundedChunks, cancelRefusedStream, type StageFileInput, type StagedFile } from "../../protocol/staging.js";
import type { BrowserProvider } from "../../providers/types.js";

/** A file staged for a session: its name, size, and its path on the browser's machine. */
export interface StagedRecord {
  name: string;
  size: number;
  path: string;
}

/** The staged files of one session, and the stagings under way (counted against the limit). */
export class StagedFiles {
  readonly files = new Map<string, StagedRecord>();
  inFlight = 0;
}

/**
 * Stages one file for session `sessionId` through `provider.files`.
 *
 * @throws {NotImplementedError} when the provider has no file API.
 * @throws {ValidationError} for a malformed file or one over `maxBytes` (naming the field).
 * @throws {CapacityError} when the session already holds its limit of staged files.
 */
export async function stageFile(
  staged: StagedFiles,
  provider: BrowserProvider,
  sessionId: string,
  input: StageFileInput,
  maxBytes: number,
  assertOpen: () => void,
  signal?: AbortSignal,
): Promise<StagedFile> {
  if (!provider.files) {
    await cancelRefusedStream(input);
    throw new NotImplementedError(`stageFile: the ${provider.name} provider has no file API, so files cannot be staged for session ${sessionId}`);
  }
  let file: ReturnType<typeof parseStageFile>;
  try {
    file = parseStageFile(input);
    assertOpen();
  } catch (error) {
    await cancelRefusedStream(input);
    throw error;
  }
  if (staged.files.size + staged.inFlight >= limits.staging.filesPerSession) {
    await cancelRefusedStream(file);
    throw new CapacityError(`stageFile: session ${sessionId} already holds ${limits.staging.filesPerSession} staged files`);
  }
  staged.inFlight++;
  const mimeType = file.mimeType ?? "application/octet-stream";
  try {
    const { data, size } = await collect(file, mimeType, maxBytes);
    const { path } = await provider.files.stage(sessionId, { name: file.name, mimeType, data }, signal);
    assertOpen();
    const fileId = `file_${crypto.randomUUID()}`;
    staged.files.set(fileId, { name: file.name, size, path });
    return { fileId, name: file.name, size };
  } finally {
    staged.inFlight--;
  }
}

const parseStageFile = (input: StageFileInput) => parseWith(StageFileSchema, input, "file");

/** The file's bytes as a Blob, refusing (and cancelling the stream) past `maxBytes`. */
async function collect(file: { bytes?: Uint8Array | undefined; stream?: ReadableStream<Uint8Array> | undefined }, type: string, maxBytes: number): Promise<{ data: Blob; size: number }> {
  const tooLarge = (what: string) => new ValidationError(`file.${what}`, `larger than ${maxBytes} bytes, the staging limit`);
  if (file.bytes) {
    if (file.bytes.byteLength > maxBytes) throw tooLarge("bytes");
    return { data: new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type }), size: file.bytes.byteLength };
  }
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  for await (const chunk of boundedChunks(file.stream!, maxBytes, () => tooLarge("stream"))) {
    size += chunk.byteLength;
    chunks.push(chunk);
  }
  return { data: new Blob(chunks, { type }), size };
}
