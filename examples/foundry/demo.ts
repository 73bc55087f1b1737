/**
 * `npm run demo`: the Foundry agent on the embedded default. An in-process
 * worker drives local Chromium; the agent reads an access code from a
 * screenshot, completes a form on a site served on 127.0.0.1, checks the
 * confirmation and reports its reference number. A real model runs when a key
 * is set (OPENROUTER_API_KEY or OPENAI_API_KEY); otherwise, or with
 * `--protocol-only`, a scripted model plays the scenario on each API shape.
 *
 * Prints progress, writes the transcript and screenshots to ./demo-output/,
 * closes every browser, and exits 0 only when every confirmation was verified.
 */
import { join } from "node:path";
import { isStationBrowserError } from "../../src/index.js";
import { findChromium } from "../../src/playwright.js";
import type { AgentEvent } from "./agent-loop.js";
import { foundryBudget } from "./agent-loop.js";
import { writeDemoOutput } from "./demo-output.js";
import { chooseModel, DemoUsageError, type ModelChoice } from "./model-config.js";
import { runFoundry, type FoundryApi } from "./run-foundry.js";

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const oneLine = (text: string, length = 110) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > length ? `${line.slice(0, length)}…` : line;
};

function printEvent(api: FoundryApi, event: AgentEvent): void {
  if (event.type === "turn") console.log(`[${api}] turn ${event.turn}/${event.maxTurns}  (${seconds(event.elapsedMs)})`);
  else if (event.type === "model" && event.toolCalls === 0) console.log(`  model answered: ${oneLine(event.text)}`);
  else if (event.type === "tool") {
    const { name, input, result } = event.record;
    const outcome = result.isError === true ? "error" : "ok";
    const images = result.images.length > 0 ? ` [+${result.images.length} image → the model's image input]` : "";
    console.log(`  ${name.replace("station_browser_", "")} ${oneLine(JSON.stringify(input), 70)} → ${outcome}: ${oneLine(result.text.replace(/<\/?untrusted-page-content[^>]*>/g, ""), 90)}${images}  (${seconds(event.elapsedMs)})`);
  } else if (event.type === "end") console.log(`[${api}] ended: ${event.ending.reason} after ${event.turns} turns — ${oneLine(event.ending.detail)}  (${seconds(event.elapsedMs)})`);
}

async function main(): Promise<number> {
  let choice: ModelChoice;
  try {
    choice = chooseModel(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof DemoUsageError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  try {
    findChromium();
  } catch (error) {
    const message = (error as Error).message;
    const install = /install/.test(message) ? "" : " Fix it, or install one: `npx playwright-core install chromium`, or the OS package (Debian/Ubuntu: `apt-get install -y chromium`).";
    console.error(`The demo needs a Chromium. ${message}${install}`);
    return 1;
  }
  if (choice.kind === "real") console.log(`Foundry demo with a real model: ${choice.endpoint.model} at ${new URL(choice.endpoint.baseUrl).origin} (${choice.api}, key from ${choice.keyName})`);
  else console.log(`Foundry demo, protocol-only (${choice.why}): a scripted model plays the scenario over ${choice.apis.join(", ")}, reading the access code from the screenshot it is sent`);
  console.log(`Budget: ${foundryBudget.maxTurns} turns, ${foundryBudget.maxOutputTokens} output tokens per call, 1 browser session, no retries.\n`);

  const stop = new AbortController();
  const interrupt = () => {
    console.log("\nInterrupted: stopping the agent and closing the browser…");
    stop.abort();
  };
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  const outputRoot = join(process.cwd(), "demo-output");
  const runs = choice.kind === "real" ? [{ api: choice.api, real: choice.endpoint }] : choice.apis.map((api) => ({ api, real: undefined }));
  let allVerified = true;
  for (const run of runs) {
    if (stop.signal.aborted) break;
    const report = await runFoundry({
      api: run.api,
      ...(run.real ? { real: run.real } : {}),
      signal: stop.signal,
      onEvent: (event) => printEvent(run.api, event),
    });
    const files = writeDemoOutput(runs.length === 1 ? outputRoot : join(outputRoot, run.api), report);
    const issued = report.issuedReferences.join(", ") || "none";
    if (report.verified) {
      console.log(`[${run.api}] verified: the agent reported ${report.reference}, the reference the server issued, and closed its browser.`);
    } else {
      console.log(`[${run.api}] NOT verified: ending ${report.ending.reason}; reported ${report.reference ?? "no reference"}; the server issued ${issued}; sessions open when the agent stopped: ${report.sessionsAfterAgent}.`);
      allVerified = false;
    }
    console.log(`[${run.api}] wrote ${files[0]} and ${files.length - 1} screenshot(s); browsers left open: ${report.sessionsAtEnd}\n`);
  }
  if (stop.signal.aborted) allVerified = false;
  console.log(allVerified ? "Demo passed: every confirmation was verified." : "Demo failed: see above.");
  return allVerified ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(isStationBrowserError(error) ? `${error.name}: ${error.message}` : error);
    process.exitCode = 1;
  },
);
