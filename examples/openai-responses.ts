/**
 * OpenAI Responses drives the browser tools: the README's and
 * docs/bridges.md's shared setup and Responses snippet, as one script.
 *
 *   npm run example:openai-responses                       # no key: a scripted stand-in plays the model
 *   OPENAI_API_KEY=sk-… npm run example:openai-responses   # the real model
 *
 * Either way the browser is local Chromium in this process, on a page this
 * script serves itself on 127.0.0.1 (`page`).
 */
import OpenAI from "openai";
import { createBrowserAgentTools } from "../src/agent.js";
import { openAIResponsesTools } from "../src/openai.js";
import { BrowserSessionManager, PlaywrightBrowserAdapter } from "../src/playwright.js";
import { examplePageTitle, serveExamplePage } from "./support/example-page.js";
import { startScriptedOpenAI } from "./support/scripted-openai.js";

const page = await serveExamplePage();
// Without OPENAI_API_KEY, a scripted stand-in on 127.0.0.1 answers in the API's wire format; the SDK reads its baseURL from OPENAI_BASE_URL.
const scripted = process.env.OPENAI_API_KEY ? undefined : await startScriptedOpenAI(examplePageTitle);
if (scripted !== undefined) Object.assign(process.env, { OPENAI_BASE_URL: scripted.baseURL, OPENAI_API_KEY: "scripted-model" });

// In-process: the tools drive a manager you made; with ownsAdapter its close() ends Chromium too.
const browsers = new BrowserSessionManager(new PlaywrightBrowserAdapter(), 2, { ownsAdapter: true });
const tools = createBrowserAgentTools({ client: browsers, maxSessions: 2 });
const task = `Open ${page.url} and tell me what the page is about.`;

const openai = new OpenAI(); // OPENAI_API_KEY (and OPENAI_BASE_URL, if set) from the environment
const browser = openAIResponsesTools(tools.tools);

try {
  let response = await openai.responses.create({ model: "gpt-5.5", input: task, tools: browser.definitions });
  for (let step = 0; step < 30; step++) {
    const outputs = await browser.handleToolCalls(response.output);
    if (outputs.length === 0) break;
    response = await openai.responses.create({
      model: "gpt-5.5",
      previous_response_id: response.id,
      input: outputs,
      tools: browser.definitions,
    });
  }
  console.log(response.output_text);
} finally {
  await tools.close(); // the sessions this toolset opened
  await browsers.close(); // the backend: the manager and (ownsAdapter) its Chromium
  await scripted?.close();
  await page.close();
}
