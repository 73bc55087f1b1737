/**
 * Runs the benchmarks one after another, each as a child process
 * (`npx tsx bench/<file>.ts …`, exactly as its own npm script runs it), shows
 * their output as it comes, and writes one Markdown report: the date, the
 * machine (CPU, cores, RAM, OS, Node, Chromium, playwright-core and
 * @playwright/mcp versions), whether the page corpus is present, and each
 * benchmark's printed figures under its command. The benchmarks themselves
 * are unchanged; the report only collects what they print.
 *
 * Run: `npm run bench [-- names…] [--rounds N] [--pages N] [--builtin] [--out FILE]`
 * - names: any of actions, cdp, edge, observe, agent, bundle, journal (default all,
 *   in that order);
 * - `--rounds N` (or `BENCH_ROUNDS`): rounds of bench:actions and bench:cdp
 *   (bench:cdp's delayed phase and bench:edge get ⌈N/2⌉), actions per point of bench:journal;
 *   without it each benchmark runs its own default;
 * - `--pages N` (or `BENCH_PAGES`): the first N login pages of bench:agent
 *   (bench:observe always runs the whole corpus);
 * - `--builtin`: bench:observe and bench:agent on their built-in generated
 *   pages even when the corpus is present (without the corpus they use them anyway);
 * - `--out FILE`: where to write (default bench/RESULTS.md).
 * Exits non-zero when a benchmark failed; its section then says so.
 */
import { execFile, spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { findChromium } from "../src/playwright.js";
import { corpusDir, corpusPresent } from "./corpus.js";
import { benchNames, benchmarks, readOptions, root, type Benchmark, type Options } from "./report-options.js";

async function packageVersion(name: string): Promise<string> {
  try {
    return (JSON.parse(await readFile(path.join(root, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "not installed";
  }
}

async function osName(): Promise<string> {
  const pretty = await readFile("/etc/os-release", "utf8").then((text) => /^PRETTY_NAME="?([^"\n]*)"?/m.exec(text)?.[1], () => undefined);
  return `${pretty ?? os.type()} (${os.type()} ${os.release()}, ${os.arch()})`;
}

async function chromiumVersion(): Promise<string> {
  try {
    const executable = process.env.CHROMIUM_PATH ?? findChromium();
    const { stdout } = await promisify(execFile)(executable, ["--version"], { timeout: 30_000 });
    return `${stdout.trim()} (${executable})`;
  } catch (error) {
    return `unknown (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`;
  }
}

async function machine(): Promise<Array<[string, string]>> {
  const cpus = os.cpus();
  return [
    ["CPU", `${cpus[0]?.model.trim() ?? "unknown"}, ${cpus.length} logical cores`],
    ["RAM", `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`],
    ["OS", await osName()],
    ["Node", process.version],
    ["Chromium", await chromiumVersion()],
    ["playwright-core", await packageVersion("playwright-core")],
    ["@playwright/mcp", await packageVersion("@playwright/mcp")],
    ["Page corpus", corpusPresent() ? `present (${corpusDir})` : `absent (${corpusDir}; set STATION_CORPUS_DIR)`],
  ];
}

interface Run {
  command: string;
  output: string;
  code: number | null;
  seconds: number;
}

/** Runs one benchmark as a child, echoing its output, and keeps what it printed (stdout and stderr, interleaved). */
function run(benchmark: Benchmark, options: Options): Promise<Run> {
  const args = ["tsx", benchmark.file, ...benchmark.args(options)];
  const command = `npx ${args.join(" ")}`;
  console.log(`\n$ ${command}`);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn("npx", args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: process.env });
    let output = "";
    const keep = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk.toString("utf8");
      stream.write(chunk);
    };
    child.stdout.on("data", keep(process.stdout));
    child.stderr.on("data", keep(process.stderr));
    const finish = (code: number | null) => resolve({ command, output, code, seconds: (performance.now() - started) / 1000 });
    child.on("error", (error) => {
      output += `\n${error.message}`;
      finish(null);
    });
    child.on("close", finish);
  });
}

function section(benchmark: Benchmark, result: Run): string {
  const status = result.code === 0 ? `ran in ${result.seconds.toFixed(0)} s` : `**failed** (exit code ${result.code ?? "none"}) after ${result.seconds.toFixed(0)} s`;
  const builtinNote = benchmark.withoutCorpus?.replace("The corpus is absent", "Run with --builtin");
  const note = !benchmark.withoutCorpus ? "" : !corpusPresent() ? `\n${benchmark.withoutCorpus}\n` : result.command.includes("--builtin") ? `\n${builtinNote}\n` : "";
  const fence = result.output.includes("```") ? "~~~~" : "```";
  return `## ${benchmark.title} (\`npm run ${benchmark.script}\`)\n\nCommand: \`${result.command}\`, ${status}.\n${note}\n${fence}text\n${result.output.trimEnd()}\n${fence}\n`;
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2), process.env);
  const started = new Date();
  const facts = await machine();
  const sections: string[] = [];
  let failed = 0;
  for (const name of options.names) {
    const benchmark = benchmarks[name];
    const result = await run(benchmark, options);
    if (result.code !== 0) failed++;
    sections.push(section(benchmark, result));
  }
  const subset = options.names.length < benchNames.length ? ` Benchmarks run: ${options.names.join(", ")} (of ${benchNames.join(", ")}).` : "";
  const report = [
    `# Benchmark results\n`,
    `Written by \`npm run bench\` (bench/report.ts), started ${started.toISOString()}, finished ${new Date().toISOString()}.${subset} ` +
      `Each section is the output of the command it names, unedited.\n`,
    `## Machine\n`,
    ...facts.map(([label, value]) => `- ${label}: ${value}`),
    "",
    ...sections,
  ].join("\n");
  await writeFile(options.out, report);
  console.log(`\nwrote ${path.relative(process.cwd(), options.out) || options.out}${failed ? `; ${failed} benchmark(s) failed` : ""}`);
  if (failed) process.exitCode = 1;
}

await main();
