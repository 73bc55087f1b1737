import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { examplePageTitle } from "../../examples/support/example-page.js";
import { startScriptedOpenAI } from "../../examples/support/scripted-openai.js";
import { mcpUsage } from "../../src/mcp/cli-options.js";
import { spawnTsx } from "../helpers/processes.js";
import { startWorkerStack, type WorkerStack } from "../helpers/worker-stack.js";

/**
 * Every examples/*.ts runs as a script, the way `npm run example:…` runs it,
 * without a provider key, and exits by itself with 0 having printed its facts
 * (for the bridges: the page title reached the model, and the screenshot
 * reached it in that API's own image channel). Every ```ts block of the
 * README and the bridges guide is an excerpt of one of these files, so the
 * two cannot drift apart.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const documents = ["README.md", "docs/bridges.md"];
/** The package's entries, as the exports map names them, and their source (tsup.config.ts). */
const entries: Record<string, string> = {
  "station-browser-use": "src/index.ts",
  "station-browser-use/playwright": "src/playwright.ts",
  "station-browser-use/agent": "src/agent.ts",
  "station-browser-use/openai": "src/openai.ts",
  "station-browser-use/anthropic": "src/anthropic.ts",
  "station-browser-use/worker": "src/worker/index.ts",
  "station-browser-use/browserbase": "src/browserbase.ts",
  "station-browser-use/steel": "src/steel.ts",
  "station-browser-use/cdp": "src/cdp.ts",
  "station-browser-use/ai-sdk": "src/ai-sdk.ts",
  "station-browser-use/mcp": "src/mcp.ts",
};
/**
 * Snippets that are not excerpts of an example yet: the hosted providers need
 * a stand-in for the provider's REST API and CDP (test/helpers/browserbase-mock.ts
 * and steel-mock.ts do it for the tests). Listed by the provider factory they import.
 */
const notYetExamples = ["createBrowserbaseProvider", "createSteelProvider"];
/** A generous bound that only ends a script that hangs; not a measure of speed. */
const killAfterMs = 120_000;

