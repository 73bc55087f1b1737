import { describe, expect, it } from "vitest";
import { neverSent } from "../../src/client/never-sent.js";

/** An error with these fields, as a runtime's fetch throws it (shapes recorded on each runtime; see src/client/never-sent.ts). */
const thrown = (name: string, message: string, fields: Record<string, unknown> = {}) => Object.assign(new (name === "TypeError" ? TypeError : Error)(message), { name, ...fields });

describe("neverSent: the connect-phase failures of each runtime's fetch", () => {
  it.each([
    ["Node, refused", thrown("TypeError", "fetch failed", { cause: thrown("Error", "connect ECONNREFUSED 127.0.0.1:35203", { code: "ECONNREFUSED", errno: -111, syscall: "connect" }) })],
    ["Node, DNS", thrown("TypeError", "fetch failed", { cause: thrown("Error", "getaddrinfo ENOTFOUND x.invalid", { code: "ENOTFOUND", syscall: "getaddrinfo" }) })],
    ["Node, bad port", thrown("TypeError", "fetch failed", { cause: thrown("Error", "bad port") })],
    ["Node, TLS", thrown("TypeError", "fetch failed", { cause: thrown("Error", "self-signed certificate", { code: "DEPTH_ZERO_SELF_SIGNED_CERT" }) })],
    ["Node, every address refused", thrown("TypeError", "fetch failed", { cause: Object.assign(new AggregateError([thrown("Error", "a", { code: "ECONNREFUSED" }), thrown("Error", "b", { code: "ENETUNREACH" })])) })],
    ["Bun, refused", thrown("TypeError", "ECONNREFUSED: Unable to connect. Is the computer able to access the url?", { code: "ECONNREFUSED", errno: 0 })],
    ["Bun, DNS", thrown("TypeError", "getaddrinfo ENOTFOUND x.invalid", { code: "ENOTFOUND", errno: 4, syscall: "getaddrinfo" })],
    ["Deno, refused", thrown("TypeError", "fetch failed", { cause: thrown("Error", "error sending request for url (http://127.0.0.1:35203/): client error (Connect): tcp connect error: Connection refused (os error 111)") })],
    ["Deno, DNS", thrown("TypeError", "fetch failed", { cause: thrown("Error", "error sending request for url (http://x.invalid/): client error (Connect): dns error: failed to lookup address information") })],
    ["Deno, blocked port", thrown("TypeError", "Fetch failed: Requests to port 9 are blocked")],
    ["Deno, no net permission", thrown("NotCapable", 'Requires net access to "127.0.0.1:35203", run again with the --allow-net flag')],
  ])("%s: nothing was sent", (_name, error) => {
    expect(neverSent(error)).toBe(true);
  });

  it.each([
    ["workerd, refused (cannot be told from a cut after sending)", thrown("Error", "Network connection lost.")],
    ["Node, reset after sending", thrown("TypeError", "fetch failed", { cause: thrown("Error", "read ECONNRESET", { code: "ECONNRESET" }) })],
    ["Node, socket closed by the other side", thrown("TypeError", "fetch failed", { cause: thrown("Error", "other side closed", { code: "UND_ERR_SOCKET" }) })],
    ["Bun, reset", thrown("TypeError", "The socket connection was closed unexpectedly", { code: "ECONNRESET" })],
    ["Deno, connection closed while reading", thrown("TypeError", "fetch failed", { cause: thrown("Error", "error sending request: connection closed before message completed") })],
    ["an abort", new DOMException("The operation was aborted.", "AbortError")],
    ["some addresses refused, one reset", thrown("TypeError", "fetch failed", { cause: new AggregateError([thrown("Error", "a", { code: "ECONNREFUSED" }), thrown("Error", "b", { code: "ECONNRESET" })]) })],
    ["not an object", "fetch failed"],
  ])("%s: may have been sent", (_name, error) => {
    expect(neverSent(error)).toBe(false);
  });
});
