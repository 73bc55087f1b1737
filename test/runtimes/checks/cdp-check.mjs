/**
 * The CDP client check (Node 22, Deno, Bun, workerd): the neutral CDP client
 * (station-browser-use/cdp, from the installed tarball) connects to a real Chromium's
 * DevTools WebSocket over the runtime's own WebSocket, opens a page,
 * navigates it on 127.0.0.1, evaluates and closes it.
 */
import { connectCdp } from "station-browser-use/cdp";
import { expect } from "./agent-check.mjs";

export async function runCdpCheck(config) {
  const started = performance.now();
  const connection = await connectCdp(config.cdpUrl);
  try {
    const { product } = await connection.browser.send("Browser.getVersion");
    const firstToolResultMs = Math.round(performance.now() - started);
    expect(/Chrome/.test(product), `Browser.getVersion: ${product}`);
    const { targetId } = await connection.browser.send("Target.createTarget", { url: "about:blank" });
    const page = await connection.attach(targetId);
    await page.send("Page.enable");
    const loaded = page.waitForEvent("Page.loadEventFired");
    await page.send("Page.navigate", { url: config.pageUrl });
    await loaded;
    const { result } = await page.send("Runtime.evaluate", { expression: "document.title", returnByValue: true });
    expect(result.value === "Fixture home", `document.title: ${JSON.stringify(result)}`);
    await connection.browser.send("Target.closeTarget", { targetId });
    return { firstToolResultMs, checked: ["connect over the runtime's WebSocket", "attach flattened", "navigate", "load event", "evaluate", "close target"] };
  } finally {
    await connection.close();
  }
}
