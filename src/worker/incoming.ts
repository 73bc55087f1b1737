import type { ReadBody } from "./body.js";

/** A request as the worker needs it, whichever server received it. */
export interface IncomingCall {
  /** HTTP method. */
  method: string;
  /** The path, without query. */
  pathname: string;
  /** The query string's parameters. */
  query: URLSearchParams;
  /** A request header (lower-case name). */
  header(name: string): string | undefined;
  /** Reads the body up to a byte limit. */
  readBody: ReadBody;
  /** The body as a stream, read as it arrives (staged files); use either this or `readBody`. */
  bodyStream(): ReadableStream<Uint8Array>;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}
