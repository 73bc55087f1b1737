import { describe, expect, it } from "vitest";
import { McpUsageError, parseMcpCommandLine } from "../../src/mcp/cli-options.js";

const worker = { STATION_WORKER_URL: "https://browsers.example.com", STATION_API_KEY: "tenant-key-0123456789abcdef0123456789", STATION_ID: "eu-1" };

function refusal(argv: string[], environment: Record<string, string> = {}): string {
  try {
    parseMcpCommandLine(argv, environment);
  } catch (error) {
    expect(error).toBeInstanceOf(McpUsageError);
    return (error as Error).message;
  }
  throw new Error("expected a refusal");
}

describe("station-browser-use mcp: command line", () => {
  it("defaults to local Chromium, two sessions, no profiles", () => {
    expect(parseMcpCommandLine([], {})).toEqual({ maxSessions: 2, profileIds: [], groups: [], backend: { kind: "local", headed: false } });
    expect(parseMcpCommandLine(["--help"], {})).toBe("help");
    expect(parseMcpCommandLine(["--max-sessions", "3", "-h"], {})).toBe("help");
  });

  it("reads repeatable --profile and --group, --flag=value, switches and local-only options", () => {
    expect(
      parseMcpCommandLine(["--profile", "research", "--profile=shopping", "--profile-root", "/var/profiles", "--group", "coordinates", "--max-sessions=4", "--max-text-bytes", "8192", "--headed"], {}),
    ).toEqual({
      maxSessions: 4,
      profileIds: ["research", "shopping"],
      groups: ["coordinates"],
      maxTextBytes: 8192,
      backend: { kind: "local", headed: true, profileRoot: "/var/profiles" },
    });
  });

  it("uses a worker when STATION_WORKER_URL is set, with the key and station id from the environment", () => {
    expect(parseMcpCommandLine(["--profile", "research"], worker)).toEqual({
      maxSessions: 2,
      profileIds: ["research"],
      groups: [],
      backend: { kind: "worker", baseUrl: worker.STATION_WORKER_URL, stationId: "eu-1", apiKey: worker.STATION_API_KEY },
    });
  });

  it("refuses secrets as flags without echoing them, and half-configured environments", () => {
    const secret = "sk-very-secret-value-123";
    for (const flag of ["--api-key", "--token", "--STATION_API_KEY", "--password"]) {
      const message = refusal([flag, secret]);
      expect(message).toMatch(/is refused: secrets come from the environment only \(STATION_API_KEY\)/);
      expect(message).not.toContain(secret);
    }
    expect(refusal([`--api-key=${secret}`])).not.toContain(secret);
    expect(refusal([], { STATION_API_KEY: secret })).toBe(
      "STATION_API_KEY is set but STATION_WORKER_URL is not; set STATION_WORKER_URL to use a worker, or unset STATION_API_KEY for local browsers",
    );
    expect(refusal([], { ...worker, STATION_API_KEY: "" })).toMatch(/STATION_API_KEY is not/);
    expect(refusal([], { STATION_WORKER_URL: worker.STATION_WORKER_URL, STATION_API_KEY: secret })).toMatch(/STATION_ID is not/);
    for (const message of [refusal([], { STATION_API_KEY: secret }), refusal([], { STATION_WORKER_URL: "x", STATION_API_KEY: secret })]) {
      expect(message).not.toContain(secret);
    }
  });

  it("refuses bad values, unknown options, local-only options with a worker, and local profiles without a root", () => {
    expect(refusal(["--max-sessions", "0"])).toBe("--max-sessions expects an integer from 1 to 256");
    expect(refusal(["--max-sessions", "2x"])).toMatch(/--max-sessions expects an integer/);
    expect(refusal(["--max-sessions"])).toBe("--max-sessions needs a value");
    expect(refusal(["--max-sessions", "2", "--max-sessions", "3"])).toBe("--max-sessions may be given once");
    expect(refusal(["--port", "80"])).toBe("unknown option --port; see --help");
    expect(refusal(["serve"])).toMatch(/unexpected argument "serve"/);
    expect(refusal(["--headed=yes"])).toBe("--headed takes no value");
    expect(refusal(["--group", "recordings"])).toBe('--group "recordings" is not a tool group; expected one of coordinates, diagnostics, downloads');
    expect(refusal(["--profile", "research"])).toMatch(/--profile needs --profile-root DIR with local browsers/);
    expect(refusal(["--profile-root", "/tmp/p"], worker)).toMatch(/--profile-root is for local browsers/);
    expect(refusal(["--headed"], worker)).toMatch(/--headed is for local browsers/);
  });
});
