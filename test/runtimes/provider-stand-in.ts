/**
 * Browserbase and Steel at their wire format on a real socket (127.0.0.1),
 * for runtimes whose fetch msw cannot intercept (workerd): the msw handlers
 * of test/helpers answer, under `/browserbase` and `/steel`. Their sessions
 * hand out `cdpUrl` (a local Chromium's DevTools URL) as `connectUrl` and
 * `websocketUrl`, so a CDP engine in the runtime drives them for real.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getResponse } from "msw";
import { baseURL as browserbaseBase, createBrowserbaseMock, type BrowserbaseMock } from "../helpers/browserbase-mock.js";
import { createFakeSteel, steelBase, type FakeSteel } from "../helpers/steel-mock.js";

export interface ProviderStandIn {
  /** `http://127.0.0.1:<port>`: the Browserbase API is at `/browserbase`, Steel's at `/steel`. */
  origin: string;
  browserbase: BrowserbaseMock;
  steel: FakeSteel;
  close(): Promise<void>;
}

export async function startProviderStandIn(options: { browserbaseApiKey: string; steelApiKey: string; cdpUrl: string }): Promise<ProviderStandIn> {
  const browserbase = createBrowserbaseMock({ apiKey: options.browserbaseApiKey, connectUrl: options.cdpUrl });
  const steel = createFakeSteel({ apiKey: options.steelApiKey, websocketUrl: () => options.cdpUrl });
  const fakes = [
    { prefix: "/browserbase", base: browserbaseBase, handlers: browserbase.handlers },
    { prefix: "/steel", base: steelBase, handlers: steel.handlers },
  ];
  const server = createServer(async (request, response) => {
    const fake = fakes.find(({ prefix }) => request.url?.startsWith(`${prefix}/`));
    if (fake === undefined) {
      response.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value);
    const method = request.method ?? "GET";
    const forwarded = new Request(fake.base + request.url!.slice(fake.prefix.length), {
      method,
      headers,
      ...(method === "GET" || method === "HEAD" ? {} : { body: Buffer.concat(chunks) }),
    });
    const answer = (await getResponse(fake.handlers, forwarded)) ?? new Response("no handler", { status: 500 });
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    browserbase,
    steel,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
