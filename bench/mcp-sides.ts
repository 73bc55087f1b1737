/**
 * The two MCP servers bench/agent.ts compares, each started as a child process
 * and driven over stdio by an MCP client (`@modelcontextprotocol/sdk`):
 *
 * - ours: `station-browser-use mcp` (src/worker/cli.ts mcp), local Chromium;
 * - ours on the CDP engine: the same tools on the CDP engine over local
 *   Chromium (bench/cdp-mcp.ts);
 * - theirs: the real `@playwright/mcp` (pinned devDependency), headless,
 *   isolated in-memory profile, on the same Chromium with the same
 *   closed-network flags (`--no-sandbox` when root), via its `--config` file.
 *
 * A call returns the text the model would read: every text content item of the
 * tool result, whose UTF-8 bytes are counted.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { closedNetworkArgs, findChromium } from "../src/playwright.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const callTimeoutMs = 45_000;

export interface ToolAnswer {
  text: string;
  isError: boolean;
}

export interface McpSide {
  name: string;
  call(tool: string, input: Record<string, unknown>): Promise<ToolAnswer>;
  stop(): Promise<void>;
}

async function connect(name: string, command: string, args: string[], cwd: string, cleanup: () => Promise<void>): Promise<McpSide> {
  const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const transport = new StdioClientTransport({ command, args, cwd, env, stderr: "ignore" });
  const client = new Client({ name: "station-bench-agent", version: "1.0.0" });
  await client.connect(transport);
  return {
    name,
    async call(tool, input) {
      const result = await client.callTool({ name: tool, arguments: input }, undefined, { timeout: callTimeoutMs });
      const content = (result.content ?? []) as { type: string; text?: string }[];
      const text = content.filter((item) => item.type === "text").map((item) => item.text ?? "").join("\n");
      return { text, isError: result.isError === true };
    },
    async stop() {
      await client.close().catch(() => undefined);
      await cleanup();
    },
  };
}

/** `station-browser-use mcp` with one session at a time. */
export function startOurs(): Promise<McpSide> {
  const tsx = path.join(repoRoot, "node_modules/.bin/tsx");
  return connect("ours", tsx, [path.join(repoRoot, "src/worker/cli.ts"), "mcp", "--max-sessions", "1"], repoRoot, async () => undefined);
}

/** The same tools as {@link startOurs}, on the CDP engine (bench/cdp-mcp.ts). */
export function startOursOnCdp(): Promise<McpSide> {
  const tsx = path.join(repoRoot, "node_modules/.bin/tsx");
  return connect("cdp", tsx, [path.join(repoRoot, "bench/cdp-mcp.ts")], repoRoot, async () => undefined);
}

/** `@playwright/mcp` 0.0.83, headless and isolated, on the system Chromium. */
export async function startPlaywrightMcp(): Promise<McpSide> {
  const dir = await mkdtemp(path.join(tmpdir(), "station-bench-pwmcp-"));
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const config = {
    browser: {
      browserName: "chromium",
      isolated: true,
      launchOptions: {
        executablePath: findChromium(),
        headless: true,
        chromiumSandbox: !asRoot,
        args: [...closedNetworkArgs],
      },
    },
    outputDir: path.join(dir, "output"),
  };
  const configPath = path.join(dir, "config.json");
  await writeFile(configPath, JSON.stringify(config));
  const cli = path.join(repoRoot, "node_modules/@playwright/mcp/cli.js");
  return connect("playwright-mcp", process.execPath, [cli, "--config", configPath], dir, () => rm(dir, { recursive: true, force: true }));
}
