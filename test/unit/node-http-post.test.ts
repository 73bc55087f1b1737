import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { agents, nodeHttpPost } from "../../src/node/http-post.js";
import { BodyTooLarge } from "../../src/client/read-body.js";

/**
 * The client's node:http poster (src/node/http-post.ts) against real HTTP
 * servers on 127.0.0.1: its idle connections are kept as undici keeps
 * fetch's (the server's announced timeout less 1 s, 4 s when none is
 * announced), calls reuse them, and a body over the limit is refused.
 */
let server: Server | undefined;
const connections: Socket[] = [];

async function serve(keepAliveTimeout: number, answer: string | ((response: ServerResponse) => void) = '{"data":[]}'): Promise<string> {
  server = createServer((_request, response) =>
    typeof answer === "string" ? response.writeHead(200, { "content-type": "application/json" }).end(answer) : answer(response),
  );
  server.keepAliveTimeout = keepAliveTimeout;
  server.on("connection", (socket) => connections.push(socket));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
}

afterEach(async () => {
  connections.length = 0;
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

const post = (url: string, limit = 1024) => nodeHttpPost({ url, headers: { "content-type": "application/json" }, body: "{}", limit, signal: new AbortController().signal });
/** The idle connections the http agent keeps for `url`'s origin. */
const idle = (url: string) => Object.entries(agents.http.freeSockets).flatMap(([name, sockets]) => (name.startsWith(new URL(url).host) ? (sockets ?? []) : []));

describe("node:http poster", () => {
  it("keeps an idle connection for the server's announced timeout less a second, and reuses it", async () => {
    const url = await serve(60_000);
    await expect(post(url)).resolves.toEqual({ status: 200, contentType: "application/json", text: '{"data":[]}' });
    await expect.poll(() => idle(url).length).toBe(1);
    expect(idle(url)[0]!.timeout).toBe(59_000);
    await post(url);
    await post(url);
    expect(connections).toHaveLength(1);
  });

  it("keeps one for 4 s when the server announces no timeout, as undici does", async () => {
    // keepAliveTimeout 0: Node's server keeps the connection but sends no Keep-Alive header.
    const url = await serve(0);
    const answered = await post(url);
    expect(answered.status).toBe(200);
    await expect.poll(() => idle(url).length).toBe(1);
    expect(idle(url)[0]!.timeout).toBe(4_000);
  });

  it("refuses an answer over its limit, declared or streamed, with the status", async () => {
    const declared = await serve(5_000, "x".repeat(2048));
    const error = await post(declared).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BodyTooLarge);
    expect(error).toMatchObject({ limit: 1024, status: 200 });
    await new Promise((resolve) => server!.close(resolve));
    // Chunked, no content-length: refused once 1 KiB has arrived, though the answer never ends.
    const streamed = await serve(5_000, (response) => {
      response.writeHead(503, { "content-type": "text/html" });
      response.write("y".repeat(700));
      response.write("y".repeat(700));
    });
    await expect(post(streamed)).rejects.toMatchObject({ limit: 1024, status: 503 });
  });

  it("rejects an answer cut off before its end", async () => {
    const url = await serve(5_000, (response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      response.write('{"data":[', () => response.socket?.destroy());
    });
    await expect(post(url)).rejects.toThrow(/aborted|closed before the whole answer/);
  });
});
