/**
 * Edge-direct on Cloudflare Workers: a Worker that gives Claude a real
 * browser on Browserbase, with no Node service in between. `POST /` with
 * `{ "task": "…" }` runs one agent loop inside the request: the agent tools
 * on a `BrowserSessionManager` on the CDP engine, which drives the
 * Browserbase session over the Worker's own `WebSocket`. The provider key is
 * read from `env` and stays in the Worker: the model sees the tools and
 * their results, never a key.
 *
 *   wrangler secret put BROWSERBASE_API_KEY
 *   wrangler secret put ANTHROPIC_API_KEY
 *   wrangler deploy
 *   curl -X POST https://<your worker>/ -d '{"task":"Open https://example.com/ and tell me its title"}'
 *
 * The model is called over `fetch` (the Messages API's wire format), so the
 * Worker bundles without nodejs_compat.
 *
 * The live CDP connection belongs to this request: the session is closed
 * (and Browserbase releases it) before the response goes out. See the
 * README's "Edge-direct" section for keeping state across requests.
 */
import { createBrowserAgentTools } from "../../src/agent.js";
import { anthropicTools } from "../../src/anthropic.js";
import { createBrowserbaseRestProvider } from "../../src/browserbase.js";
import { CdpBrowserAdapter } from "../../src/cdp.js";
import { BrowserSessionManager, createMemoryStateStore } from "../../src/index.js";

/** The Worker's bindings: secrets set with `wrangler secret put`, the rest in wrangler.toml. */
export interface Env {
  BROWSERBASE_API_KEY: string;
  BROWSERBASE_PROJECT_ID?: string;
  ANTHROPIC_API_KEY: string;
  /** Only to point the Worker at stand-ins of the two APIs (tests). */
  BROWSERBASE_BASE_URL?: string;
  ANTHROPIC_BASE_URL?: string;
}

/** Model turns per request (each may run several tools). */
const maxTurns = 20;

/** The parts of a Messages API reply the loop reads. */
interface MessageReply {
  content: Array<{ type: string; text?: string; id?: string; name?: string; input?: unknown }>;
  stop_reason: string;
}

/** `POST /v1/messages`; a non-2xx answer throws with its status (its body may echo the request, never the key). */
async function createMessage(env: Env, body: Record<string, unknown>): Promise<MessageReply> {
  const response = await fetch(`${env.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com"}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": env.ANTHROPIC_API_KEY, "anthropic-version": "2023-06-01" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`Anthropic Messages API answered ${response.status}`);
  return (await response.json()) as MessageReply;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (request.method !== "POST") return new Response('POST a JSON body {"task": "…"}', { status: 405 });
    const body = (await request.json().catch(() => undefined)) as { task?: unknown } | undefined;
    if (typeof body?.task !== "string" || body.task === "") return Response.json({ error: "task: expected a non-empty string" }, { status: 400 });

    const provider = createBrowserbaseRestProvider({
      apiKey: env.BROWSERBASE_API_KEY,
      ...(env.BROWSERBASE_PROJECT_ID ? { projectId: env.BROWSERBASE_PROJECT_ID } : {}),
      ...(env.BROWSERBASE_BASE_URL ? { baseURL: env.BROWSERBASE_BASE_URL } : {}),
    });
    // In-memory state for this request; pass a StateStore of your own (KV, D1, a Durable Object's storage) to keep the journal, checkpoints and uncertain opens across requests.
    const browsers = new BrowserSessionManager(new CdpBrowserAdapter({ provider }), 1, { ownsAdapter: true, stateStore: createMemoryStateStore() });
    const tools = createBrowserAgentTools({ client: browsers, maxSessions: 1 });
    const browser = anthropicTools(tools.tools);

    const messages: unknown[] = [{ role: "user", content: body.task }];
    try {
      for (let turn = 0; turn < maxTurns; turn++) {
        const response = await createMessage(env, { model: "claude-sonnet-5", max_tokens: 4096, messages, tools: browser.definitions });
        messages.push({ role: "assistant", content: response.content });
        if (response.stop_reason !== "tool_use") {
          return Response.json({ answer: response.content.flatMap((block) => (block.type === "text" && block.text ? [block.text] : [])).join("\n") });
        }
        messages.push(await browser.handleToolUses(response.content));
      }
      return Response.json({ error: `no answer within ${maxTurns} turns` }, { status: 504 });
    } finally {
      await tools.close(); // the sessions this request opened: the CDP connection ends, Browserbase releases the session
      await browsers.close();
    }
  },
};
