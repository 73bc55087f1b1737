import { describe, expect, it } from "vitest";
import { createViewTokens } from "../../src/worker/view-token.js";

describe("live view tokens", () => {
  const clock = { time: 1_800_000_000_000 };
  const tokens = createViewTokens(() => clock.time);

  it("name their session and expiry, and verify until they expire", async () => {
    const { token, expiresAt } = await tokens.issue("session/with odd:chars", 60_000);
    expect(expiresAt).toBe(clock.time + 60_000);
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(await tokens.verify(token)).toEqual({ ok: true, grant: { sessionId: "session/with odd:chars", expiresAt } });
    clock.time += 60_000;
    expect(await tokens.verify(token)).toEqual({ ok: false, reason: "expired" });
    clock.time -= 60_000;
  });

  it("refuse a missing, malformed or altered token, and one from another worker", async () => {
    const { token } = await tokens.issue("s1", 60_000);
    const [version, name, expiry, signature] = token.split(".") as [string, string, string, string];
    const otherName = btoa("s2").replace(/=+$/, "");
    expect(await tokens.verify(undefined)).toEqual({ ok: false, reason: "missing" });
    expect(await tokens.verify("")).toEqual({ ok: false, reason: "missing" });
    expect(await tokens.verify("v1.abc")).toEqual({ ok: false, reason: "malformed" });
    expect(await tokens.verify(`v2.${name}.${expiry}.${signature}`)).toEqual({ ok: false, reason: "malformed" });
    expect(await tokens.verify(`${version}.${name}.${expiry}.${signature}!`)).toEqual({ ok: false, reason: "malformed" });
    // The session or the expiry changed under the same signature.
    expect(await tokens.verify(`${version}.${otherName}.${expiry}.${signature}`)).toEqual({ ok: false, reason: "signature" });
    expect(await tokens.verify(`${version}.${name}.${Number(expiry) + 3_600_000}.${signature}`)).toEqual({ ok: false, reason: "signature" });
    // Another worker has another secret.
    const other = createViewTokens(() => clock.time);
    expect(await other.verify(token)).toEqual({ ok: false, reason: "signature" });
    expect(await tokens.verify("x".repeat(2000))).toEqual({ ok: false, reason: "malformed" });
  });
});
