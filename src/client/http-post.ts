/**
 * The one HTTP exchange the client's JSON calls make: a POST whose whole
 * answer is read, bounded, with redirects refused. Through `fetch` on every
 * runtime; on Node, the `node` entries install a poster over `node:http`
 * instead (`src/node/http-post.ts`), which takes a third of fetch's time per
 * call on loopback, unless the client was given a `fetch` of its own.
 */
import { readBoundedText, type BodyTooLarge } from "./read-body.js";

/** One POST. */
export interface PostRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Longest answer body read, in bytes: past it the poster rejects with {@link BodyTooLarge}. */
  limit: number;
  /** Aborts the exchange, the read of the answer too. */
  signal: AbortSignal;
}

/** An answer read in full (a redirect's too: the caller refuses it). */
export interface PostAnswer {
  /** 0 for fetch's opaque redirect. */
  status: number;
  contentType: string | undefined;
  text: string;
}

/**
 * Sends a {@link PostRequest}. Rejects with what the runtime threw when the
 * exchange failed (`neverSent` reads its fields), or with {@link BodyTooLarge}.
 */
export type HttpPost = (request: PostRequest) => Promise<PostAnswer>;

/**
 * The poster over `fetch` (redirects not followed). It passes the URL and an
 * init, not a `Request`: fetch builds a `Request` of its own from either, and
 * from a `Request` with a body it pipes that body through one more stream.
 */
export const fetchPost =
  (fetch: typeof globalThis.fetch): HttpPost =>
  async ({ url, headers, body, limit, signal }) => {
    const response = await fetch(url, { method: "POST", headers, body, signal, redirect: "manual" });
    return {
      status: response.type === "opaqueredirect" ? 0 : response.status,
      contentType: response.headers.get("content-type") ?? undefined,
      text: await readBoundedText(response, limit, signal),
    };
  };

let installed: HttpPost | undefined;

/** Makes `post` the poster of every client not given a `fetch` of its own (the Node entries call it as they load); `undefined` goes back to fetch. */
export function installDefaultPost(post: HttpPost | undefined): void {
  installed = post;
}

/** The poster of a client: over its own `fetch` when it was given one, else the installed one, else over the global `fetch`. */
export const postFor = (fetch: typeof globalThis.fetch, ownFetch: boolean): HttpPost => (!ownFetch && installed) || fetchPost(fetch);
