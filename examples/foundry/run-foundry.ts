/**
 * One Foundry run, fully assembled on the embedded default: the scenario
 * site, an in-process worker over local Chromium (real HTTP on 127.0.0.1),
 * its client, the browser tools (one session at most), a model (a real API,
 * or the scripted stand-in), the loop; then everything is closed, whatever
 * the ending, and the result is checked against what the server issued.
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { BrowserUseClient, createBrowserAgentTools, type AgentTool } from "../../src/agent.js";
import { BrowserSessionManager, PlaywrightBrowserAdapter } from "../../src/playwright.js";
import { createBrowserWorker, createWorkerHttpServer } from "../../src/worker/index.js";
import { runAgent, type AgentBudget, type AgentEvent } from "./agent-loop.js";
import { createAnthropicClient } from "./anthropic-client.js";
import { createInMemoryConversationStore, type ConversationStore, type RunEnding } from "./conversation-store.js";
import type { ModelClient, ToolCallRecord } from "./model-client.js";
import { createOpenAIChatClient } from "./openai-chat-client.js";
import { createOpenAIResponsesClient } from "./openai-responses-client.js";
import { startScenarioSite } from "./scenario-site.js";
import type { ScriptName } from "./scripted-model.js";
import { startScriptedStandIn } from "./scripted-stand-in.js";
import { referencePattern, scenarioTask } from "./task.js";

/** The model APIs the Foundry run can drive (each through its bridge). */
export type FoundryApi = "openai-chat" | "anthropic" | "openai-responses";

/** A real model endpoint. */
export interface RealModel {
  baseUrl: string;
  apiKey: string;
  model: string;
  headers?: Record<string, string>;
}

export interface FoundryRunOptions {
  api: FoundryApi;
  /** The real model; left out, the scripted stand-in plays `script` (protocol-only). */
  real?: RealModel;
  script?: ScriptName;
  store?: ConversationStore;
  conversationId?: string;
  budget?: Partial<AgentBudget>;
  onEvent?: (event: AgentEvent) => void;
  /** Stops the run (Ctrl-C): the call in flight is cancelled and the run ends as a model or tool error, then everything closes. */
  signal?: AbortSignal;
  /** Changes the tools the model client sees (the tests break the image path with it). */
  wrapTools?: (tools: AgentTool[]) => AgentTool[];
}

export interface FoundryReport {
  api: FoundryApi;
  model: string;
  ending: RunEnding;
  turns: number;
  finalText: string;
  /** The reference the agent reported (`REFERENCE: …`). */
  reference?: string;
  /** What the server issued, in order. */
  issuedReferences: string[];
  /** Ended `done`, reported the one reference the server issued, and closed its own browser. */
  verified: boolean;
  /** Browser sessions of the worker when the loop ended (0: the agent closed its browser). */
  sessionsAfterAgent: number;
  /** Browser sessions of the worker after the toolset was closed (always 0 unless a close failed). */
  sessionsAtEnd: number;
  /** The stored conversation, in the API's own shape. */
  transcript: unknown[];
  /** The screenshots the tools returned (base64 PNG), in order. */
  screenshots: string[];
  /** The tool calls of the run, in order, with their results. */
  toolCalls: ToolCallRecord[];
  /** The scripted stand-in's received request bodies (protocol-only runs). */
  requests: unknown[];
  /** The code drawn on the access page (for checks: it must reach the model only as pixels). */
  accessCode: string;
}

/** Runs the scenario once and closes everything it started, whatever the ending. */
export async function runFoundry(options: FoundryRunOptions): Promise<FoundryReport> {
  // What was started, closed last-first in `finally` whatever fails on the way.
  const closers: Array<() => Promise<void>> = [];
  try {
    const site = await startScenarioSite();
    closers.unshift(site.close);
    const standIn = options.real === undefined ? await startScriptedStandIn(options.script ?? "scenario") : undefined;
    if (standIn !== undefined) closers.unshift(standIn.close);
    const manager = new BrowserSessionManager(new PlaywrightBrowserAdapter(), 1, { ownsAdapter: true });
    closers.unshift(async () => void (await manager.close())); // a no-op once the worker closed it
    const tenantKey = randomBytes(24).toString("hex");
    const worker = createBrowserWorker({ manager, token: randomBytes(24).toString("hex"), tenants: { [tenantKey]: "foundry" }, stationId: "foundry" });
    const server = createWorkerHttpServer(worker);
    closers.unshift(async () => {
      await worker.close(); // closes the manager, which (ownsAdapter) ends Chromium
      server.closeAllConnections();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = new BrowserUseClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      stationId: "foundry",
      apiKey: tenantKey,
      retry: { limit: 0 }, // no retries anywhere in the agent's path
    });
    const browser = createBrowserAgentTools({ client, maxSessions: 1 });
    const screenshots: string[] = [];
    const tools = (options.wrapTools ?? ((each) => each))(browser.tools);
    const endpoint = options.real ?? { baseUrl: standIn!.baseUrl, apiKey: "scripted-model", model: "scripted-foundry" };
    const clients = { "openai-chat": createOpenAIChatClient, anthropic: createAnthropicClient, "openai-responses": createOpenAIResponsesClient };
    const model = clients[options.api]({ ...endpoint, tools }) as ModelClient<unknown>;
    const store = options.store ?? createInMemoryConversationStore();
    const conversationId = options.conversationId ?? `foundry-${randomBytes(4).toString("hex")}`;
    let result;
    let sessionsAfterAgent: number;
    try {
      result = await runAgent({
        model,
        store,
        conversationId,
        task: scenarioTask(site.url),
        ...(options.budget ? { budget: options.budget } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        onEvent(event) {
          if (event.type === "tool") for (const image of event.record.result.images) screenshots.push(image.base64);
          options.onEvent?.(event);
        },
      });
    } finally {
      sessionsAfterAgent = manager.list().length;
      await browser.close(); // the session the agent left open, if any
    }
    const reference = referencePattern.exec(result.finalText)?.[1];
    const verified =
      result.ending.reason === "done" && reference !== undefined && site.issuedReferences.length === 1 && site.issuedReferences[0] === reference && sessionsAfterAgent === 0;
    return {
      api: options.api,
      model: model.model,
      ending: result.ending,
      turns: result.turns,
      finalText: result.finalText,
      ...(reference === undefined ? {} : { reference }),
      issuedReferences: [...site.issuedReferences],
      verified,
      sessionsAfterAgent,
      sessionsAtEnd: manager.list().length,
      transcript: (await store.load(conversationId))?.messages ?? [],
      screenshots,
      toolCalls: result.toolCalls,
      requests: standIn?.requests ?? [],
      accessCode: site.accessCode,
    };
  } finally {
    for (const close of closers) await close();
  }
}
