import { describe, expect, it } from "vitest";
import { createAuthenticator } from "../../src/worker/auth.js";

const token = "operator-token-".padEnd(40, "o");
const key = "tenant-key-a-".padEnd(40, "a");

describe("createAuthenticator", () => {
  it("gives a repeated header the same answer every time, route checks included", () => {
    const authenticate = createAuthenticator(token, [{ key, tenantId: "acme" }]);
    for (let call = 0; call < 3; call++) {
      expect(authenticate(`Bearer ${key}`, "tenant")).toEqual({ ok: true, caller: { tenantId: "acme" } });
      expect(authenticate(`Bearer ${token}`, "operator")).toEqual({ ok: true, caller: { tenantId: undefined } });
      const forbidden = authenticate(`Bearer ${key}`, "operator");
      expect(forbidden.ok ? "ok" : forbidden.error.code).toBe("forbidden");
      const operatorOnTenant = authenticate(`Bearer ${token}`, "tenant");
      expect(operatorOnTenant.ok ? "ok" : operatorOnTenant.error.code).toBe("forbidden");
    }
  });

  it("never accepts a near miss of an accepted token, before or after it was accepted", () => {
    const authenticate = createAuthenticator(token, [{ key, tenantId: "acme" }]);
    const nearMisses = [`Bearer ${key.slice(0, -1)}b`, `Bearer ${key}a`, `Bearer ${key.slice(0, -1)}`, `Bearer ${key.toUpperCase()}`];
    for (const header of nearMisses) expect(authenticate(header, "tenant").ok).toBe(false);
    expect(authenticate(`Bearer ${key}`, "tenant").ok).toBe(true);
    for (const header of nearMisses) {
      const outcome = authenticate(header, "tenant");
      expect(outcome.ok ? "ok" : outcome.error.code).toBe("unauthorized");
    }
  });

  it("accepts every spelling of the header it accepts, past the number it remembers", () => {
    const authenticate = createAuthenticator(token, [{ key, tenantId: "acme" }]);
    // More distinct spellings than the 8 the map holds for two secrets.
    const spellings = Array.from({ length: 20 }, (_, index) => `${index % 2 ? "bearer" : "Bearer"}${" ".repeat(1 + index)}${key}${" ".repeat(index % 3)}`);
    for (let pass = 0; pass < 2; pass++) {
      for (const header of spellings) expect(authenticate(header, "tenant")).toEqual({ ok: true, caller: { tenantId: "acme" } });
    }
    expect(authenticate(`Basic ${key}`, "tenant").ok).toBe(false);
  });
});
