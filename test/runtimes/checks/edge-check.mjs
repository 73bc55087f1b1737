/**
 * Edge-direct (workerd, Deno, Bun, Node 22), from the installed tarball: in
 * this runtime, a `BrowserSessionManager` (in-memory stores) over
 * `CdpBrowserAdapter` (station-browser-use/cdp) over the REST half of
 * Browserbase, then of Steel, against the local stand-in of their APIs,
 * whose sessions hand out a local Chromium's DevTools URL; the agent tools
 * mounted on the manager. Open, navigate, fill, click, observe and click a
 * ref, a screenshot as an
 * image through the Anthropic and OpenAI Chat bridges, close; then the
 * provider reads the session as released over its REST API, and the
 * Chromium has no page target the session made; no provider key is in
 * anything the model saw. Plain JavaScript and web
 * standards only.
 */
import { expect } from "./agent-check.mjs";

/** Whether base64 data starts with the PNG signature. */
function isPng(base64) {
  const bytes = atob(base64.slice(0, 12));
  return bytes.charCodeAt(0) === 0x89 && bytes.slice(1, 4) === "PNG";
}

/** The ref of the first snapshot line matching `line`. */
function refOf(snapshot, line) {
  for (const text of snapshot.split("\n")) {
    const ref = line.test(text) ? /\[((?:f\d+)?e\d+)\]/.exec(text)?.[1] : undefined;
    if (ref) return ref;
  }
  throw new Error(`no ref for ${line} in the snapshot:\n${snapshot}`);
}

/** Page target ids of the browser at `cdpUrl`, read over a connection of its own. */
async function pageTargets(connectCdp, cdpUrl) {
  const connection = await connectCdp(cdpUrl);
  try {
    const { targetInfos } = await connection.browser.send("Target.getTargets");
    return targetInfos.filter((target) => target.type === "page").map((target) => target.targetId);
  } finally {
    await connection.close();
  }
}

/** `provider` with each created session's id noted in `created`. */
function noting(provider, created) {
  const watched = Object.create(provider);
  watched.create = async (request) => {
    const session = await provider.create(request);
    created.push(session.id);
    return session;
  };
  return watched;
}

