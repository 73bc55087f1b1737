/**
 * Local Chromium for the CDP engine: a headless Chromium started with
 * `--remote-debugging-port=0` on 127.0.0.1 (the closed-network settings of
 * the local provider), whose browser WebSocket URL a CDP client connects to;
 * and {@link createLocalCdpProvider}, a provider that runs one such Chromium
 * per session. Node only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NotFoundError, ValidationError } from "../../errors.js";
import type { BrowserProvider, ProviderSession } from "../types.js";
import { createDownloadFolders } from "./download-folder.js";
import { findChromium } from "./find-chromium.js";
import { closedNetworkArgs } from "./launch-settings.js";

export interface CdpChromium {
  /** `ws://127.0.0.1:<port>/devtools/browser/<id>`. */
  wsUrl: string;
  port: number;
  process: ChildProcess;
  /** Its profile directory (removed on close) and working directory; its downloads go to `downloads/` inside. */
  userDataDir: string;
  /** True while the process runs. */
  alive(): boolean;
  close(): Promise<void>;
}

/** Options of {@link launchCdpChromium}. */
export interface LaunchCdpChromiumOptions {
  /**
   * More Chromium flags, after the launcher's own (each `--name` or
   * `--name=value`), e.g. `--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1`.
   * The flags the launcher sets for the CDP endpoint and profile are refused.
   */
  args?: readonly string[];
}

/** Flags the launcher owns: where CDP listens and which profile it uses. */
const launcherFlags = /^--(?:remote-debugging-(?:address|port|pipe)|user-data-dir)(?:=|$)/;

function readArgs(args: readonly string[]): string[] {
  return args.map((arg, index) => {
    if (typeof arg !== "string" || !/^--[a-z0-9][a-z0-9-]*(?:=|$)/i.test(arg)) {
      throw new ValidationError(`options.args[${index}]`, "expected a Chromium flag, --name or --name=value");
    }
    if (launcherFlags.test(arg)) throw new ValidationError(`options.args[${index}]`, `${arg.split("=")[0]} is set by the launcher`);
    return arg;
  });
}

/** Starts a headless Chromium listening for CDP on a free loopback port (its own profile directory, removed on close). */
export async function launchCdpChromium(options: LaunchCdpChromiumOptions = {}): Promise<CdpChromium> {
  const extraArgs = readArgs(options.args ?? []);
  const userDataDir = await mkdtemp(join(tmpdir(), "station-cdp-"));
  const child = spawn(
    findChromium(),
    [
      "--headless=new",
      "--no-sandbox",
      // As Playwright launches headless Chromium: layout (element boxes) is the same under both engines.
      "--hide-scrollbars",
      "--remote-debugging-address=127.0.0.1",
      "--remote-debugging-port=0",
      // As Playwright launches it: windows a page opens are the engine's to track and cap, not the popup blocker's.
      "--disable-popup-blocking",
      `--user-data-dir=${userDataDir}`,
      ...closedNetworkArgs,
      ...extraArgs,
      "about:blank",
    ],
    // Run in its profile directory: a relative downloadPath (Browserbase's "downloads") resolves inside it.
    { stdio: ["ignore", "ignore", "pipe"], cwd: userDataDir, env: { PATH: process.env.PATH ?? "", HOME: userDataDir } },
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
    userDataDir,
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

/**
 * A provider of local Chromium sessions for the CDP engine: each `create`
 * starts a Chromium of its own and hands out its `cdpUrl`; `release` ends it.
 * Its downloads are saved in that Chromium's profile directory (`downloads/`),
 * removed with it.
 *
 * @example
 * ```ts
 * const adapter = new CdpBrowserAdapter({ provider: createLocalCdpProvider(), webSocket: nodeWebSocket });
 * ```
 */
export function createLocalCdpProvider(): BrowserProvider & { shutdown(): Promise<void> } {
  const running = new Map<string, { browser: CdpChromium; session: ProviderSession }>();
  const downloads = createDownloadFolders(async (sessionId) => {
    const entry = running.get(sessionId);
    if (!entry) throw new NotFoundError(`local session ${sessionId} is not running`);
    return join(entry.browser.userDataDir, "downloads");
  });
  return {
    name: "local",
    downloads,
    async create(request) {
      const browser = await launchCdpChromium();
      const session: ProviderSession = { id: `local-cdp-${randomUUID()}`, status: "RUNNING", cdpUrl: browser.wsUrl, openTag: request.openTag, createdAt: new Date().toISOString() };
      running.set(session.id, { browser, session });
      return session;
    },
    async get(id) {
      const entry = running.get(id);
      return entry && entry.browser.alive() ? entry.session : undefined;
    },
    async release(id) {
      const entry = running.get(id);
      running.delete(id);
      await entry?.browser.close();
    },
    async find(openTag) {
      return [...running.values()].filter((entry) => entry.session.openTag === openTag && entry.browser.alive()).map((entry) => entry.session);
    },
    async shutdown() {
      await Promise.all([...running.keys()].map((id) => this.release(id)));
    },
  };
}
