/**
 * The REST halves of Browserbase and Steel from their neutral entries,
 * against the local stand-in: create, find by open tag, release.
 */
import { expect } from "./agent-check.mjs";

export async function runRestCheck(config) {
  const { createBrowserbaseRestProvider } = await import("station-browser-use/browserbase");
  const { createSteelRestProvider } = await import("station-browser-use/steel");
  const checked = [];
  const providers = [
    { name: "browserbase", provider: createBrowserbaseRestProvider({ apiKey: config.browserbaseApiKey, baseURL: `${config.standIn}/browserbase` }) },
    { name: "steel", provider: createSteelRestProvider({ apiKey: config.steelApiKey, baseURL: `${config.standIn}/steel` }) },
  ];
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

/** Imports a Node-only entry, which must refuse at once naming this runtime and what to use instead. */
export async function runRefusalCheck() {
  try {
    await import("station-browser-use/playwright");
  } catch (error) {
    const message = String(error?.message ?? error);
    expect(
      message.includes("station-browser-use/playwright cannot run in Cloudflare Workers (workerd)") && message.includes('"station-browser-use/agent"'),
      `the refusal does not say which runtime and what to use: ${message}`,
    );
    return { checked: [`./playwright refused at import: "${message}"`] };
  }
  throw new Error("importing station-browser-use/playwright did not throw");
}
