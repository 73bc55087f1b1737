/**
 * Steel provider options and the pure session helpers. (The REST half's
 * runtime fence is checked in runtime-fence.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/errors.js";
import { isAbsenceAnswer, sessionStatus, steelSessionId, withApiKey } from "../../src/providers/steel/sessions.js";
import { resolveSteelOptions, type SteelRestProviderOptions } from "../../src/steel.js";

function validationError(options: unknown): ValidationError {
  try {
    resolveSteelOptions(options as SteelRestProviderOptions);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error("expected a ValidationError");
}

describe("resolveSteelOptions", () => {
  it("fills in the defaults", () => {
    const resolved = resolveSteelOptions({ apiKey: "ste-key-123456" });
    expect(resolved).toMatchObject({
      apiKey: "ste-key-123456",
      baseURL: "https://api.steel.dev",
      selfHosted: false,
      sessionSettings: {},
      sessionTimeoutMs: 900_000,
      viewport: { width: 1280, height: 800 },
      filesFolder: "/files",
      rateLimitCapMs: 10_000,
      profileReadyTimeoutMs: 60_000,
      profilePollMs: 500,
      requestTimeoutMs: 60_000,
      launchTimeoutMs: 30_000,
    });
    expect(typeof resolved.fetch).toBe("function");
  });

  it("needs a key for Steel cloud, not for a self-hosted steel-browser", () => {
    expect(validationError({}).field).toBe("options.apiKey");
    expect(resolveSteelOptions({ baseURL: "http://127.0.0.1:3000/", selfHosted: true })).toMatchObject({
      apiKey: undefined,
      baseURL: "http://127.0.0.1:3000",
      selfHosted: true,
    });
  });

  it("names the field and never repeats a key", () => {
    const key = "ste secret with spaces 0123";
    const error = validationError({ apiKey: key });
    expect(error.field).toBe("options.apiKey");
    expect(error.message).not.toContain("secret");
    expect(validationError({ apiKey: "k-1234", baseURL: "https://user:pw@api.steel.dev" }).message).toMatch(/credentials in the URL/);
    expect(validationError({ apiKey: "k-1234", baseURL: "https://api.steel.dev?apiKey=x" }).message).not.toContain("apiKey=x");
    expect(validationError({ apiKey: "k-1234", sessionTimeout: 5 }).message).toMatch(/unknown field/);
    expect(validationError({ apiKey: "k-1234", sessionTimeoutMs: 5 }).field).toBe("options.sessionTimeoutMs");
    expect(validationError({ apiKey: "k-1234", viewport: { width: 10, height: 800 } }).field).toBe("options.viewport.width");
    expect(validationError({ apiKey: "k-1234", profileStore: {} }).field).toBe("options.profileStore");
    for (const filesFolder of ["files", "/files/../etc", "/files/./x", 7]) {
      expect(validationError({ apiKey: "k-1234", filesFolder }).field).toBe("options.filesFolder");
    }
    expect(resolveSteelOptions({ apiKey: "k-1234", filesFolder: "/tmp/files/" }).filesFolder).toBe("/tmp/files");
  });

  it("with selfHosted, refuses the settings steel-browser would silently ignore, naming the field", () => {
    const selfHosted = { baseURL: "http://127.0.0.1:3000", selfHosted: true };
    for (const [field, value] of [
      ["useProxy", true],
      ["useProxy", { geolocation: { country: "NO" } }],
      ["solveCaptcha", true],
      ["region", "iad"],
      ["stealthConfig", { humanizeInteractions: true }],
    ] as const) {
      const error = validationError({ ...selfHosted, [field]: value });
      expect(error.field).toBe(`options.${field}`);
      expect(error.message).toMatch(/self-hosted steel-browser ignores this setting \(Steel cloud only\)/);
    }
    // Asking for nothing is fine, and so are the settings it does apply.
    expect(resolveSteelOptions({ ...selfHosted, useProxy: false, solveCaptcha: false, blockAds: true, userAgent: "station" }).sessionSettings).toEqual({
      useProxy: false,
      solveCaptcha: false,
      blockAds: true,
      userAgent: "station",
    });
    // The same settings stay allowed on Steel cloud.
    expect(resolveSteelOptions({ apiKey: "k-1234", useProxy: true, solveCaptcha: true, region: "iad" }).sessionSettings).toMatchObject({ region: "iad" });
  });

  it("passes only the provider settings that were set", () => {
    const resolved = resolveSteelOptions({ apiKey: "k-1234", useProxy: { geolocation: { country: "NO" } }, blockAds: false, region: "fra" });
    expect(resolved.sessionSettings).toEqual({ useProxy: { geolocation: { country: "NO" } }, blockAds: false, region: "fra" });
  });
});

describe("session helpers", () => {
  it("the open tag is the session id: a UUID, lower-cased", () => {
    const tag = "6F1C2B9E-0D3A-4C5B-8E7F-112233445566";
    expect(steelSessionId(tag)).toBe(tag.toLowerCase());
    expect(() => steelSessionId("open_6f1c2b9e-0d3a-4c5b-8e7f-112233445566")).toThrow(ValidationError);
    expect(() => steelSessionId("")).toThrow(ValidationError);
  });

  it("appends the key as apiKey after & or ?", () => {
    expect(withApiKey("wss://connect.steel.dev?sessionId=abc", "k/ey+1")).toBe("wss://connect.steel.dev?sessionId=abc&apiKey=k%2Fey%2B1");
    expect(withApiKey("ws://127.0.0.1:3000/", "key")).toBe("ws://127.0.0.1:3000/?apiKey=key");
    expect(withApiKey("wss://x/?", "key")).toBe("wss://x/?apiKey=key");
    expect(withApiKey("ws://127.0.0.1:3000/", undefined)).toBe("ws://127.0.0.1:3000/");
  });

  it("maps Steel statuses", () => {
    expect(sessionStatus("live")).toBe("RUNNING");
    expect(sessionStatus("released")).toBe("ENDED");
    expect(sessionStatus("failed")).toBe("ENDED");
    expect(sessionStatus("idle")).toBe("ENDED");
    expect(sessionStatus("something-new")).toBe("ERROR");
  });

  it("tells steel-browser's made-up 'released' answer from a real session", () => {
    const id = crypto.randomUUID();
    const madeUp = { id, status: "released", duration: 0, timeout: 0, eventCount: 0 } as never;
    const realReleased = { id, status: "released", duration: 81_000, timeout: 300_000, eventCount: 12 } as never;
    const live = { id, status: "live", duration: 0, timeout: 0, eventCount: 0 } as never;
    expect(isAbsenceAnswer(madeUp, id, false)).toBe(true);
    expect(isAbsenceAnswer(realReleased, id, false)).toBe(false);
    // steel-browser keeps no readable record of released sessions: any "released" there means "not held".
    expect(isAbsenceAnswer(realReleased, id, true)).toBe(true);
    expect(isAbsenceAnswer(live, id, true)).toBe(false);
    expect(isAbsenceAnswer(live, crypto.randomUUID(), false)).toBe(true);
    expect(isAbsenceAnswer(live, id.toUpperCase(), false)).toBe(false);
  });
});