/** One provider's run: the agent tools on a manager on the CDP engine. */
async function runOne(name, rest, config, modules, opened) {
  const { core, cdp, agent, anthropicBridge, openai } = modules;
  const before = await pageTargets(cdp.connectCdp, config.cdpUrl);
  const created = [];
  const manager = new core.BrowserSessionManager(new cdp.CdpBrowserAdapter({ provider: noting(rest, created) }), 1, { ownsAdapter: true });
  const toolset = agent.createBrowserAgentTools({ client: manager, maxSessions: 1 });
  const tools = new Map(toolset.tools.map((tool) => [tool.name, tool]));
  // Everything the model would see, to check that no provider key is in it.
  const seen = [];
  const call = async (tool, input) => {
    const result = await tools.get(`station_browser_${tool}`).execute(input);
    seen.push(result.text);
    expect(result.isError === undefined, `${name}: ${tool} failed:\n${result.text}`);
    return result;
  };
  const saysNavigated = (text) => /^outcome: ok — [^\n]*; navigated\b/m.test(text);
  const checked = [];
  let closeReport;
  try {
    await call("open", {});
    opened();
    expect(created.length === 1, `${name}: open made ${created.length} provider sessions`);
    const formPage = new URL("/form.html", config.pageUrl).href;
    const navigated = await call("navigate", { url: formPage });
    expect(saysNavigated(navigated.text), `${name}: navigate did not say it navigated:\n${navigated.text}`);
    await call("fill", { fields: [{ target: { by: "label", value: "User name" }, value: "ada" }] });
    await call("click", { target: { by: "role", role: "button", name: "Sign in" } });
    const [session] = await manager.list();
    const { text } = await manager.execute(session.id, { op: "text" });
    expect(text.includes("submitted:ada"), `${name}: the form did not submit what was filled:\n${text}`);
    checked.push("open", "navigate", "fill", "click");

    await call("navigate", { url: config.pageUrl });
    const link = refOf((await call("observe", {})).text, /link "Second page"/);
    const clicked = await call("click", { target: link });
    expect(saysNavigated(clicked.text) && clicked.text.includes('title: "Second page"'), `${name}: the click did not reach the second page:\n${clicked.text}`);
    checked.push("observe, click ref");

    const anthropic = await anthropicBridge.anthropicTools(toolset.tools).handleToolUses([
      { type: "tool_use", id: "toolu_edge", name: "station_browser_screenshot", input: {} },
    ]);
    seen.push(JSON.stringify(anthropic));
    const block = anthropic.content[0]?.content?.find((part) => part.type === "image");
    expect(block?.source?.media_type === "image/png" && isPng(block.source.data), `${name}: Anthropic: no PNG image block`);
    const chat = await openai.openAIChatTools(toolset.tools).handleToolCalls([
      { id: "call_edge", type: "function", function: { name: "station_browser_screenshot", arguments: "{}" } },
    ]);
    seen.push(JSON.stringify(chat));
    const chatImage = chat[1]?.content?.find((part) => part.type === "image_url")?.image_url?.url ?? "";
    expect(chatImage.startsWith("data:image/png;base64,") && isPng(chatImage.split(",")[1]), `${name}: OpenAI Chat: no PNG image part`);
    checked.push("screenshot as an Anthropic and an OpenAI Chat image");
  } finally {
    closeReport = await toolset.close();
    await manager.close();
  }
  expect(closeReport.unresolved.length === 0, `${name}: close left ${JSON.stringify(closeReport.unresolved)}`);
  expect(toolset.uncertainOpenings() === 0, `${name}: uncertainOpenings() is ${toolset.uncertainOpenings()}`);
  const leaked = [config.browserbaseApiKey, config.steelApiKey].filter((key) => seen.some((text) => text.includes(key)));
  expect(leaked.length === 0, `${name}: a provider key reached what the model sees`);
  const record = await rest.get(created[0]);
  expect(record === undefined || record.status !== "RUNNING", `${name}: after close the provider reads ${JSON.stringify(record)}`);
  const after = await pageTargets(cdp.connectCdp, config.cdpUrl);
  const left = after.filter((targetId) => !before.includes(targetId));
  expect(left.length === 0, `${name}: page targets left in the Chromium: ${left.join(", ")}`);
  checked.push("no provider key in what the model saw", "close: released at the provider, no page target left");
  return `${name}: ${checked.join(", ")}`;
}

/**
 * Runs the check. `config`: `{ standIn, browserbaseApiKey, steelApiKey,
 * cdpUrl, pageUrl }` (the stand-in's origin and keys, the Chromium its
 * sessions hand out, and the fixture home page).
 */
export async function runEdgeCheck(config) {
  const started = performance.now();
  const modules = {
    core: await import("station-browser-use"),
    cdp: await import("station-browser-use/cdp"),
    agent: await import("station-browser-use/agent"),
    anthropicBridge: await import("station-browser-use/anthropic"),
    openai: await import("station-browser-use/openai"),
  };
  const { createBrowserbaseRestProvider } = await import("station-browser-use/browserbase");
  const { createSteelRestProvider } = await import("station-browser-use/steel");
  const providers = [
    ["browserbase", createBrowserbaseRestProvider({ apiKey: config.browserbaseApiKey, baseURL: `${config.standIn}/browserbase` })],
    ["steel", createSteelRestProvider({ apiKey: config.steelApiKey, baseURL: `${config.standIn}/steel` })],
  ];
  const checked = [];
  let firstToolResultMs;
  const opened = () => (firstToolResultMs ??= Math.round(performance.now() - started));
  for (const [name, rest] of providers) checked.push(await runOne(name, rest, config, modules, opened));
  return { firstToolResultMs, checked };
}
