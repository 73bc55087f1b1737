import { describe, expect, it } from "vitest";
import { parseWorkerCommandLine, UsageError, type WorkerCommandLine } from "../../src/worker/cli-options.js";

const environment = { STATION_EXECUTION_TOKEN: "cli-options-token-0123456789abcdef-XX" };
const parse = (...flags: string[]) => parseWorkerCommandLine(["worker", ...flags], environment) as WorkerCommandLine;
const refusal = (...flags: string[]) => {
  try {
    parse(...flags);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
};

describe("worker command line: quotas, idle expiry and HTTP bounds", () => {
  it("has sane defaults: no tenant quota, the manager's idle timeout, bounded HTTP", () => {
    const parsed = parse();
    expect(parsed).not.toHaveProperty("tenantMaxSessions");
    expect(parsed).not.toHaveProperty("idleTimeoutMs");
    expect(parsed).toMatchObject({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, maxConnections: 256 });
  });

  it("reads --tenant-max-sessions, --max-connections and the timeouts", () => {
    expect(parse("--tenant-max-sessions", "2", "--max-connections=64", "--headers-timeout-ms", "2000", "--request-timeout-ms", "4000")).toMatchObject({
      tenantMaxSessions: 2,
      maxConnections: 64,
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
    });
    expect(refusal("--tenant-max-sessions", "0")).toBe("--tenant-max-sessions expects an integer from 1 to 256");
    expect(refusal("--max-connections", "many")).toBe("--max-connections expects an integer from 1 to 65536");
    expect(refusal("--headers-timeout-ms", "5000", "--request-timeout-ms", "1000")).toBe("--headers-timeout-ms (5000) must not exceed --request-timeout-ms (1000)");
  });

  it("reads --staging-max-bytes within the staging ceiling", () => {
    expect(parse("--staging-max-bytes", "52428800").stagingMaxBytes).toBe(52_428_800);
    expect(parse().stagingMaxBytes).toBeUndefined();
    expect(refusal("--staging-max-bytes", String(2 * 1024 * 1024 * 1024))).toBe("--staging-max-bytes expects an integer from 1 to 1073741824");
  });

  it("takes --idle-timeout with its unit only", () => {
    expect(parse("--idle-timeout", "1500ms").idleTimeoutMs).toBe(1500);
    expect(parse("--idle-timeout", "90s").idleTimeoutMs).toBe(90_000);
    expect(parse("--idle-timeout=15m").idleTimeoutMs).toBe(900_000);
    expect(parse("--idle-timeout", "2h").idleTimeoutMs).toBe(7_200_000);
    const rule = "--idle-timeout expects a whole number with its unit (ms, s, m or h), e.g. 90s or 15m, from 1s to 24h";
    expect(refusal("--idle-timeout", "900")).toBe(`${rule}; got "900"`);
    expect(refusal("--idle-timeout", "500ms")).toBe(`${rule}; got "500ms"`);
    expect(refusal("--idle-timeout", "25h")).toBe(`${rule}; got "25h"`);
    expect(refusal("--idle-timeout", "1.5s")).toBe(`${rule}; got "1.5s"`);
  });
});
