/**
 * The worker's client: the README's snippet, as one script. It needs a
 * running worker, e.g. the README's
 *
 *   STATION_EXECUTION_TOKEN=… STATION_TENANT_KEYS="<tenant key>=acme" npm run worker -- --host 127.0.0.1 --port 8931 --station-id local
 *   STATION_API_KEY=<tenant key> STATION_EXECUTION_TOKEN=… npm run example:worker-client
 *
 * STATION_WORKER_URL and STATION_ID default to that worker. The worker's
 * browser opens a page this script serves itself on 127.0.0.1 (`page`).
 */
import { BrowserUseClient } from "../src/agent.js";
import { serveExamplePage } from "./support/example-page.js";

const page = await serveExamplePage();
try {
  const baseUrl = process.env.STATION_WORKER_URL ?? "http://127.0.0.1:8931";
  const stationId = process.env.STATION_ID ?? "local";
  const client = new BrowserUseClient({ baseUrl, stationId, apiKey: process.env.STATION_API_KEY! }); // a tenant key
  const { id } = await client.open({ openTag: crypto.randomUUID() });
  const navigated = await client.execute(id, { op: "navigate", url: page.url });
  console.log(`tenant session ${id}: navigated to "${navigated.title}"`);
  // Operator access (every tenant's sessions, reconcileAll): the execution token on the operator route.
  const operator = new BrowserUseClient({ baseUrl, stationId, apiKey: process.env.STATION_EXECUTION_TOKEN!, operator: true });
  console.log(`the operator sees ${(await operator.list()).some((session) => session.id === id) ? "the tenant's session" : "no such session"}`);
  await client.close(id);
} finally {
  await page.close();
}
