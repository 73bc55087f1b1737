import { createWriteStream, openAsBlob } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { finished } from "node:stream/promises";
import { CapacityError, NotImplementedError, ValidationError } from "../errors.js";
import { limits } from "../protocol/limits.js";
import { parseWith } from "../protocol/parse.js";
import { StageFileSchema, boundedChunks, cancelRefusedStream, type StageFileInput, type StagedFile } from "../protocol/staging.js";
import type { BrowserProvider } from "../providers/types.js";
import type { EngineSession } from "./session.js";

/**
 * Stages one file for a session: the host's bytes or stream are written to a
 * private spool directory on this machine, counted as they arrive (past
 * `maxBytes` the stream is cancelled and nothing is kept), then handed to the
 * provider's file API as a file-backed Blob; the spool is removed after. The
 * session keeps the path the provider answered, for `upload { staged }`.
 *
 * @throws {NotImplementedError} when the provider has no file API.
 * @throws {ValidationError} for a malformed file or one over `maxBytes` (naming the field).
 * @throws {CapacityError} when the session already holds its limit of staged files.
 */
export async function stageFile(
  session: EngineSession,
  provider: BrowserProvider,
  input: StageFileInput,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<StagedFile> {
  if (!provider.files) {
    await cancelRefusedStream(input);
    throw new NotImplementedError(`stageFile: the ${provider.name} provider has no file API, so files cannot be staged for session ${session.id}`);
  }
  let file: ReturnType<typeof parseStageFile>;
  try {
    file = parseStageFile(input);
    session.assertOpen();
  } catch (error) {
    await cancelRefusedStream(input);
    throw error;
  }
  const inFlight = staging.get(session) ?? 0;
  if (session.staged.size + inFlight >= limits.staging.filesPerSession) {
    await cancelRefusedStream(file);
    throw new CapacityError(`stageFile: session ${session.id} already holds ${limits.staging.filesPerSession} staged files`);
  }
  staging.set(session, inFlight + 1);
  const mimeType = file.mimeType ?? "application/octet-stream";
  let spool: string | undefined;
  try {
    spool = await mkdtemp(join(tmpdir(), "station-stage-"));
    const spooled = join(spool, "file");
    const size = await spoolTo(spooled, file, maxBytes);
    const data = await openAsBlob(spooled, { type: mimeType });
    const { path } = await provider.files.stage(session.id, { name: file.name, mimeType, data }, signal);
    session.assertOpen();
    const fileId = `file_${crypto.randomUUID()}`;
    session.staged.set(fileId, { name: file.name, size, path });
    return { fileId, name: file.name, size };
  } finally {
    staging.set(session, (staging.get(session) ?? 1) - 1);
    if (spool) await rm(spool, { recursive: true, force: true });
  }
}

/** Stagings under way per session, counted against its staged-file limit. */
const staging = new WeakMap<EngineSession, number>();

const parseStageFile = (input: StageFileInput) => parseWith(StageFileSchema, input, "file");

/** Writes the file's bytes to `path`, refusing (and cancelling the stream) past `maxBytes`; returns the size. */
async function spoolTo(path: string, file: { bytes?: Uint8Array | undefined; stream?: ReadableStream<Uint8Array> | undefined }, maxBytes: number): Promise<number> {
  const tooLarge = (what: string) => new ValidationError(`file.${what}`, `larger than ${maxBytes} bytes, the staging limit`);
  if (file.bytes && file.bytes.byteLength > maxBytes) throw tooLarge("bytes");
  const out = createWriteStream(path, { flags: "wx", mode: 0o600 });
  let size = 0;
  try {
    if (file.bytes) {
      size = file.bytes.byteLength;
      await write(out, file.bytes);
    } else {
      for await (const chunk of boundedChunks(file.stream!, maxBytes, () => tooLarge("stream"))) {
        size += chunk.byteLength;
        await write(out, chunk);
      }
    }
    out.end();
    await finished(out);
    return size;
  } catch (error) {
    out.destroy();
    throw error;
  }
}

/** Writes one chunk, waiting for the stream to drain so memory stays at one chunk. */
function write(out: ReturnType<typeof createWriteStream>, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(chunk, (error) => (error ? reject(error) : resolve()));
  });
}
