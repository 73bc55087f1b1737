import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHoldingServer, type HoldingServer } from "../helpers/holding-server.js";
import { spawnTsx } from "../helpers/processes.js";
import { startWorkerStack, type WorkerStack } from "../helpers/worker-stack.js";

/**
 * Every ```ts snippet of the README and the bridges guide that needs nothing
 * but local Chromium (and, for the client, a local worker) runs as a script of
 * its own, the way a new user would paste it, and exits by itself with 0.
 * Its imports of `station-browser-use/…` resolve to this repository's source;
 * its example URLs point at a local page.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const documents = ["README.md", "docs/bridges.md"];
/** The package's entries, as the exports map names them, and their source. */
const entries: Record<string, string> = {
  "station-browser-use": "src/index.ts",
  "station-browser-use/playwright": "src/playwright.ts",
  "station-browser-use/agent": "src/agent.ts",
  "station-browser-use/worker": "src/worker/index.ts",
};
/** The environment a runnable snippet may read (set by this test). */
const environmentNames = new Set(["TENANT_KEY"]);
/** A generous bound that only ends a script that hangs; not a measure of speed. */
const killAfterMs = 60_000;

const page = `<title>Example</title><h1>Example</h1><a href="/">More information</a><button id="go">Go</button>`;
const token = "op-".padEnd(40, "x");
const tenantKey = "tenant-acme-".padEnd(40, "k");

interface Snippet {
  name: string;
  code: string;
}

/** The ```ts blocks of a Markdown text that import only the package's own entries and read only known variables. */
function runnableSnippets(markdown: string, documentName: string): Snippet[] {
  const found: Snippet[] = [];
  for (const match of markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
    const code = match[1]!;
    const imports = [...code.matchAll(/^import .* from "([^"]+)";/gm)].map((each) => each[1]!);
    const variables = [...code.matchAll(/process\.env\.([A-Z_]+)/g)].map((each) => each[1]!);
    if (imports.length === 0 || !imports.every((name) => name in entries)) continue;
    if (!variables.every((name) => environmentNames.has(name))) continue;
    const line = markdown.slice(0, match.index).split("\n").length;
    found.push({ name: `${documentName}:${line}`, code });
  }
  return found;
}

let pages: HoldingServer;
let stack: WorkerStack;
let scratch: string;
const snippets = documents.flatMap((document) => runnableSnippets(readFileSync(join(root, document), "utf8"), document));

beforeAll(async () => {
  pages = await startHoldingServer({ "/": page });
  stack = await startWorkerStack({ token, tenantKey, maxSessions: 2 });
  scratch = await mkdtemp(join(tmpdir(), "station-snippets-"));
  // tsx maps the package's entries to the source, as a tsconfig's paths.
  const paths = Object.fromEntries(Object.entries(entries).map(([name, path]) => [name, [join(root, path)]]));
  await writeFile(join(scratch, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "ESNext", moduleResolution: "Bundler", target: "ES2022", paths } }));
});
afterAll(async () => {
  await stack?.close();
  await pages?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The snippet with its example addresses pointing here. */
function localised(code: string): string {
  return code
    .replaceAll("http://127.0.0.1:8931", stack.worker.origin)
    .replace(/https:\/\/example\.com\/?|http:\/\/127\.0\.0\.1:8080\/?/g, `${pages.origin}/`);
}

/** Runs a snippet as its own script (in its own directory); its exit code, or "hung" if it had to be killed. */
async function run(snippet: Snippet, index: number): Promise<{ code: number | string | null; output: string }> {
  const directory = await mkdtemp(join(scratch, `snippet-${index}-`));
  const file = join(directory, "snippet.mts");
  await writeFile(file, localised(snippet.code));
  const child = spawnTsx(file, [], {
    cwd: directory,
    env: { ...process.env, TSX_TSCONFIG_PATH: join(scratch, "tsconfig.json"), TENANT_KEY: tenantKey },
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

describe("documentation snippets run as scripts and exit by themselves", () => {
  it("finds the local snippets: the engine, the manager, the client and the in-process agent tools", () => {
    const names = snippets.map((snippet) => snippet.name);
    expect(names.filter((name) => name.startsWith("README.md:")).length).toBeGreaterThanOrEqual(4);
    expect(names.filter((name) => name.startsWith("docs/bridges.md:"))).toHaveLength(1);
  });

  it.each(snippets.map((snippet, index) => ({ ...snippet, index })))("$name exits with 0", async (snippet) => {
    const { code, output } = await run(snippet, snippet.index);
    expect({ code, output }).toEqual({ code: 0, output: expect.any(String) });
  }, killAfterMs + 10_000);

  it("the snippets used the local page, not the internet", () => {
    expect(pages.requests).toContain("GET /");
  });
});
