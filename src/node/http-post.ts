/**
 * The client's poster on Node (see `src/client/http-post.ts`): one POST over
 * `node:http` or `node:https`, the answer read in full and bounded. Node's
 * fetch builds a `Request`, a `Response` and web streams for each call: on
 * loopback that is ~0.5 ms per call against ~0.2 ms here, which was most of
 * the client's cost per action.
 *
 * Kept-alive connections, as Node's fetch (undici) keeps them: an idle
 * connection is kept for the timeout the server announces
 * (`Keep-Alive: timeout=N`, the worker says 60 s) less a second, at most
 * 10 minutes, and 4 s when it announces none. Node's agent closes it before
 * the server does, so a POST is not written to a connection the server is
 * closing (Node's global agent would keep it 5 s at most: the next call after
 * a model turn of some seconds would connect, on TLS handshake, again). A
 * failure after the request may have left is classified by the client as
 * for fetch (`neverSent` reads the error's `code`).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { BodyTooLarge } from "../client/read-body.js";
import type { HttpPost, PostAnswer } from "../client/http-post.js";

/** Idle connections whose server announced no keep-alive timeout (kept 4 s, as undici keeps them). */
const unannounced = new WeakSet<Socket>();
const unannouncedKeepMs = 4_000;

/** An agent that keeps idle connections as undici does (Node's agent already takes the server's announced timeout less 1 s, capped by `timeout`). */
function keepingAgent<Base extends typeof HttpAgent | typeof HttpsAgent>(base: Base): InstanceType<Base> {
  const Keeping = class extends (base as typeof HttpAgent) {
    override keepSocketAlive(socket: Socket): boolean {
      // Node returns whether the socket may be kept (@types/node says void).
      if (!(super.keepSocketAlive(socket) as unknown as boolean)) return false;
      if (unannounced.has(socket)) socket.setTimeout(unannouncedKeepMs);
      return true;
    }
  };
  return new Keeping({ keepAlive: true, timeout: 600_000 }) as InstanceType<Base>;
}

/** The agents of every node:http POST (exported for the tests, which read their idle connections). */
export const agents = { http: keepingAgent(HttpAgent), https: keepingAgent(HttpsAgent) };

/** Thrown when the answer's body ends before it is complete (the connection was cut). */
class AnswerCutOff extends Error {
  override name = "AnswerCutOff";
  constructor() {
    super("the connection closed before the whole answer arrived");
  }
}

export const nodeHttpPost: HttpPost = ({ url, headers, body, limit, signal }) =>
  new Promise<PostAnswer>((resolve, reject) => {
    signal.throwIfAborted();
    const target = new URL(url);
    const secure = target.protocol === "https:";
    const options = { method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, signal };
    const answered = (response: IncomingMessage) => {
      if (response.headers["keep-alive"] === undefined) unannounced.add(response.socket);
      else unannounced.delete(response.socket);
      read(response, limit).then(resolve, reject);
    };
    const request = secure ? httpsRequest(target, { ...options, agent: agents.https }, answered) : httpRequest(target, { ...options, agent: agents.http }, answered);
    request.once("error", reject);
    request.end(body);
  });

function read(response: IncomingMessage, limit: number): Promise<PostAnswer> {
  const status = response.statusCode ?? 0;
  const contentType = response.headers["content-type"];
  return new Promise<PostAnswer>((resolve, reject) => {
    const tooLarge = () => {
      reject(new BodyTooLarge(limit, status));
      response.destroy();
    };
    if (Number(response.headers["content-length"] ?? Number.NaN) > limit) return tooLarge();
    const chunks: Buffer[] = [];
    let total = 0;
    response.on("data", (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > limit) return tooLarge();
      chunks.push(chunk);
    });
    response.once("end", () => resolve({ status, contentType, text: Buffer.concat(chunks, total).toString("utf8") }));
    response.once("error", reject);
    // Cut off (or aborted by the signal): 'close' without a complete message.
    response.once("close", () => {
      if (!response.complete) reject(new AnswerCutOff());
    });
  });
}
