/**
 * A hosted provider call the runtime refused before any byte of it left is a
 * plain `ProviderError` — also for a create or a release, which took no
 * effect — never `OutcomeUnknownError`. The shapes are the ones Deno 2.9.6
 * really throws, recorded by running the Browserbase and Steel SDKs under
 * `deno run` with narrower permissions (and `fetch` throws them before
 * connecting):
 *
 * - without `--allow-env=DEBUG`: the SDK reads `process.env.DEBUG` in
 *   `makeRequest`, before `fetch`, and Deno's getter throws
 *   `NotCapable: Requires env access to "DEBUG", run again with the --allow-env flag`
 *   (name and class `NotCapable`, no `code`, no `cause`); the SDK lets it through as is.
 * - without `--allow-net` for the API host: `fetch` throws
 *   `NotCapable: Requires net access to "127.0.0.1:47391", run again with the --allow-net flag`,
 *   which the SDK wraps as `APIConnectionError("Connection error.")` with it as `cause`.
 *
 * On Node the refused connection is real (a closed port on 127.0.0.1).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { OutcomeUnknownError, ProviderError } from "../../src/errors.js";
import { createBrowserbaseRestProvider } from "../../src/browserbase.js";
import { createSteelRestProvider } from "../../src/steel.js";
import { failure } from "../helpers/failure.js";

const sessionId = "6f1c1d2e-0000-4000-8000-000000000001";
/** An error as Deno throws it for a missing permission (`class NotCapable extends Error`). */
const notCapable = (message: string) => Object.assign(new Error(message), { name: "NotCapable" });

/** What both REST halves do that is tested here. */
interface Rest {
  create(request: { openTag: string }): Promise<unknown>;
  release(id: string): Promise<void>;
}

/** Both providers over `fetch`. */
function providers(fetch: typeof globalThis.fetch, baseURL = "http://127.0.0.1:47391"): Record<"browserbase" | "steel", Rest> {
  return {
    browserbase: createBrowserbaseRestProvider({ apiKey: "bb_live_NEVERSENT_0123456789abcdef", baseURL, fetch }),
    steel: createSteelRestProvider({ apiKey: "ste-never-sent-key-0123456789", baseURL, fetch }),
  };
}

const calls = { create: (provider: Rest) => provider.create({ openTag: sessionId }), release: (provider: Rest) => provider.release(sessionId) };

const realEnv = process.env;
afterEach(() => {
  process.env = realEnv;
});

/** process.env as Deno's is without `--allow-env=DEBUG`: reading DEBUG throws. */
function withoutDebugPermission(): void {
  process.env = new Proxy(realEnv, {
    get(target, name, receiver) {
      if (name === "DEBUG") throw notCapable('Requires env access to "DEBUG", run again with the --allow-env flag');
      return Reflect.get(target, name, receiver);
    },
  });
}

describe.each(["browserbase", "steel"] as const)("%s: refused before sending", (name) => {
  it.each(["create", "release"] as const)("%s without --allow-env=DEBUG is a plain error naming the permission, and nothing is fetched", async (call) => {
    const fetched: string[] = [];
    // The fetch the SDK is given: anything sent goes through it.
    const provider = providers(async (input) => {
      fetched.push(String(input));
      return Response.json({});
    })[name];
    withoutDebugPermission();
    const error = await failure(calls[call](provider));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).not.toBeInstanceOf(OutcomeUnknownError);
    expect(error.message).toMatch(new RegExp(`^${name}: .* failed before anything was sent, so it took no effect: Requires env access to "DEBUG"`));
    expect(error.message).toContain("(with Deno, grant --allow-env=DEBUG)");
    expect(fetched).toEqual([]);
  });

  it("a create without --allow-net for the API host is a plain error naming the host", async () => {
    const provider = providers(async (input) => {
      throw notCapable(`Requires net access to "${new URL(String(input)).host}", run again with the --allow-net flag`);
    })[name];
    const error = await failure(calls.create(provider));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).not.toBeInstanceOf(OutcomeUnknownError);
    expect(error.message).toContain('failed before anything was sent, so it took no effect: Requires net access to "127.0.0.1:47391"');
    expect(error.message).toContain("(with Deno, grant --allow-net=127.0.0.1:47391)");
  });

  it("a create to a refused port (Node, for real) is a plain error; a failure after sending stays unknown", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await failure(calls.create(providers(globalThis.fetch, `http://127.0.0.1:${port}`)[name]));
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).not.toBeInstanceOf(OutcomeUnknownError);
    expect(refused.message).toContain(`failed before anything was sent, so it took no effect: fetch failed: connect ECONNREFUSED 127.0.0.1:${port}`);
    // A connection reset once the request was out says nothing about whether it was received.
    const reset = providers(async () => {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) });
    })[name];
    expect(await failure(calls.create(reset))).toBeInstanceOf(OutcomeUnknownError);
  });
});
