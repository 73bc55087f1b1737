/**
 * The REST halves of Browserbase and Steel from their neutral entries,
 * against the local stand-in: create, find by open tag, release.
 */
import { expect } from "./agent-check.mjs";

/** Both REST halves from their neutral entries, pointed at the stand-in. */
async function restProviders(config) {
  const { createBrowserbaseRestProvider } = await import("station-browser-use/browserbase");
  const { createSteelRestProvider } = await import("station-browser-use/steel");
  return [
    { name: "browserbase", provider: createBrowserbaseRestProvider({ apiKey: config.browserbaseApiKey, baseURL: `${config.standIn}/browserbase` }) },
    { name: "steel", provider: createSteelRestProvider({ apiKey: config.steelApiKey, baseURL: `${config.standIn}/steel` }) },
  ];
}

export async function runRestCheck(config) {
  const checked = [];
  const providers = await restProviders(config);
  for (const { name, provider } of providers) {
    const openTag = crypto.randomUUID();
    const session = await provider.create({ openTag });
    expect(typeof session.id === "string" && session.id !== "", `${name}: create gave ${JSON.stringify(session)}`);
    const found = await provider.find(openTag);
    expect(found.length === 1 && found[0].id === session.id, `${name}: find(openTag) gave ${JSON.stringify(found)}`);
    await provider.release(session.id);
    const after = await provider.get(session.id);
    expect(after === undefined || after.status !== "RUNNING", `${name}: after release the session reads ${JSON.stringify(after)}`);
    checked.push(`${name} REST create/find/release`);
  }
  return { checked };
}

/** Imports each Node-only entry, which must refuse at once naming this runtime and what to use instead. */
export async function runRefusalCheck() {
  const loaders = {
    "station-browser-use/playwright": () => import("station-browser-use/playwright"),
    "station-browser-use/worker": () => import("station-browser-use/worker"),
  };
  const checked = [];
  for (const [entry, load] of Object.entries(loaders)) {
    const message = await load().then(
      () => undefined,
      (error) => String(error?.message ?? error),
    );
    expect(message !== undefined, `importing ${entry} did not throw`);
    expect(
      message.includes(`${entry} cannot run in Cloudflare Workers (workerd)`) && message.includes('"station-browser-use/agent"'),
      `the refusal of ${entry} does not say which runtime and what to use: ${message}`,
    );
    checked.push(`${entry.replace("station-browser-use", ".")} refused at import: "${message}"`);
  }
  return { checked };
}

/** The other neutral entries load and work: the core vocabulary and the MCP server (over the agent tools). */
export async function runNeutralCheck() {
  const core = await import("station-browser-use");
  const command = core.parseCommand({ op: "click", target: { by: "role", role: "button", name: "Go" } });
  expect(command.op === "click" && command.target.by === "role", `parseCommand gave ${JSON.stringify(command)}`);
  const { createMcpServer } = await import("station-browser-use/mcp");
  const { BrowserUseClient, createBrowserAgentTools } = await import("station-browser-use/agent");
  const client = new BrowserUseClient({ baseUrl: "http://127.0.0.1:9/", stationId: "unused", apiKey: "unused-key-".padEnd(40, "x") });
  const server = createMcpServer(createBrowserAgentTools({ client, maxSessions: 1 }).tools);
  expect(typeof server.connect === "function", "createMcpServer did not return an MCP server");
  return { checked: ["station-browser-use parseCommand", "/mcp createMcpServer"] };
}

/**
 * Deno without `--allow-env=DEBUG` (both SDKs read DEBUG before each request):
 * each REST half's create is refused before it is sent, and says so as a
 * plain provider error naming the grant, never as an unknown outcome.
 */
export async function runRestWithoutDebugCheck(config) {
  const { isProviderError, isOutcomeUnknownError } = await import("station-browser-use");
  const checked = [];
  const providers = await restProviders(config);
  for (const { name, provider } of providers) {
    const error = await provider.create({ openTag: crypto.randomUUID() }).then(
      () => undefined,
      (caught) => caught,
    );
    expect(error !== undefined, `${name}: create succeeded without --allow-env=DEBUG`);
    expect(isProviderError(error) && !isOutcomeUnknownError(error), `${name}: create without DEBUG gave ${error?.name}: ${error?.message}`);
    expect(
      error.message.includes("before anything was sent") && error.message.includes("--allow-env=DEBUG"),
      `${name}: the error does not say that nothing was sent and which grant is missing: ${error.message}`,
    );
    checked.push(`${name} create refused before sending: "${error.message}"`);
  }
  return { checked };
}
