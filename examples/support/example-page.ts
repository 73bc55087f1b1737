/** A small page the examples serve themselves on 127.0.0.1, so that they need no internet. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** The page's title: what the scripted models look for in the tool results. */
export const examplePageTitle = "Station example page";

const html = `<!doctype html><title>${examplePageTitle}</title>
<h1>Station example page</h1>
<p>A local page for the station-browser-use examples.</p>
<a href="/">More information</a> <button id="go">Go</button>`;

/** A running example page: its URL and how to stop serving it. */
export interface ExamplePage {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  close(): Promise<void>;
}

/** Serves {@link examplePageTitle}'s page on 127.0.0.1 at a free port. */
export async function serveExamplePage(): Promise<ExamplePage> {
  const server = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end(html));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
