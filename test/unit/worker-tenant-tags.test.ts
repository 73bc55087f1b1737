/**
 * A tenant's open tag is scoped by the worker (a UUID derived from tenant and
 * tag) before the manager and the provider see it. When an open's outcome is
 * unknown, the error the tenant gets names its own tag, in the message and in
 * the structured details, and never the scoped one.
 */
import { afterEach, describe, expect, it } from "vitest";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { workerRoute } from "../../src/protocol/wire.js";
import { createBrowserWorker } from "../../src/worker/index.js";
import { scopedOpenTag } from "../../src/worker/scoped-tag.js";
import { FakeAdapter } from "../helpers/fake-adapter.js";
import { startWorkerServer, type WorkerServer } from "../helpers/worker-server.js";

const token = "operator-token-0123456789abcdef-XYZ";
const tenantKey = "tenant-a-key-0123456789abcdef-AAAA";

let server: WorkerServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("a tenant's uncertain open", () => {
  it("names the tenant's own tag in the message and in details.openTag, never the scoped tag", async () => {
    const adapter = new FakeAdapter();
    const manager = new BrowserSessionManager(adapter, 4);
    server = await startWorkerServer(createBrowserWorker({ manager, token, tenants: { [tenantKey]: "acme" }, stationId: "w1" }));
    adapter.loseNextOpen();

    const answer = await server.post(workerRoute("w1", "tenant"), tenantKey, { method: "open", options: { openTag: "checkout-1" } });

    const scoped = scopedOpenTag("acme", "checkout-1");
    expect(adapter.opens.map((open) => open.options.openTag)).toEqual([scoped]);
    expect(answer.status).toBe(502);
    expect(answer.json?.error?.code).toBe("outcome_unknown");
    expect(answer.json?.error?.message).toContain("checkout-1");
    expect(answer.json?.error?.details?.openTag).toBe("checkout-1");
    expect(answer.text).not.toContain(scoped);
    await manager.close();
  });
});