const title = examplePageTitle;
/** What each example must print. A new example needs its facts here. */
const facts: Record<string, RegExp[]> = {
  "openai-chat.ts": [
    new RegExp(`the page title "${title}" reached me in the tool result`),
    /the screenshot reached me as an image_url data URL in a user message \(image\/png, \d+ bytes of PNG\)/,
  ],
  "openai-responses.ts": [
    new RegExp(`the page title "${title}" reached me in the tool result`),
    /the screenshot reached me as an input_image inside the function_call_output \(image\/png, \d+ bytes of PNG\)/,
  ],
  "anthropic.ts": [
    new RegExp(`the page title "${title}" reached me in the tool result`),
    /the screenshot reached me as an image block inside the tool_result \(image\/png, \d+ bytes of PNG\)/,
  ],
  "ai-sdk.ts": [
    new RegExp(`the page title "${title}" reached me in the tool result`),
    /the screenshot reached me as an image-data part of the tool result \(image\/png, \d+ bytes of PNG\)/,
  ],
  "mcp.ts": [
    /^16 tools: station_browser_open, /m,
    new RegExp(`the page title "${title}" came back as text content, and the screenshot as image content \\(image/png, \\d+ bytes of base64 data\\)`),
  ],
  "engine.ts": [/link "More information" \[e\d+\]/, new RegExp(`click e\\d+ → ok, title "${title}"`)],
  "session-manager.ts": [/^#1 ok navigate http:\/\/127\.0\.0\.1:\d+\/$/m, /^#2 ok click #go$/m],
  "worker-client.ts": [new RegExp(`tenant session s_[\\w-]+: navigated to "${title}"`), /the operator sees the tenant's session/],
  "observe-local.ts": [/status {4}→ Welcome, ada/, /screenshot → image\/png/],
  "manager-local.ts": [/automation during the lease →/, /resumed session s_[\w-]+ → \{ value: 'Compose' \}/],
};

const examples = readdirSync(join(root, "examples")).filter((name) => name.endsWith(".ts")).sort();

// --- running the examples ---------------------------------------------------

const token = "op-".padEnd(40, "x");
const tenantKey = "tenant-acme-".padEnd(40, "k");
let stack: WorkerStack;

beforeAll(async () => {
  stack = await startWorkerStack({ token, tenantKey, maxSessions: 2 });
});
afterAll(async () => {
  await stack?.close();
});

/** Runs an example from the repository root, as its npm script does; its exit code (or "hung") and output. */
async function run(file: string): Promise<{ code: number | string | null; output: string }> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("STATION_") && !/^(OPENAI|ANTHROPIC)_/.test(name)),
  );
  const child = spawnTsx(join("examples", file), [], {
    cwd: root,
    env: {
      ...inherited,
      // The worker for worker-client.ts; the others do not read these.
      STATION_WORKER_URL: stack.worker.origin,
      STATION_ID: "local",
      STATION_API_KEY: tenantKey,
      STATION_EXECUTION_TOKEN: token,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let hung = false;
  const killer = setTimeout(() => {
    hung = true;
    child.kill("SIGKILL");
  }, killAfterMs);
  const code = await new Promise<number | null>((resolve) => child.on("exit", (exitCode) => resolve(exitCode)));
  clearTimeout(killer);
  return { code: hung ? "hung" : code, output };
}

describe("examples/*.ts run without a provider key and print their facts", () => {
  it("knows the facts of every example, and there is one example per bridge", () => {
    expect(examples).toEqual(Object.keys(facts).sort());
    for (const bridge of ["openai-chat.ts", "openai-responses.ts", "anthropic.ts", "ai-sdk.ts", "mcp.ts"]) expect(examples).toContain(bridge);
  });

  it.each(examples)("%s exits with 0 and prints its facts", async (file) => {
    const { code, output } = await run(file);
    expect({ code, output }).toEqual({ code: 0, output: expect.any(String) });
    for (const fact of facts[file] ?? []) expect(output).toMatch(fact);
  }, killAfterMs + 10_000);
});

describe("the scripted OpenAI stand-in checks the image channel", () => {
  it("refuses a Chat Completions turn whose screenshot is not an image_url part of a user message", async () => {
    const standIn = await startScriptedOpenAI(title);
    try {
      const tools = ["station_browser_open", "station_browser_screenshot"].map((name) => ({ type: "function", function: { name, parameters: {} } }));
      const messages = [
        { role: "user", content: "Open http://127.0.0.1:1/" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_open", type: "function", function: { name: "station_browser_open", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "call_open", content: `title: "${title}"` },
        // The image as base64 text inside a tool message: not the image channel.
        { role: "tool", tool_call_id: "call_screenshot", content: "data:image/png;base64,iVBORw0KGgo=" },
      ];
      const response = await fetch(`${standIn.baseURL}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-5.5", messages, tools }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: { type: "invalid_request_error", message: "scripted model: no image_url part in a user message after the tool messages" },
      });
    } finally {
      await standIn.close();
    }
  });
});

// --- snippets are excerpts of the examples ------------------------------------

interface Snippet {
  name: string;
  code: string;
}

/** One import declaration: the module and the names it binds. */
interface ImportLine {
  module: string;
  names: string[];
}

function snippetsOf(document: string): Snippet[] {
  const markdown = readFileSync(join(root, document), "utf8");
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => ({
    name: `${document}:${markdown.slice(0, match.index).split("\n").length}`,
    code: match[1]!,
  }));
}

const importPattern = /^import (?:type )?(.+?) from "([^"]+)";/;

/** An example's import of `../src/x.js` is the package entry that maps to `src/x.ts`; `fromExample` is the example's path under examples/. */
function moduleName(specifier: string, fromExample: string | undefined): string {
  if (fromExample === undefined || !specifier.startsWith(".")) return specifier;
  const source = posix.normalize(posix.join("examples", posix.dirname(fromExample), specifier)).replace(/\.js$/, ".ts");
  return Object.keys(entries).find((name) => entries[name] === source) ?? source;
}

function parse(code: string, fromExample?: string): { imports: ImportLine[]; lines: string[] } {
  const imports: ImportLine[] = [];
  const lines: string[] = [];
  for (const raw of code.split("\n")) {
    const match = importPattern.exec(raw.trim());
    if (match !== null) {
      const names = match[1]!
        .replace(/[{}]/g, " ")
        .split(/[\s,]+/)
        .filter((name) => name !== "" && name !== "type");
      imports.push({ module: moduleName(match[2]!, fromExample), names });
      continue;
    }
    // Indentation and the alignment of comments are not part of the code.
    const line = raw.trim().replace(/\s+/g, " ");
    if (line !== "") lines.push(line);
  }
  return { imports, lines };
}

/** Why `snippet` is not an excerpt of `example` (undefined when it is). */
function notAnExcerpt(snippet: ReturnType<typeof parse>, example: ReturnType<typeof parse>): string | undefined {
  for (const { module, names } of snippet.imports) {
    const imported = new Set(example.imports.filter((each) => each.module === module).flatMap((each) => each.names));
    const missing = names.filter((name) => !imported.has(name));
    if (missing.length > 0) return `does not import ${missing.join(", ")} from "${module}"`;
  }
  let at = 0;
  for (const line of snippet.lines) {
    const found = example.lines.indexOf(line, at);
    if (found === -1) return `has no line ${JSON.stringify(line)}${at > 0 ? " after the lines before it" : ""}`;
    at = found + 1;
  }
  return undefined;
}

/** What snippets may be excerpts of: the examples, and the edge Worker (bundled and run in workerd by the runtime suite, not here). */
const excerptSources = [...examples, "edge-worker/worker.ts"];
const exampleCode = Object.fromEntries(excerptSources.map((file) => [file, parse(readFileSync(join(root, "examples", file), "utf8"), file)]));
const snippets = documents.flatMap(snippetsOf);
const excerptSnippets = snippets.filter((snippet) => !parse(snippet.code).imports.some((line) => line.names.some((name) => notYetExamples.includes(name))));

describe("every ```ts snippet of the README and the bridges guide is an excerpt of an example", () => {
  it("finds the snippets, and only the hosted providers' are not examples yet", () => {
    expect(snippets.filter((snippet) => snippet.name.startsWith("README.md:")).length).toBeGreaterThanOrEqual(9);
    expect(snippets.filter((snippet) => snippet.name.startsWith("docs/bridges.md:")).length).toBeGreaterThanOrEqual(6);
    expect(snippets.length - excerptSnippets.length).toBe(2);
  });

  it.each(excerptSnippets)("$name is an excerpt of a file under examples/", (snippet) => {
    const parsed = parse(snippet.code);
    const reasons = excerptSources.map((file) => ({ file, reason: notAnExcerpt(parsed, exampleCode[file]!) }));
    const source = reasons.find((each) => each.reason === undefined);
    expect(source, `no example holds this snippet:\n${reasons.map((each) => `  examples/${each.file} ${each.reason}`).join("\n")}`).toBeDefined();
  });

  it("the README's wrangler.toml is examples/edge-worker/wrangler.toml", () => {
    const toml = readFileSync(join(root, "examples/edge-worker/wrangler.toml"), "utf8");
    expect(readFileSync(join(root, "README.md"), "utf8")).toContain(`\`\`\`toml\n${toml}\`\`\``);
  });

  it("an edited snippet line is caught", () => {
    const original = parse(readFileSync(join(root, "examples/openai-chat.ts"), "utf8"), "openai-chat.ts");
    const edited = parse(`const completion = await openai.chat.completions.create({ model: "gpt-4", messages, tools: browser.definitions });`);
    expect(notAnExcerpt(edited, original)).toMatch(/^has no line/);
    const wrongEntry = parse(`import { openAIChatTools } from "station-browser-use/ai-sdk";`);
    expect(notAnExcerpt(wrongEntry, original)).toBe('does not import openAIChatTools from "station-browser-use/ai-sdk"');
  });
});

describe("the documents name one variable per setting", () => {
  const texts = ["README.md", ...readdirSync(join(root, "docs")).map((name) => `docs/${name}`)].map((file) => readFileSync(join(root, file), "utf8"));

  it("use the MCP CLI's own names for the worker's URL, station id and tenant key, and no other tenant-key name", () => {
    const cliNames = [...mcpUsage.matchAll(/^\s+(STATION_[A-Z_]+)\s/gm)].map((match) => match[1]!).sort();
    expect(cliNames).toEqual(["STATION_API_KEY", "STATION_ID", "STATION_WORKER_URL"]);
    const readme = texts[0]!;
    for (const name of cliNames) expect(readme).toContain(name);
    for (const text of texts) expect(text).not.toMatch(/(?<!STATION_)TENANT_KEY\b/);
  });

  it("say that the snippets are ES modules", () => {
    expect(texts[0]).toMatch(/"type": "module"/);
    expect(texts[0]).toMatch(/\.mts/);
  });
});
