import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const fixtures = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures");

export interface FixtureServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  url(path: string): string;
  close(): Promise<void>;
  /** Requests seen, as "METHOD path". */
  requests: string[];
  /** `/endless-download` responses whose connection the client closed. */
  endlessDownloadsClosed: number;
  /** Resolves when the next request for `pathname` after this call arrives. */
  nextRequest(pathname: string): Promise<void>;
}

type Route = (request: IncomingMessage, response: ServerResponse, url: URL, server: FixtureServer) => void | Promise<void>;

/** Dynamic routes next to the static files in test/fixtures. */
const routes: Record<string, Route> = {
  /** A download that never ends: 16 KiB every 10 ms, no content-length, until the client goes away. */
  "/endless-download": (request, response, _url, server) => {
    response.writeHead(200, { "content-type": "application/octet-stream", "content-disposition": 'attachment; filename="endless.bin"' });
    const chunk = Buffer.alloc(16 * 1024, 0x62);
    const timer = setInterval(() => response.write(chunk), 10);
    request.socket.on("close", () => {
      clearInterval(timer);
      server.endlessDownloadsClosed++;
    });
  },
  "/download": (_request, response, url) => {
    const size = Number(url.searchParams.get("bytes") ?? "1024");
    response.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-disposition": `attachment; filename="${url.searchParams.get("name") ?? "data.bin"}"`,
      "content-length": String(size),
    });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let left = size;
    while (left > 0) {
      const part = chunk.subarray(0, Math.min(left, chunk.length));
      response.write(part);
      left -= part.length;
    }
    response.end();
  },
  "/status": (_request, response, url) => {
    response.writeHead(Number(url.searchParams.get("code") ?? "200"), { "content-type": "text/html" });
    response.end("<title>status</title><p>status page</p>");
  },
  /** A redirect to the path in `to`. */
  "/redirect": (_request, response, url) => {
    response.writeHead(302, { location: url.searchParams.get("to") ?? "/index.html" });
    response.end();
  },
  "/slow": async (_request, response, url) => {
    await new Promise((resolve) => setTimeout(resolve, Number(url.searchParams.get("ms") ?? "500")));
    response.writeHead(200, { "content-type": "text/html" });
    response.end("<title>slow</title><p>slow page</p>");
  },
  /** A page whose title comes `ms` after its response started (it commits at once, its DOMContentLoaded comes then). */
  "/slow-body": async (_request, response, url) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.write("<!doctype html><p>starting</p>");
    await new Promise((resolve) => setTimeout(resolve, Number(url.searchParams.get("ms") ?? "300")));
    response.end("<title>slow body</title><p>slow body page</p>");
  },
  "/set-cookie": (_request, response, url) => {
    response.writeHead(200, {
      "content-type": "text/html",
      "set-cookie": `session=${url.searchParams.get("value") ?? "v"}; Path=/; Max-Age=86400`,
    });
    response.end("<title>cookie set</title>");
  },
  /**
   * The synthetic challenge interstitial (or the fixture named by `page`), served as a Cloudflare
   * challenge is: 403 with `cf-mitigated: challenge`.
   */
  "/challenge": async (_request, response, url) => {
    const page = /^[a-z-]+\.html$/.exec(url.searchParams.get("page") ?? "")?.[0] ?? "challenge-interstitial.html";
    response.writeHead(403, { "content-type": "text/html; charset=utf-8", server: "cloudflare", "cf-mitigated": "challenge" });
    response.end(await readFile(join(fixtures, page)));
  },
  /** A sign-in page answered with 401: a login wall. */
  "/login-wall": (_request, response) => {
    response.writeHead(401, { "content-type": "text/html; charset=utf-8" });
    response.end('<title>Sign in</title><p>Please sign in to continue.</p><form><input name="user"><input name="pass" type="password"></form>');
  },
  /** A site's throttle page: 429 with `retry-after`. */
  "/throttled": (_request, response) => {
    response.writeHead(429, { "content-type": "text/html; charset=utf-8", "retry-after": "120" });
    response.end("<title>Too Many Requests</title><h1>Too many requests</h1><p>Please wait a few minutes before you try again.</p>");
  },
  "/echo-cookie": (request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(`<title>cookie</title><p id="cookie">${request.headers.cookie ?? ""}</p>`);
  },
};

/** Serves test/fixtures (and a few dynamic routes) on 127.0.0.1. */
export async function startFixtureServer(): Promise<FixtureServer> {
  const requests: string[] = [];
  const fixture = { requests, endlessDownloadsClosed: 0 } as FixtureServer;
  const waiters: { pathname: string; resolve: () => void }[] = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    requests.push(`${request.method} ${url.pathname}`);
    for (const waiter of waiters.filter((each) => each.pathname === url.pathname)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const route = routes[url.pathname];
    if (route) return void (await route(request, response, url, fixture));
    const path = normalize(join(fixtures, url.pathname === "/" ? "index.html" : url.pathname));
    if (!path.startsWith(fixtures)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(path);
      const type = path.endsWith(".html") ? "text/html; charset=utf-8" : path.endsWith(".js") ? "text/javascript" : "application/octet-stream";
      response.writeHead(200, { "content-type": type }).end(body);
    } catch {
      response.writeHead(404, { "content-type": "text/html" }).end("<title>not found</title>");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fixture, {
    origin,
    url: (path: string) => `${origin}${path}`,
    nextRequest: (pathname: string) => new Promise<void>((resolve) => waiters.push({ pathname, resolve })),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
