import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserNotFoundError, ProfileInUseError, ValidationError } from "../../src/errors.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { chromiumEnvironment, createLocalProvider, findChromium } from "../../src/providers/local/index.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { processes } from "../helpers/processes.js";
import { processStatus } from "../../src/stores/process-status.js";

let server: FixtureServer;
let profileRootDir: string;

beforeAll(async () => {
  server = await startFixtureServer();
  profileRootDir = await mkdtemp(join(tmpdir(), "station-profiles-"));
});
afterAll(async () => {
  await server.close();
  await rm(profileRootDir, { recursive: true, force: true });
});

describe("findChromium", () => {
  it("finds a Chromium on this machine", () => {
    expect(findChromium()).toMatch(/chrom/i);
  });

  it("refuses a CHROMIUM_PATH that is not an executable, naming it", () => {
    const error = (() => {
      try {
        return findChromium({ CHROMIUM_PATH: "/nonexistent/chromium" });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(BrowserNotFoundError);
    expect((error as Error).message).toMatch(/\/nonexistent\/chromium/);
  });
});

describe("launch environment", () => {
  it("passes only allowlisted variables and a private home", () => {
    const environment = chromiumEnvironment(
      { PATH: "/usr/bin", LANG: "C.UTF-8", STATION_EXECUTION_TOKEN: "x".repeat(40), LD_PRELOAD: "/evil.so", NODE_OPTIONS: "--inspect", HOME: "/root" },
      "/tmp/private-home",
    );
    expect(environment).toEqual({
      PATH: "/usr/bin",
      LANG: "C.UTF-8",
      HOME: "/tmp/private-home",
      XDG_CONFIG_HOME: "/tmp/private-home/.config",
      XDG_CACHE_HOME: "/tmp/private-home/.cache",
    });
  });

  it("launches Chromium processes that carry no worker secret, LD_PRELOAD or NODE_OPTIONS", async () => {
    const marker = `/nonexistent-fontconfig-${crypto.randomUUID()}`;
    const provider = createLocalProvider({
      environment: {
        PATH: process.env.PATH,
        FONTCONFIG_PATH: marker,
        STATION_EXECUTION_TOKEN: "super-secret-token-value-0123456789",
        LD_PRELOAD: "",
        NODE_OPTIONS: "--max-old-space-size=64",
      },
    });
    const adapter = new PlaywrightBrowserAdapter({ provider });
    const handle = await adapter.open();
    try {
      const environments: string[] = [];
      for (const entry of await readdir("/proc")) {
        if (!/^\d+$/.test(entry)) continue;
        const environ = await readFile(`/proc/${entry}/environ`, "utf8").catch(() => "");
        if (environ.includes(marker)) environments.push(environ);
      }
      expect(environments.length).toBeGreaterThan(0);
      for (const environ of environments) {
        expect(environ).not.toContain("super-secret-token-value");
        expect(environ).not.toMatch(/(^|\0)LD_PRELOAD=/);
        expect(environ).not.toMatch(/(^|\0)NODE_OPTIONS=/);
        expect(environ).toMatch(/(^|\0)HOME=[^\0]*\/station-browser-use-\d+\/run-\d+-[^/\0]+\/home(\0|$)/);
      }
    } finally {
      await adapter.close(handle);
      await adapter.shutdown();
    }
  });
});

describe("browser processes per tenant", () => {
  it("shares a browser within a tenant, never across tenants, and closes a tenant's with its last session", async () => {
    const provider = createLocalProvider();
    try {
      const open = async (tenant?: string) => {
        const record = await provider.create({ openTag: crypto.randomUUID(), ...(tenant === undefined ? {} : { tenant }) });
        return { record, browser: (await provider.connect(record)).browser()! };
      };
      const [a1, a2, b1, operator] = [await open("acme"), await open("acme"), await open("globex"), await open()];
      expect(a1.browser).toBe(a2.browser);
      expect(new Set([a1.browser, b1.browser, operator.browser]).size).toBe(3);
      const closedB = new Promise<void>((resolve) => b1.browser.once("disconnected", () => resolve()));
      await provider.release(b1.record.id);
      await closedB;
      expect(a1.browser.isConnected()).toBe(true);
      await provider.release(a1.record.id);
      expect(a2.browser.isConnected()).toBe(true);
      await provider.release(a2.record.id);
      expect(a2.browser.isConnected()).toBe(false);
      await provider.release(operator.record.id);
      // The untenanted browser stays up for the next open.
      expect(operator.browser.isConnected()).toBe(true);
    } finally {
      await provider.shutdown();
    }
  });
});

describe("persistent profiles", () => {
  it("keeps cookies across close and reopen; an ephemeral session does not see them", async () => {
    const adapter = new PlaywrightBrowserAdapter({ provider: createLocalProvider({ profileRootDir }) });
    try {
      const first = await adapter.open({ profileId: "alice" });
      expect(first.profileId).toBe("alice");
      await adapter.execute(first, { op: "navigate", url: server.url("/set-cookie?value=kept-across-restarts") });
      await adapter.close(first);

      const again = await adapter.open({ profileId: "alice" });
      await adapter.execute(again, { op: "navigate", url: server.url("/echo-cookie") });
      const cookie = await adapter.execute(again, { op: "evaluate", expression: "document.querySelector('#cookie').textContent" });
      expect(cookie.value).toBe("session=kept-across-restarts");
      await adapter.close(again);

      const ephemeral = await adapter.open();
      await adapter.execute(ephemeral, { op: "navigate", url: server.url("/echo-cookie") });
      const none = await adapter.execute(ephemeral, { op: "evaluate", expression: "document.querySelector('#cookie').textContent" });
      expect(none.value).toBe("");
      await adapter.close(ephemeral);
    } finally {
      await adapter.shutdown();
    }
  });

  it("opens a profile at most once per owner", async () => {
    const adapter = new PlaywrightBrowserAdapter({ provider: createLocalProvider({ profileRootDir }) });
    try {
      const first = await adapter.open({ profileId: "bob" });
      const error = await adapter.open({ profileId: "bob" }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProfileInUseError);
      expect((error as Error).message).toMatch(/Profile bob is already open/);
      await adapter.close(first);
      const reopened = await adapter.open({ profileId: "bob" });
      await adapter.close(reopened);
    } finally {
      await adapter.shutdown();
    }
  });

  it("refuses profile ids that could escape the profile root, and profiles without a root", async () => {
    const adapter = new PlaywrightBrowserAdapter({ provider: createLocalProvider() });
    try {
      const escape = await adapter.open({ profileId: "../etc" }).catch((caught: unknown) => caught);
      expect(escape).toBeInstanceOf(ValidationError);
      expect((escape as ValidationError).field).toBe("options.profileId");
      const noRoot = await adapter.open({ profileId: "carol" }).catch((caught: unknown) => caught);
      expect(noRoot).toBeInstanceOf(ValidationError);
      expect((noRoot as Error).message).toMatch(/no profileRootDir/);
    } finally {
      await adapter.shutdown();
    }
  });
});

describe("leftovers of a crashed run", () => {
  const exists = (path: string) => stat(path).then(() => true, () => false);
  const childScript = fileURLToPath(new URL("../helpers/local-provider-child.ts", import.meta.url));

  it("removes the temporary profile and home a SIGKILLed run left, and only those", async () => {
    const root = await mkdtemp(join(tmpdir(), "station-leftovers-"));
    // Look-alikes this provider did not make: no owner file, a live owner, an unnamed Playwright profile.
    const noOwner = join(root, "run-4242-unowned");
    const liveOwner = join(root, `run-${process.pid}-alive`);
    const strangerProfile = await mkdtemp(join(tmpdir(), "playwright_chromiumdev_profile-"));
    await mkdir(noOwner);
    await mkdir(liveOwner);
    const processStart = processStatus(process.pid)?.start;
    await writeFile(
      join(liveOwner, "owner.json"),
      JSON.stringify({ marker: "station-browser-use/local-provider", pid: process.pid, processStart, createdAt: new Date().toISOString(), browsers: [] }),
    );
    try {
      const child = spawn(process.execPath, ["--import", "tsx", childScript, root], { stdio: ["ignore", "pipe", "pipe"] });
      let errors = "";
      child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
      const exit = new Promise<void>((resolve) => child.on("exit", () => resolve()));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("READY") && resolve());
        child.on("exit", () => reject(new Error(`the child ended before READY:\n${errors}`)));
      });
      const runName = (await readdir(root)).find((name) => name.startsWith(`run-${child.pid}-`))!;
      const owner = JSON.parse(await readFile(join(root, runName, "owner.json"), "utf8")) as { browsers: { pid: number; profileDir: string }[] };
      const [browser] = owner.browsers;
      expect(browser?.profileDir).toMatch(/playwright_chromiumdev_profile-/);
      child.kill("SIGKILL");
      await exit;
      // Chromium ends once its pipe to the dead parent closes.
      await expect.poll(() => processes().some((info) => info.pid === browser!.pid && info.state !== "Z"), { timeout: 20_000 }).toBe(false);
      expect(await exists(join(root, runName))).toBe(true);
      expect(await exists(browser!.profileDir)).toBe(true);

      const provider = createLocalProvider({ tempRootDir: root });
      try {
        await provider.start();
        expect(await exists(join(root, runName))).toBe(false);
        expect(await exists(browser!.profileDir)).toBe(false);
        for (const untouched of [noOwner, liveOwner, strangerProfile]) expect(await exists(untouched)).toBe(true);
      } finally {
        await provider.shutdown();
      }
      expect((await readdir(root)).sort()).toEqual([liveOwner, noOwner].map((path) => path.slice(root.length + 1)).sort());
    } finally {
      await rm(root, { recursive: true, force: true });
      await rm(strangerProfile, { recursive: true, force: true });
    }
  });

  it("refuses a temporary root that is a symlink, naming the option", async () => {
    const target = await mkdtemp(join(tmpdir(), "station-leftovers-target-"));
    const link = `${target}-link`;
    await symlink(target, link);
    try {
      const provider = createLocalProvider({ tempRootDir: link });
      await expect(provider.start()).rejects.toThrow(/^options\.tempRootDir: .* is not a directory \(or is a symlink\)$/);
      await provider.shutdown();
    } finally {
      await rm(link, { force: true });
      await rm(target, { recursive: true, force: true });
    }
  });
});
