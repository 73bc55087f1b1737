/**
 * The agent-side check every runtime runs against the same worker, from the
 * installed tarball: client and tools; open, navigate, observe, click a ref,
 * a screenshot through each bridge (OpenAI Chat and Responses from
 * station-browser-use/openai, Anthropic from /anthropic); close with no
 * uncertain opening left. Plain JavaScript and web standards only, so Node,
 * Deno, Bun and workerd run it as it is.
 */

/** Throws `message` unless `condition` holds. */
export function expect(condition, message) {
  if (!condition) throw new Error(message);
}

/** The ref of the first snapshot line matching `line`. */
function refOf(snapshot, line) {
  for (const text of snapshot.split("\n")) {
    const ref = line.test(text) ? /\[((?:f\d+)?e\d+)\]/.exec(text)?.[1] : undefined;
    if (ref) return ref;
  }
  throw new Error(`no ref for ${line} in the snapshot:\n${snapshot}`);
}

/** Whether base64 data starts with the PNG signature. */
function isPng(base64) {
  const bytes = atob(base64.slice(0, 12));
  return bytes.charCodeAt(0) === 0x89 && bytes.slice(1, 4) === "PNG";
}

/**
 * Runs the check. `config`: `{ baseUrl, stationId, apiKey, pageUrl }` (the
 * worker, a tenant key, and a page whose link "Second page" leads to a
 * page titled "Second"). Returns the time from the import to the first
 * tool result, and what was checked.
 */
export async function runAgentCheck(config) {
  const started = performance.now();
  const agent = await import("station-browser-use/agent");
  const openai = await import("station-browser-use/openai");
  const anthropicBridge = await import("station-browser-use/anthropic");
  const client = new agent.BrowserUseClient({ baseUrl: config.baseUrl, stationId: config.stationId, apiKey: config.apiKey, timeoutMs: 30_000 });
  const toolset = agent.createBrowserAgentTools({ client, maxSessions: 1 });
  const tools = new Map(toolset.tools.map((tool) => [tool.name, tool]));
  const call = async (name, input) => {
    const result = await tools.get(`station_browser_${name}`).execute(input);
    expect(result.isError === undefined, `${name} failed:\n${result.text}`);
    return result;
  };
  const checked = [];
  let firstToolResultMs;
  let closeReport;
  try {
    await call("open", {});
    firstToolResultMs = Math.round(performance.now() - started);
    const navigated = await call("navigate", { url: config.pageUrl });
    // The outcome line names a navigation: `outcome: ok — navigate; navigated`.
    const saysNavigated = (text) => /^outcome: ok — [^\n]*; navigated\b/m.test(text);
    expect(saysNavigated(navigated.text), `navigate did not say it navigated:\n${navigated.text}`);
    const observed = await call("observe", {});
    const clicked = await call("click", { target: refOf(observed.text, /link "Second page"/) });
    expect(saysNavigated(clicked.text) && clicked.text.includes('title: "Second page"'), `the click did not reach the second page:\n${clicked.text}`);
    checked.push("open", "navigate", "observe", "click ref");

    const chat = await openai.openAIChatTools(toolset.tools).handleToolCalls([
      { id: "call_chat", type: "function", function: { name: "station_browser_screenshot", arguments: "{}" } },
    ]);
    const chatImage = chat[1]?.content?.find((part) => part.type === "image_url")?.image_url?.url ?? "";
    expect(chat[0]?.role === "tool" && chatImage.startsWith("data:image/png;base64,") && isPng(chatImage.split(",")[1]), `OpenAI Chat: no PNG image part; the tool message: ${JSON.stringify(chat[0]?.content ?? null).slice(0, 600)}`);
    checked.push("openai-chat image");

    const responses = await openai.openAIResponsesTools(toolset.tools).handleToolCalls([
      { type: "function_call", call_id: "call_responses", name: "station_browser_screenshot", arguments: "{}" },
    ]);
    const responsesImage = Array.isArray(responses[0]?.output) ? responses[0].output.find((part) => part.type === "input_image")?.image_url ?? "" : "";
    expect(responsesImage.startsWith("data:image/png;base64,") && isPng(responsesImage.split(",")[1]), "OpenAI Responses: no PNG input_image");
    checked.push("openai-responses image");

    const anthropic = await anthropicBridge.anthropicTools(toolset.tools).handleToolUses([
      { type: "tool_use", id: "toolu_anthropic", name: "station_browser_screenshot", input: {} },
    ]);
    const block = anthropic.content[0]?.content?.find((part) => part.type === "image");
    expect(block?.source?.media_type === "image/png" && isPng(block.source.data), "Anthropic: no PNG image block");
    checked.push("anthropic image");
  } finally {
    closeReport = await toolset.close();
  }
  expect(closeReport.unresolved.length === 0, `close left ${JSON.stringify(closeReport.unresolved)}`);
  expect(toolset.uncertainOpenings() === 0, `uncertainOpenings() is ${toolset.uncertainOpenings()}`);
  checked.push("close, uncertainOpenings() 0");

  if (config.refusedUrl) {
    // A refused connection sent nothing: a plain error, not an unknown outcome. workerd reports it only as
    // "Network connection lost.", which cannot be told from a cut after sending, so there it stays unknown.
    const refused = new agent.BrowserUseClient({ baseUrl: config.refusedUrl, stationId: config.stationId, apiKey: config.apiKey, timeoutMs: 10_000 });
    const error = await refused.open().then(() => undefined, (caught) => caught);
    const workerd = globalThis.navigator?.userAgent === "Cloudflare-Workers";
    const expected = workerd ? "outcome_unknown" : "provider";
    expect(error?.code === expected, `open against a refused port: expected ${expected}, got ${error?.code}: ${error?.message}`);
    checked.push(workerd ? "refused connection: unknown (workerd cannot tell)" : "refused connection: nothing sent");
  }
  return { firstToolResultMs, checked };
}
