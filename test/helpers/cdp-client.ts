/** What the tests of the neutral CDP client (src/cdp/) share: a connection to a real Chromium over `ws`, and a fresh page on it. */
import { connectCdp, type CdpConnection, type CdpConnectOptions, type CdpSession } from "../../src/cdp/index.js";
import { nodeWebSocket } from "../../src/engine/node-websocket.js";

/** Connects to `wsUrl` with the Node side's `ws` socket (Node 20 has no global WebSocket). */
export function connectOverWs(wsUrl: string, options: CdpConnectOptions = {}): Promise<CdpConnection> {
  return connectCdp(wsUrl, { webSocket: nodeWebSocket, ...options });
}

/** A new about:blank page target, attached flattened, with Page and Runtime enabled. */
export async function openPage(connection: CdpConnection): Promise<{ page: CdpSession; targetId: string }> {
  const { targetId } = await connection.browser.send("Target.createTarget", { url: "about:blank" });
  const page = await connection.attach(targetId);
  await Promise.all([page.send("Page.enable"), page.send("Runtime.enable")]);
  return { page, targetId };
}

/** Navigates `page` to `url` and resolves once its load event fired. */
export async function navigate(page: CdpSession, url: string): Promise<void> {
  const loaded = page.waitForEvent("Page.loadEventFired");
  const { errorText } = await page.send("Page.navigate", { url });
  if (errorText) throw new Error(`navigation to ${url} failed: ${errorText}`);
  await loaded;
}

/** Evaluates `expression` on `session` and returns its value. */
export async function evaluate(session: CdpSession, expression: string): Promise<unknown> {
  const { result, exceptionDetails } = await session.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
  if (exceptionDetails) throw new Error(`${expression} threw: ${exceptionDetails.text}`);
  return result.value;
}

/** An expression whose promise never settles: a call the browser never answers. */
export const neverSettles = "new Promise(() => {})";
