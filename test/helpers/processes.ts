/** CLI child processes, and what the tests read of Linux processes (from /proc) to prove no browser is left running. */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessInfo {
  pid: number;
  ppid: number;
  state: string;
  startTime: string;
  name: string;
}

/** Every process, from /proc/<pid>/stat. */
export function processes(): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const fields = stat.slice(close + 2).split(" ");
      found.push({ pid: Number(entry), name: stat.slice(stat.indexOf("(") + 1, close), state: fields[0]!, ppid: Number(fields[1]), startTime: fields[19]! });
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** Chromium processes anywhere below `root` (a CLI runs under tsx, so Chromium is a grandchild or deeper). */
export function chromiumBelow(root: number): ProcessInfo[] {
  const all = processes();
  const below = new Set([root]);
  let size = 0;
  while (below.size !== size) {
    size = below.size;
    for (const info of all) if (below.has(info.ppid)) below.add(info.pid);
  }
  return all.filter((info) => below.has(info.pid) && info.pid !== root && /chrom/i.test(info.name));
}

/** Whether the process still runs (same pid *and* start time, not a zombie). */
export function stillRunning(info: ProcessInfo): boolean {
  return processes().some((now) => now.pid === info.pid && now.startTime === info.startTime && now.state !== "Z");
}

/** A CLI run of `station-browser-use` under tsx, with its output collected. */
export interface CliRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

/**
 * Runs a TypeScript file in Node itself with tsx's loader, not under the tsx
 * CLI: the CLI would be a relaying parent, so the child's `exit` would not
 * mean that the script's own process is gone, and a signal sent before the
 * CLI has learnt which signals the script handles would end it with 143
 * instead of reaching the script.
 */
export function spawnTsx(script: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, ["--import", tsxLoader, script, ...args], options);
}

/** tsx's ESM loader, by URL, so a child in any working directory finds it. */
const tsxLoader = new URL("../../node_modules/tsx/dist/loader.mjs", import.meta.url).href;

/**
 * Starts `src/worker/cli.ts <args>` (Node with tsx's loader) with this environment plus
 * `environment`, minus every inherited `STATION_*` variable. `stdin: "pipe"`
 * keeps stdin open for a protocol (MCP); otherwise it is closed.
 */
export function startCli(args: string[], environment: Record<string, string> = {}, stdin: "pipe" | "ignore" = "ignore"): CliRun {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("STATION_")));
  const child = spawnTsx("src/worker/cli.ts", args, {
    env: { ...base, ...environment },
    stdio: [stdin, "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/**
 * Resolves with the first match of `pattern` in the run's stdout, as the output arrives; rejects if the
 * process exits first, or (a safety bound) after `boundMs`.
 */
export function waitForStdout(run: CliRun, pattern: RegExp, boundMs = 20_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      done();
      reject(new Error(`${why} before its output matched ${pattern}: ${run.stdout()} ${run.stderr()}`));
    };
    const check = () => {
      const match = pattern.exec(run.stdout());
      if (match) {
        done();
        resolve(match);
      }
    };
    const exited = () => fail("the process exited");
    const timer = setTimeout(() => fail(`${boundMs} ms passed`), boundMs);
    const done = () => {
      clearTimeout(timer);
      run.child.stdout!.off("data", check);
      run.child.off("exit", exited);
    };
    // Registered after the run's own listener, so stdout() already holds each chunk when it is checked.
    run.child.stdout!.on("data", check);
    run.child.on("exit", exited);
    check();
    if (run.child.exitCode !== null) exited();
  });
}
