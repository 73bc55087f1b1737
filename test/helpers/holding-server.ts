import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A page server that records every request and never answers the paths
 * under `/hold` until the test ends: a form POST, a navigation or an image
 * whose answer outlasts any command's timeout. The other paths serve `pages`.
 */
export interface HoldingServer {
  origin: string;
  url(path: string): string;
  /** Requests seen, as "METHOD path". */
  requests: string[];
  /** Resolves once a request matching "METHOD path" has arrived. */
  arrived(request: string): Promise<void>;
  /** Answers the held requests of `path` (under `/hold`) with an empty 200. */
  release(path: string): void;
  close(): Promise<void>;
}

/** A page, or a raw answer (a redirect: `{ status: 302, headers: { location } }`). */
export type HeldPage = string | { status: number; headers: Record<string, string>; body?: string } | { endless: true };

export async function startHoldingServer(pages: Record<string, HeldPage>): Promise<HoldingServer> {
  const requests: string[] = [];
  const held: { path: string; response: ServerResponse }[] = [];
  const waiting: { request: string; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const seen = `${request.method} ${path}`;
    requests.push(seen);
    for (const waiter of waiting.filter((entry) => entry.request === seen)) waiter.resolve();
    request.resume();
    if (path.startsWith("/hold")) {
      held.push({ path, response });
      return;
    }
    const page = pages[path];
    if (typeof page === "object" && "endless" in page) {
      // A download that never ends: 64 KiB every 5 ms until the client goes away.
      response.writeHead(200, { "content-type": "application/octet-stream", "content-disposition": 'attachment; filename="endless.bin"' });
      const chunk = new Uint8Array(64 * 1024).fill(0x62);
      const timer = setInterval(() => response.write(chunk), 5);
      request.socket.on("close", () => clearInterval(timer));
      return;
    }
    if (typeof page === "object") {
      response.writeHead(page.status, page.headers);
      response.end(page.body ?? "");
      return;
    }
    response.writeHead(page === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" });
    response.end(page ?? "<title>not found</title>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    url: (path) => `${origin}${path}`,
    arrived: (request) =>
      requests.includes(request) ? Promise.resolve() : new Promise((resolve) => waiting.push({ request, resolve })),
    release(path) {
      for (const entry of held.filter((each) => each.path === path)) {
        held.splice(held.indexOf(entry), 1);
        entry.response.writeHead(200, { "content-type": "text/plain" }).end("");
      }
    },
    close: () =>
      new Promise((resolve) => {
        for (const { response } of held) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
