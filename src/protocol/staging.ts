import * as v from "valibot";
import { uploadFileEntries } from "./command-fields.js";
import { limits } from "./limits.js";
import { nonEmptyString } from "./fields.js";
import { ValidationError } from "../errors.js";

/**
 * Staged files (`stageFile`): a file too large for the 4 MiB command path,
 * handed over by the host as bytes or a stream, put where the session's
 * browser can read it by the provider's own file API, then set into a file
 * input by an `upload` command with `files: [{ staged: fileId }]`.
 */

const isStream = (value: unknown): value is ReadableStream<Uint8Array> =>
  typeof value === "object" && value !== null && typeof (value as ReadableStream).getReader === "function";

/** What a host hands over to stage one file: exactly one of `bytes` and `stream`, never a path. */
export const StageFileSchema = v.pipe(
  v.strictObject({
    name: uploadFileEntries.name,
    mimeType: v.optional(nonEmptyString(limits.staging.mimeTypeLength, "MIME type")),
    bytes: v.optional(v.instance(Uint8Array, "expected the file's bytes as a Uint8Array (a path or a string is never read)")),
    stream: v.optional(v.custom<ReadableStream<Uint8Array>>(isStream, "expected a ReadableStream of the file's bytes (a path or a string is never read)")),
  }, "expected a file { name, mimeType?, bytes | stream }"),
  v.check((file) => (file.bytes === undefined) !== (file.stream === undefined), "expected exactly one of bytes and stream"),
);

/** A file to stage, as the host hands it over. */
export type StageFileInput = v.InferInput<typeof StageFileSchema>;

/** A staged file: the id an `upload` command names it by, its name and its size in bytes. */
export const StagedFileSchema = v.looseObject({
  fileId: v.string(),
  name: v.string(),
  size: v.number(),
});
export type StagedFile = v.InferOutput<typeof StagedFileSchema>;

/** Cancels a refused file's stream (`input.stream`, when it is one), so the host's producer is not left waiting. */
export async function cancelRefusedStream(input: unknown): Promise<void> {
  const stream = (input as { stream?: unknown } | null)?.stream;
  if (stream && typeof (stream as ReadableStream).cancel === "function") await (stream as ReadableStream).cancel().catch(() => undefined);
}

/**
 * The chunks of a host's stream, checked as they come: each must be a
 * `Uint8Array` (`ValidationError` naming `file.stream`) and all together at
 * most `maxBytes` (`tooLarge()` is thrown). A refused stream is cancelled.
 */
export async function* boundedChunks(stream: ReadableStream<Uint8Array>, maxBytes: number, tooLarge: () => Error): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  const reader = stream.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (!(value instanceof Uint8Array)) {
      await reader.cancel().catch(() => undefined);
      throw new ValidationError("file.stream", "expected a stream of Uint8Array chunks");
    }
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    yield value as Uint8Array<ArrayBuffer>;
  }
}
