/**
 * What `npm run bench` (bench/report.ts) runs: the benchmark table and the
 * reading of its arguments.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** What `npm run bench` was asked to run. */
export interface Options {
  names: BenchName[];
  rounds?: number;
  pages?: number;
  /** Run bench:observe and bench:agent on their built-in pages even with the corpus present. */
  builtin: boolean;
  out: string;
}

/** One benchmark: its report title, npm script, file and arguments. */
export interface Benchmark {
  title: string;
  script: string;
  file: string;
  args(options: Options): string[];
  /** A note for the report when the corpus is absent. */
  withoutCorpus?: string;
}

/** A benchmark's name on the command line. */
export type BenchName = "actions" | "cdp" | "edge" | "observe" | "agent" | "bundle" | "journal";

/** Every benchmark, in the order the report runs them. */
export const benchmarks: Record<BenchName, Benchmark> = {
  actions: {
    title: "Action overhead",
    script: "bench:actions",
    file: "bench/actions.ts",
    args: (options) => (options.rounds ? [String(options.rounds)] : []),
  },
  cdp: {
    title: "CDP messages per action",
    script: "bench:cdp",
    file: "bench/cdp.ts",
    args: (options) => (options.rounds ? [String(options.rounds), String(Math.ceil(options.rounds / 2))] : []),
  },
  edge: {
    title: "Edge-direct latency: the CDP engine against the Playwright engine at 50 ms RTT",
    script: "bench:edge",
    file: "bench/edge-latency.ts",
    args: (options) => (options.rounds ? [String(Math.ceil(options.rounds / 2))] : []),
  },
  observe: {
    title: "Observation size (the Playwright engine, and the CDP engine on the same pages)",
    script: "bench:observe",
    file: "bench/observe.ts",
    args: (options) => (options.builtin ? ["--builtin"] : []),
    withoutCorpus: "The corpus is absent: these figures are on bench:observe's built-in generated pages (bench/builtin-login-pages.ts, bench/builtin-article-pages.ts), not the corpus.",
  },
  agent: {
    title: "Agent login flow against @playwright/mcp (ours on the Playwright engine and on the CDP engine)",
    script: "bench:agent",
    file: "bench/agent.ts",
    args: (options) => [...(options.pages ? ["--pages", String(options.pages)] : []), ...(options.builtin ? ["--builtin"] : [])],
    withoutCorpus: "The corpus is absent: these figures are on bench:agent's built-in generated login pages (bench/builtin-login-pages.ts), not the corpus.",
  },
  bundle: {
    title: "Bundle size of /agent",
    script: "bench:bundle",
    file: "bench/bundle-size.ts",
    args: () => [],
  },
  journal: {
    title: "Journal cost per action",
    script: "bench:journal",
    file: "bench/journal.ts",
    args: (options) => (options.rounds ? [String(options.rounds)] : []),
  },
};
/** The benchmarks' names, in run order. */
export const benchNames = Object.keys(benchmarks) as BenchName[];

function positive(text: string | undefined, name: string): number {
  if (!text || !/^[1-9]\d{0,5}$/.test(text)) throw new Error(`${name} expects a positive integer, got ${JSON.stringify((text ?? "").slice(0, 20))}`);
  return Number(text);
}

/**
 * Reads `npm run bench` arguments (names, `--rounds N`, `--pages N`,
 * `--builtin`, `--out FILE`) and `BENCH_ROUNDS` / `BENCH_PAGES`; arguments
 * win over the environment.
 *
 * @throws {Error} naming the argument or variable that is not understood.
 */
export function readOptions(args: readonly string[], environment: Record<string, string | undefined>): Options {
  const names: BenchName[] = [];
  let rounds = environment.BENCH_ROUNDS ? positive(environment.BENCH_ROUNDS, "BENCH_ROUNDS") : undefined;
  let pages = environment.BENCH_PAGES ? positive(environment.BENCH_PAGES, "BENCH_PAGES") : undefined;
  let out = path.join(root, "bench/RESULTS.md");
  let builtin = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => inline ?? args[++index];
    if (flag === "--rounds") rounds = positive(value(), "--rounds");
    else if (flag === "--pages") pages = positive(value(), "--pages");
    else if (flag === "--out") out = path.resolve(value() ?? "");
    else if (arg === "--builtin") builtin = true;
    else if ((benchNames as string[]).includes(arg)) names.push(arg as BenchName);
    else throw new Error(`unknown argument ${JSON.stringify(arg.slice(0, 40))}: expected benchmark names (${benchNames.join(", ")}), --rounds N, --pages N, --builtin or --out FILE`);
  }
  return { names: names.length ? benchNames.filter((name) => names.includes(name)) : benchNames, out, builtin, ...(rounds ? { rounds } : {}), ...(pages ? { pages } : {}) };
}
