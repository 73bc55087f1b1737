import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserNotFoundError, ProfileInUseError, ValidationError } from "../../src/errors.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { chromiumEnvironment, createLocalProvider, findChromium } from "../../src/providers/local/index.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

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
        expect(environ).toMatch(/(^|\0)HOME=[^\0]*station-browser-home-/);
      }
    } finally {
      await adapter.close(handle);
      await adapter.shutdown();
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
