import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workerRoute } from "../../src/protocol/wire.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { chromiumBelow, processes, startCli, stillRunning, waitForStdout, type CliRun } from "../helpers/processes.js";

const token = "cli-operator-token-0123456789abcdef-QQ";

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await fixtures?.close();
});

type Run = CliRun;
const start = (args: string[], environment: Record<string, string>): Run => startCli(args, environment);


/** Processes whose environment holds `needle` (the worker's private Chromium HOME). */
function processesWithEnvironment(needle: string): number[] {
  return processes()
    .filter((info) => {
      try {
        return readFileSync(`/proc/${info.pid}/environ`, "utf8").includes(needle);
      } catch {
        return false;
      }
    })
    .map((info) => info.pid);
}

async function waitForListening(run: Run): Promise<string> {
  return (await waitForStdout(run, /listening on (http:\/\/127\.0\.0\.1:(\d+)) \(station cli\)/))[1]!;
}

async function post(
  origin: string,
  body: unknown,
  route: "operator" | "tenant" = "operator",
): Promise<{ status: number; json: { data?: { id?: string; url?: string } } }> {
  const response = await fetch(origin + workerRoute("cli", route), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as { data?: { id?: string; url?: string } } };
}

describe("station-browser-use worker (CLI)", () => {
  it("listens on the port it prints, serves a session, and on SIGTERM exits 0 leaving no Chromium", async () => {
    const profileRoot = mkdtempSync(join(tmpdir(), "station-cli-profiles-"));
    const run = start(
      [
        ...["worker", "--port", "0", "--station-id", "cli", "--max-sessions", "2", "--profile-root", profileRoot, "--profiles", "work", "--tenant-id", "acme"],
        ...["--tenant-max-sessions", "1", "--idle-timeout", "10m", "--max-connections", "16"],
      ],
      { STATION_EXECUTION_TOKEN: token },
    );
    try {
      const origin = await waitForListening(run);
      expect(origin).not.toMatch(/:0$/);
      // --profiles grants "work" only; --tenant-id lets the token act as tenant acme on the tenant route.
      const ungranted = await post(origin, { method: "open", options: { profileId: "other" } });
      expect(ungranted.status).toBe(400);
      const profiled = await post(origin, { method: "open", options: { profileId: "work" } }, "tenant");
      expect(profiled.status).toBe(200);
      // --tenant-max-sessions 1: the tenant's second session is refused though the worker has room for two.
      const overQuota = await post(origin, { method: "open" }, "tenant");
      expect({ status: overQuota.status, error: (overQuota.json as { error?: { message: string } }).error?.message }).toEqual({
        status: 429,
        error: "Tenant acme already holds its quota of 1 browser session; close one first",
      });
      expect((await post(origin, { method: "close", id: profiled.json.data!.id }, "tenant")).status).toBe(200);
      const opened = await post(origin, { method: "open" });
      expect(opened.status).toBe(200);
      const navigated = await post(origin, { method: "execute", id: opened.json.data!.id, command: { op: "navigate", url: fixtures.url("/index.html") } });
      expect(navigated.json.data!.url).toBe(fixtures.url("/index.html"));

      const chromium = chromiumBelow(run.child.pid!);
      expect(chromium.length).toBeGreaterThan(0);
      const home = /HOME=([^\0]*\/station-browser-use-\d+\/run-\d+-[^/\0]+\/home)(\0|$)/.exec(readFileSync(`/proc/${chromium[0]!.pid}/environ`, "utf8"))?.[1];
      expect(home).toBeDefined();
      expect(processesWithEnvironment(home!).length).toBeGreaterThan(0);

      run.child.kill("SIGTERM");
      expect(await run.exit).toBe(0);
      expect(run.stdout()).toMatch(/SIGTERM: draining[\s\S]*stopped/);
      expect(chromium.filter(stillRunning)).toEqual([]);
      expect(processesWithEnvironment(home!)).toEqual([]);
      expect(existsSync(home!)).toBe(false);
      expect(run.stdout() + run.stderr()).not.toContain(token);
    } finally {
      run.child.kill("SIGKILL");
      rmSync(profileRoot, { recursive: true, force: true });
    }
  });

  // Several CLI processes start one after another: on a loaded machine each takes seconds.
  it("answers --help and --version, and refuses an unknown command with exit 2 naming the real ones", async () => {
    const help = start(["--help"], {});
    expect(await help.exit).toBe(0);
    expect(help.stdout()).toMatch(/^Usage: station-browser-use <command>/);
    expect(help.stdout()).toMatch(/^ {2}worker .*\n {2}mcp /m);
    const version = start(["--version"], {});
    expect(await version.exit).toBe(0);
    expect(version.stdout().trim()).toMatch(/^\d+\.\d+\.\d+/);
    const workerHelp = start(["worker", "--help"], {});
    expect(await workerHelp.exit).toBe(0);
    expect(workerHelp.stdout()).toMatch(/^Usage: station-browser-use worker \[options\]/);
    const unknown = start(["serve"], {});
    expect(await unknown.exit).toBe(2);
    expect(unknown.stderr()).toMatch(/unknown command "serve"; the commands are: worker, mcp/);
  }, 120_000);

  // Several CLI processes start one after another: on a loaded machine each takes seconds.
  it("refuses to start without a token, with a short one, or with a --token flag, never printing the secret", async () => {
    const missing = start(["worker", "--port", "0"], {});
    expect(await missing.exit).toBe(2);
    expect(missing.stderr()).toMatch(/STATION_EXECUTION_TOKEN is not set/);

    const secret = "short-secret-value-123";
    const short = start(["worker", "--port", "0"], { STATION_EXECUTION_TOKEN: secret });
    expect(await short.exit).not.toBe(0);
    expect(short.stderr()).toMatch(/STATION_EXECUTION_TOKEN must have at least 32 characters \(it has 22\)/);

    const flag = start(["worker", "--port", "0", "--token", secret], { STATION_EXECUTION_TOKEN: token });
    expect(await flag.exit).toBe(2);
    expect(flag.stderr()).toMatch(/--token is refused: secrets come from the environment only/);

    const shortKey = start(["worker", "--port", "0"], { STATION_EXECUTION_TOKEN: token, STATION_TENANT_KEYS: `${secret}=acme` });
    expect(await shortKey.exit).toBe(2);
    expect(shortKey.stderr()).toMatch(/tenant acme.*at least 32 characters/);

    for (const run of [missing, short, flag, shortKey]) {
      expect(run.stdout()).not.toMatch(/listening/);
      expect(run.stdout() + run.stderr()).not.toContain(secret);
      expect(run.stdout() + run.stderr()).not.toContain(token);
    }
  }, 120_000);
});
