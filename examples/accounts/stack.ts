/**
 * The worker the accounts workflow talks to, as `npm run worker -- --profile-root DIR
 * --profiles acme=whatsapp:acme:+47…,globex=…` would start it, but in-process:
 * local Chromium with persistent profiles under `profileRoot`, one grant per
 * tenant and account, each profile owned by its tenant, real HTTP on 127.0.0.1.
 * Given a `provider` (Steel, Browserbase), the profiles are that provider's:
 * it persists a closed session's profile, and the next open of it waits for that.
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { BrowserUseClient, type BrowserUseClientOptions } from "../../src/agent.js";
import { BrowserSessionManager, PlaywrightBrowserAdapter, createLocalProvider, type PlaywrightProvider } from "../../src/playwright.js";
import { createBrowserWorker, createWorkerHttpServer } from "../../src/worker/index.js";

/** Tenant id → the account profile ids it holds (`whatsapp:acme:+4712345678`). */
export type AccountGrants = Record<string, readonly string[]>;

export interface AccountsStack {
  manager: BrowserSessionManager;
  /** A client with the tenant's own key (tenant route). */
  clientOf(tenantId: string): BrowserUseClient;
  /** The options of that client (what `stageFile` takes to stream a file to the worker). */
  clientOptionsOf(tenantId: string): BrowserUseClientOptions;
  /** Stops the worker, its sessions and Chromium. Closing a session never logs an account out. */
  close(): Promise<void>;
}

export async function startAccountsStack(
  options: { grants: AccountGrants; maxSessions?: number } & ({ profileRoot: string } | { provider: PlaywrightProvider }),
): Promise<AccountsStack> {
  const local = "profileRoot" in options ? createLocalProvider({ profileRootDir: options.profileRoot }) : undefined;
  const provider = local ?? (options as { provider: PlaywrightProvider }).provider;
  const profileOwners = Object.fromEntries(Object.entries(options.grants).flatMap(([tenant, ids]) => ids.map((id) => [id, tenant] as const)));
  const manager = new BrowserSessionManager(new PlaywrightBrowserAdapter({ provider }), options.maxSessions ?? 4, {
    profileGrants: Object.keys(profileOwners),
    ownsAdapter: true,
  });
  const keys = Object.fromEntries(Object.keys(options.grants).map((tenant) => [tenant, randomBytes(24).toString("hex")]));
  const worker = createBrowserWorker({
    manager,
    token: randomBytes(24).toString("hex"),
    tenants: Object.fromEntries(Object.entries(keys).map(([tenant, key]) => [key, tenant])),
    profileOwners,
    stationId: "accounts",
  });
  const server = createWorkerHttpServer(worker);
  await local?.start();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientOptionsOf = (tenantId: string): BrowserUseClientOptions => {
    const apiKey = keys[tenantId];
    if (apiKey === undefined) throw new Error(`no tenant ${tenantId} in this stack`);
    return { baseUrl, stationId: "accounts", apiKey, timeoutMs: 60_000 };
  };
  return {
    manager,
    clientOf: (tenantId) => new BrowserUseClient(clientOptionsOf(tenantId)),
    clientOptionsOf,
    async close() {
      await worker.close(); // closes the manager, which (ownsAdapter) ends Chromium
      server.closeAllConnections();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
