/**
 * The Vercel AI SDK drives the browser tools: the README's and
 * docs/bridges.md's shared setup and AI SDK snippet, as one script.
 *
 *   npm run example:ai-sdk                              # no key: the AI SDK's MockLanguageModelV3 plays a scripted model
 *   npm install @ai-sdk/anthropic
 *   ANTHROPIC_API_KEY=sk-ant-… npm run example:ai-sdk   # the real model, anthropic("claude-sonnet-5")
 *
 * Either way the browser is local Chromium in this process, on a page this
 * script serves itself on 127.0.0.1 (`page`).
 */
import type { LanguageModel } from "ai";
import { generateText, stepCountIs } from "ai";
import { createBrowserAgentTools } from "../src/agent.js";
import { toAiSdkTools } from "../src/ai-sdk.js";
import { BrowserSessionManager, PlaywrightBrowserAdapter } from "../src/playwright.js";
import { examplePageTitle, serveExamplePage } from "./support/example-page.js";
import { scriptedLanguageModel } from "./support/scripted-ai-sdk.js";

/** anthropic("claude-sonnet-5") from @ai-sdk/anthropic, which this repository does not install. */
async function anthropicModel(): Promise<LanguageModel> {
  const providerPackage = "@ai-sdk/anthropic"; // a variable, so that type checking does not need the package
  const loaded = (await import(providerPackage).catch(() => {
    throw new Error("ANTHROPIC_API_KEY is set: install @ai-sdk/anthropic to use the real model (npm install @ai-sdk/anthropic)");
  })) as { anthropic: (modelId: string) => LanguageModel };
  return loaded.anthropic("claude-sonnet-5");
}

const page = await serveExamplePage();
const model = process.env.ANTHROPIC_API_KEY ? await anthropicModel() : scriptedLanguageModel(examplePageTitle);

// In-process: the tools drive a manager you made; with ownsAdapter its close() ends Chromium too.
const browsers = new BrowserSessionManager(new PlaywrightBrowserAdapter(), 2, { ownsAdapter: true });
const tools = createBrowserAgentTools({ client: browsers, maxSessions: 2 });
const task = `Open ${page.url} and tell me what the page is about.`;

try {
  const result = await generateText({
    model, // anthropic("claude-sonnet-5") from @ai-sdk/anthropic, or openai("gpt-5.5") (Responses) from @ai-sdk/openai
    tools: toAiSdkTools(tools.tools),
    stopWhen: stepCountIs(30),
    prompt: task,
  });
  console.log(result.text);
} finally {
  await tools.close(); // the sessions this toolset opened
  await browsers.close(); // the backend: the manager and (ownsAdapter) its Chromium
  await page.close();
}
