/**
 * Anthropic Messages drives the browser tools: the README's and
 * docs/bridges.md's shared setup and Anthropic snippet, as one script.
 *
 *   npm run example:anthropic                              # no key: a scripted stand-in plays the model
 *   ANTHROPIC_API_KEY=sk-ant-… npm run example:anthropic   # the real model
 *
 * Either way the browser is local Chromium in this process, on a page this
 * script serves itself on 127.0.0.1 (`page`).
 */
import Anthropic from "@anthropic-ai/sdk";
import { anthropicTools } from "../src/anthropic.js";
import { createBrowserAgentTools } from "../src/agent.js";
import { BrowserSessionManager, PlaywrightBrowserAdapter } from "../src/playwright.js";
import { examplePageTitle, serveExamplePage } from "./support/example-page.js";
import { startScriptedAnthropic } from "./support/scripted-anthropic.js";

const page = await serveExamplePage();
// Without ANTHROPIC_API_KEY, a scripted stand-in on 127.0.0.1 answers in the API's wire format; the SDK reads its baseURL from ANTHROPIC_BASE_URL.
const scripted = process.env.ANTHROPIC_API_KEY ? undefined : await startScriptedAnthropic(examplePageTitle);
if (scripted !== undefined) Object.assign(process.env, { ANTHROPIC_BASE_URL: scripted.baseURL, ANTHROPIC_API_KEY: "scripted-model" });

// In-process: the tools drive a manager you made; with ownsAdapter its close() ends Chromium too.
const browsers = new BrowserSessionManager(new PlaywrightBrowserAdapter(), 2, { ownsAdapter: true });
const tools = createBrowserAgentTools({ client: browsers, maxSessions: 2 });
const task = `Open ${page.url} and tell me what the page is about.`;

const anthropic = new Anthropic(); // ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL, if set) from the environment
const browser = anthropicTools(tools.tools);

const messages: Anthropic.MessageParam[] = [{ role: "user", content: task }];
try {
  for (let step = 0; step < 30; step++) {
    const response = await anthropic.messages.create({
      model: "claude-sonnet-5",
      max_tokens: 4096,
      messages,
      tools: browser.definitions,
    });
    messages.push({ role: "assistant", content: response.content });
    if (response.stop_reason !== "tool_use") {
      console.log(response.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n"));
      break;
    }
    messages.push(await browser.handleToolUses(response.content));
  }
} finally {
  await tools.close(); // the sessions this toolset opened
  await browsers.close(); // the backend: the manager and (ownsAdapter) its Chromium
  await scripted?.close();
  await page.close();
}
