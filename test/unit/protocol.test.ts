import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationError, isValidationError, UrlPolicyError } from "../../src/errors.js";
import { commandOps, limits, parseCommand, safeParseCommand, assertNavigableUrl, sanitizeUrl, isObservationCommand } from "../../src/protocol/index.js";

function problem(input: unknown): string {
  const result = safeParseCommand(input);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return result.error.message;
}

describe("parseCommand", () => {
  it("accepts the design's example shapes and normalises the selector shorthand", () => {
    expect(parseCommand({ op: "navigate", url: "https://example.com/" })).toEqual({ op: "navigate", url: "https://example.com/" });
    expect(parseCommand({ op: "fill", selector: "#q", value: "x" })).toEqual({
      op: "fill",
      value: "x",
      target: { by: "selector", selector: "#q" },
    });
    expect(parseCommand({ op: "fill", target: { by: "label", value: "Code", frame: ["#pay"] }, value: "1234" })).toMatchObject({
      target: { by: "label", value: "Code", frame: ["#pay"] },
    });
    expect(parseCommand({ op: "click", target: { by: "role", role: "button", name: "Continue", exact: true, nth: 0 } }).op).toBe("click");
    expect(parseCommand({ op: "click", target: { by: "ref", ref: "e12" } })).toEqual({ op: "click", target: { by: "ref", ref: "e12" } });
    expect(parseCommand({ op: "dialog", action: "accept", promptText: "hi", timeoutMs: 5000 }).op).toBe("dialog");
    expect(parseCommand({ op: "select", selector: "#s", value: ["Red", "Blue"] }).op).toBe("select");
    expect(parseCommand({ op: "accessibility", mode: "agent", maxBytes: 4096, depth: 5, interactiveOnly: true, boxes: true }).op).toBe("accessibility");
    expect(parseCommand({ op: "screenshot", format: "jpeg", quality: 60 }).op).toBe("screenshot");
  });

  it("names the offending field path", () => {
    expect(problem({ op: "click", target: { by: "role", role: "button", frame: ["a", "b", "c", 4] } })).toBe(
      "command.target.frame[3]: expected iframe selector as a string",
    );
    expect(problem({ op: "navigate" })).toBe("command.url: required");
    expect(problem({ op: "navigate", url: "https://x/", extra: true })).toBe("command.extra: unknown field");
    expect(problem({ op: "click" })).toMatch(/^command\.target: required/);
    expect(problem({ op: "click", selector: "#a", target: { by: "text", value: "a" } })).toMatch(/^command\.target: give either/);
    expect(problem({ op: "click", target: { by: "role", role: "buton" } })).toMatch(/^command\.target\.role: expected an ARIA role/);
    expect(problem({ op: "zoom" })).toMatch(/^command\.op: expected "op" to be one of/);
    expect(problem(null)).toMatch(/^command: expected an object/);
    expect(problem({ op: "inspect", maxElements: 501 })).toBe("command.maxElements: expected a number ≤ 500");
    expect(problem({ op: "dialog", action: "accept", timeoutMs: 30_001 })).toBe("command.timeoutMs: expected a number ≤ 30000");
    expect(problem({ op: "click", target: { by: "ref", ref: "button-1" } })).toMatch(/^command\.target\.ref: expected a ref/);
  });

  it("enforces the frame chain, upload count and upload size limits", () => {
    const frames = Array.from({ length: limits.frameChain + 1 }, (_, index) => `#f${index}`);
    expect(problem({ op: "click", target: { by: "text", value: "x", frame: frames } })).toBe("command.target.frame: at most 8 nested frames");
    const file = { name: "a.txt", base64: "YQ==" };
    expect(problem({ op: "upload", selector: "#f", files: Array.from({ length: 17 }, () => file) })).toBe(
      "command.files: at most 16 files per upload",
    );
    const half = "A".repeat(Math.ceil((limits.upload.decodedBytes * 4) / 3 / 2) + 8);
    expect(problem({ op: "upload", selector: "#f", files: [{ name: "a", base64: half }, { name: "b", base64: half }] })).toMatch(
      /^command\.files: \d+ bytes in total; at most 4194304 decoded bytes/,
    );
    expect(problem({ op: "upload", selector: "#f", files: [{ name: "../etc", base64: "" }] })).toMatch(/^command\.files\[0\]\.name/);
    expect(problem({ op: "upload", selector: "#f", files: [{ name: "..", base64: "" }] })).toBe('command.files[0].name: expected a file name, not "." or ".."');
  });

  it("parses the read-only text command, its byte bound named when wrong", () => {
    expect(parseCommand({ op: "text" })).toEqual({ op: "text" });
    expect(parseCommand({ op: "text", maxBytes: limits.text.bytesMax })).toEqual({ op: "text", maxBytes: 256 * 1024 });
    expect(limits.text.bytesDefault).toBe(16 * 1024);
    expect(problem({ op: "text", maxBytes: limits.text.bytesMax + 1 })).toBe("command.maxBytes: expected a number ≤ 262144");
    expect(problem({ op: "text", maxBytes: 0 })).toBe("command.maxBytes: expected a number ≥ 1");
    expect(problem({ op: "text", maxBytes: 1.5 })).toBe("command.maxBytes: expected an integer");
    expect(problem({ op: "text", maxBytes: "16" })).toBe("command.maxBytes: expected a number");
    expect(problem({ op: "text", frame: ["#pay"] })).toBe("command.frame: unknown field");
    expect(commandOps).toContain("text");
  });

  it("marks observation commands", () => {
    expect(isObservationCommand({ op: "text" })).toBe(true);
    expect(isObservationCommand({ op: "screenshot" })).toBe(true);
    expect(isObservationCommand({ op: "accessibility" })).toBe(true);
    expect(isObservationCommand({ op: "click" })).toBe(false);
    expect(isObservationCommand({ op: "evaluate" })).toBe(false);
  });

  it("never throws anything but a ValidationError naming a command field, for any payload", () => {
    const payload = fc.oneof(
      fc.anything(),
      fc.record({ op: fc.constantFrom(...commandOps) }, { requiredKeys: ["op"] }),
      fc.dictionary(fc.constantFrom("op", "url", "target", "selector", "value", "files", "frame", "x", "y"), fc.anything()).map(
        (entries) => ({ op: fc.sample(fc.constantFrom(...commandOps), 1)[0], ...entries }),
      ),
      fc.record({
        op: fc.constantFrom(...commandOps),
        target: fc.record({ by: fc.constantFrom("selector", "role", "text", "label", "testId", "ref", "bogus"), value: fc.anything(), frame: fc.anything(), nth: fc.anything() }),
      }),
    );
    fc.assert(
      fc.property(payload, (input) => {
        let thrown: unknown;
        try {
          parseCommand(input);
        } catch (error) {
          thrown = error;
        }
        if (thrown === undefined) return true;
        expect(isValidationError(thrown)).toBe(true);
        expect(thrown).toBeInstanceOf(ValidationError);
        expect((thrown as ValidationError).field).toMatch(/^command(\.|\[|$)/);
        return true;
      }),
      { numRuns: 2000 },
    );
  });
});

describe("URL policy", () => {
  it.each([
    ["file:///etc/passwd", /file: scheme/],
    ["data:text/html,<p>x</p>", /data: scheme/],
    ["javascript:alert(1)", /javascript: scheme/],
    ["chrome://settings", /chrome: scheme/],
    ["view-source:https://example.com/", /view-source: scheme/],
    ["http://user:pass@example.com/", /credentials/],
    ["/relative/path", /not an absolute URL/],
    ["about:config", /about: scheme/],
  ])("refuses %s", (url, reason) => {
    let error: unknown;
    try {
      assertNavigableUrl(url);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UrlPolicyError);
    expect((error as Error).message).toMatch(reason);
    expect((error as Error).message).not.toContain("pass@");
  });

  it("allows http, https and about:blank", () => {
    for (const url of ["http://127.0.0.1:8080/a?b=c", "https://example.com/", "about:blank"]) {
      expect(() => assertNavigableUrl(url)).not.toThrow();
    }
  });

  it("sanitises URLs for logs: no credentials, query or fragment", () => {
    expect(sanitizeUrl("https://user:secret@example.com/path?token=abc#frag")).toBe("https://example.com/path");
    expect(sanitizeUrl("not a url")).toBe("[invalid URL]");
    expect(sanitizeUrl("data:text/html,secret")).toBe("data:…");
  });
});
