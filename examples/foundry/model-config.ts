/**
 * Which model the demo drives, from its arguments and the environment:
 *
 * - `OPENROUTER_API_KEY`: Chat Completions at OpenRouter (default `https://openrouter.ai/api/v1`);
 * - else `OPENAI_API_KEY`: Chat Completions at OpenAI (`https://api.openai.com/v1`);
 * - `FOUNDRY_API=anthropic` with `ANTHROPIC_API_KEY`: Anthropic Messages;
 * - `FOUNDRY_API=openai-responses`: the Responses API (OpenRouter or OpenAI, by key);
 * - `FOUNDRY_MODEL`, `FOUNDRY_BASE_URL` override the model and the endpoint;
 * - `--protocol-only`, or no key: the scripted model, on every API shape
 *   (or the one `--api` names).
 */
import type { FoundryApi, RealModel } from "./run-foundry.js";

export const foundryApis: readonly FoundryApi[] = ["openai-chat", "anthropic", "openai-responses"];

export type ModelChoice =
  | { kind: "real"; api: FoundryApi; endpoint: RealModel; keyName: string }
  | { kind: "protocol-only"; apis: FoundryApi[]; why: string };

/** A command line the demo does not understand. */
export class DemoUsageError extends Error {
  override name = "DemoUsageError";
}

export const demoUsage = `Usage: npm run demo [-- --protocol-only] [-- --api openai-chat|anthropic|openai-responses]

With OPENROUTER_API_KEY (or OPENAI_API_KEY) set, a real model runs the agent
(FOUNDRY_MODEL picks the model, FOUNDRY_BASE_URL the endpoint; FOUNDRY_API=anthropic
with ANTHROPIC_API_KEY uses Anthropic Messages, FOUNDRY_API=openai-responses the
Responses API). Without a key, or with
--protocol-only, a scripted model plays the scenario on each API shape.`;

/** Reads the choice. @throws {DemoUsageError} for an unknown argument or API name. */
export function chooseModel(argv: readonly string[], environment: Record<string, string | undefined>): ModelChoice {
  let protocolOnly = false;
  let api: FoundryApi | undefined;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--protocol-only") protocolOnly = true;
    else if (argument === "--api") {
      const value = argv[++index];
      if (!foundryApis.includes(value as FoundryApi)) throw new DemoUsageError(`--api: expected one of ${foundryApis.join(", ")}, got ${JSON.stringify(value ?? "")}`);
      api = value as FoundryApi;
    } else throw new DemoUsageError(`unknown argument ${JSON.stringify(argument.slice(0, 40))}\n\n${demoUsage}`);
  }
  const wanted = api ?? (environment.FOUNDRY_API as FoundryApi | undefined);
  if (wanted !== undefined && !foundryApis.includes(wanted)) throw new DemoUsageError(`FOUNDRY_API: expected one of ${foundryApis.join(", ")}, got ${JSON.stringify(wanted)}`);
  const scripted = (why: string): ModelChoice => ({ kind: "protocol-only", apis: wanted === undefined ? [...foundryApis] : [wanted], why });
  if (protocolOnly) return scripted("--protocol-only");

  const model = environment.FOUNDRY_MODEL;
  const baseUrl = environment.FOUNDRY_BASE_URL;
  if (baseUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(baseUrl)) throw new DemoUsageError(`FOUNDRY_BASE_URL: expected an http(s) URL such as https://openrouter.ai/api/v1, got ${JSON.stringify(baseUrl.slice(0, 80))}`);
  if (wanted === "anthropic") {
    const apiKey = environment.ANTHROPIC_API_KEY;
    if (!apiKey) return scripted("FOUNDRY_API=anthropic but no ANTHROPIC_API_KEY is set");
    return { kind: "real", api: "anthropic", keyName: "ANTHROPIC_API_KEY", endpoint: { apiKey, baseUrl: baseUrl ?? "https://api.anthropic.com/v1", model: model ?? "claude-sonnet-4-5" } };
  }
  const openAIApi = wanted ?? "openai-chat";
  if (environment.OPENROUTER_API_KEY) {
    return {
      kind: "real",
      api: openAIApi,
      keyName: "OPENROUTER_API_KEY",
      endpoint: {
        apiKey: environment.OPENROUTER_API_KEY,
        baseUrl: baseUrl ?? "https://openrouter.ai/api/v1",
        model: model ?? "openai/gpt-4.1-mini",
        headers: { "X-Title": "station-browser-use Foundry demo" },
      },
    };
  }
  if (environment.OPENAI_API_KEY) {
    return { kind: "real", api: openAIApi, keyName: "OPENAI_API_KEY", endpoint: { apiKey: environment.OPENAI_API_KEY, baseUrl: baseUrl ?? "https://api.openai.com/v1", model: model ?? "gpt-4.1-mini" } };
  }
  return scripted("no OPENROUTER_API_KEY or OPENAI_API_KEY is set");
}
