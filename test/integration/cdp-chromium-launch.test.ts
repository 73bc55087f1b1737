import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CdpBrowserAdapter } from "../../src/cdp/adapter/index.js";
import { nodeWebSocket } from "../../src/engine/node-websocket.js";
import { isValidationError } from "../../src/errors.js";
import { launchCdpChromium, type CdpChromium } from "../../src/providers/local/cdp-chromium.js";
import { sharedChromiumProvider } from "../helpers/cdp-engine.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

/** `launchCdpChromium({ args })`: more Chromium flags (bench:observe maps every host but 127.0.0.1 to "not found" with one). */
describe("launchCdpChromium args", () => {
  let chromium: CdpChromium;
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
    chromium = await launchCdpChromium({ args: ["--host-resolver-rules=MAP station-launch.test 127.0.0.1"] });
  });
  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });

  it("hands the flags to Chromium: a host mapped by --host-resolver-rules reaches the local server", async () => {
    const adapter = new CdpBrowserAdapter({ provider: sharedChromiumProvider(chromium.wsUrl), webSocket: nodeWebSocket });
    try {
      const handle = await adapter.open();
      const port = new URL(server.origin).port;
      const result = await adapter.execute(handle, { op: "navigate", url: `http://station-launch.test:${port}/index.html` });
      expect(result).toMatchObject({ ok: true, url: `http://station-launch.test:${port}/index.html` });
      expect(server.requests).toContain("GET /index.html");
    } finally {
      await adapter.shutdown();
    }
  });

  it("refuses what is not a flag, and the flags the launcher sets itself, naming the entry", async () => {
    const refused = async (args: string[]) => launchCdpChromium({ args }).then(
      async (started) => {
        await started.close();
        throw new Error("launched");
      },
      (error: unknown) => error,
    );
    const notFlag = await refused(["--mute-audio", "about:blank"]);
    expect(isValidationError(notFlag) && notFlag.field).toBe("options.args[1]");
    const owned = await refused(["--remote-debugging-port=9222"]);
    expect(isValidationError(owned) && owned.message).toMatch(/options\.args\[0\]: --remote-debugging-port is set by the launcher/);
    const profile = await refused(["--user-data-dir=/tmp/x"]);
    expect(isValidationError(profile) && profile.field).toBe("options.args[0]");
  });
});
