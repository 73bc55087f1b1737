/**
 * A local stand-in for the CDP half of a hosted provider: a real Chromium
 * started with `--remote-debugging-port=0`, whose browser WebSocket URL a
 * mocked `create` hands out as `connectUrl` / `websocketUrl`. Driving it
 * through the adapter drives a "Browserbase" or "Steel" session for real.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closedNetworkArgs, findChromium } from "../../src/providers/local/index.js";

export interface CdpChromium {
  /** `ws://127.0.0.1:<port>/devtools/browser/<id>`. */
  wsUrl: string;
  port: number;
  process: ChildProcess;
  /** True while the process runs. */
  alive(): boolean;
  close(): Promise<void>;
}

/** Starts a headless Chromium listening for CDP on a free loopback port. */
export async function startCdpChromium(): Promise<CdpChromium> {
  const userDataDir = await mkdtemp(join(tmpdir(), "station-cdp-"));
  const child = spawn(
    findChromium(),
    [
      "--headless=new",
      "--no-sandbox",
      "--remote-debugging-address=127.0.0.1",
      "--remote-debugging-port=0",
      `--user-data-dir=${userDataDir}`,
      ...closedNetworkArgs,
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe"], env: { PATH: process.env.PATH ?? "", HOME: userDataDir } },
  );
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once("exit", () => ((exited = true), resolve())));
  const wsUrl = await new Promise<string>((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`Chromium printed no DevTools URL: ${seen.slice(-500)}`)), 20_000);
    child.stderr!.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}) before listening: ${seen.slice(-500)}`));
    });
  });
  child.stderr!.resume();
  return {
    wsUrl,
    port: Number(new URL(wsUrl).port),
    process: child,
    alive: () => !exited,
    async close() {
      if (!exited) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exit;
        clearTimeout(timer);
      }
      await rm(userDataDir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
