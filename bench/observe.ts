/**
 * Observation benchmark: the agent form against Playwright's own AI snapshot,
 * over the page corpus (DESIGN.md "Testing": real Chromium, pages served on
 * 127.0.0.1, nothing reaches the internet).
 *
 * For every page of the corpus MANIFEST.tsv it measures, in one run and on
 * the same page:
 * - bytes of the engine's `{ op: "accessibility" }` result (agent form),
 *   through `PlaywrightBrowserAdapter` end to end;
 * - bytes of `page.ariaSnapshot({ mode: "ai" })` (Playwright's baseline);
 * - coverage: of the ground-truth elements of login pages
 *   (`data-fathom="username" | "password" | "next"`), how many are reachable
 *   through a ref printed in each observation (`page.getByRef(ref)` resolves to
 *   the element itself). The engine renames refs one to one; its coverage is
 *   scored on the same renderer's output with Playwright's own refs, and the
 *   run checks that this output equals the engine's once refs are blanked.
 * The engine never reads `data-fathom`; only this benchmark does.
 *
 * The CDP engine (`CdpBrowserAdapter`, issue 17) runs the same pages in the
 * same run, on a Chromium of its own (`launchCdpChromium`, the local CDP
 * provider's launch): its `{ op: "accessibility" }` result is compared with
 * the Playwright engine's, bytes and text (refs included). Where the two are
 * the same text, the CDP engine's refs name the same elements, so its
 * coverage is the Playwright engine's; where they differ, the run prints the
 * first differing line. Its pages load without the Playwright side's routing:
 * the corpus server answers 404 to every other request on 127.0.0.1, and no
 * other host resolves (`--host-resolver-rules`), so those requests fail at
 * once as the Playwright side's 404s do. Pages with iframes are counted
 * apart (the CDP engine enters every iframe, cross-origin ones in their own
 * worlds).
 *
 * Pages: the corpus when present; else (or with `--builtin`) a small
 * generated set, the login pages of bench/builtin-login-pages.ts and the
 * article pages of bench/builtin-article-pages.ts, whose figures are not the
 * corpus figures (the run says so, and how to get comparable pages).
 *
 * Run: `npx tsx bench/observe.ts [--builtin]` (`npm run bench:observe`).
 * Environment: `STATION_CORPUS_DIR` (default `../shared/corpus/pages` beside
 * the repository), `CHROMIUM_PATH` (else found as the local provider finds it).
 */
import type { AddressInfo } from "node:net";
import { chromium, type Page } from "playwright-core";
import { CdpBrowserAdapter } from "../src/cdp.js";
import { PlaywrightBrowserAdapter, closedNetworkArgs, findChromium, nodeWebSocket } from "../src/playwright.js";
import { launchCdpChromium } from "../src/providers/local/cdp-chromium.js";
import {
  corpusDir,
  corpusPresent,
  coverage,
  createCorpusProvider,
  markGroundTruth,
  offlineHosts,
  readCorpusManifest,
  startCorpusServer,
  withoutRefs,
  type CorpusPage,
  type CorpusProvider,
  type Coverage,
} from "./corpus.js";
import { readAriaNodes, type AriaChild } from "../src/protocol/aria/aria-json.js";
import { isInteractive } from "../src/protocol/aria/agent-form-items.js";
import { renderAgentForm } from "../src/protocol/aria/agent-form.js";
import { renderFullForm } from "../src/protocol/aria/full-form.js";
import { builtinArticlePages } from "./builtin-article-pages.js";
import { builtinLoginPages } from "./builtin-login-pages.js";
import { compareEngines, summarizeEngines, type EngineComparison } from "./engine-compare.js";
import { relayProvider } from "./relay-sides.js";

const pageTimeoutMs = 45_000;
const navigationTimeoutMs = 15_000;
const actionTimeoutMs = 5_000;
const mebibyte = 1024 * 1024;

interface PageResult {
  file: string;
  kind: string;
  playwrightBytes: number;
  agentBytes: number;
  agentRefs: number;
  /** Bytes of the agent form with `interactiveOnly` (same refs, no text). */
  interactiveOnlyBytes: number;
  /** `interactiveOnly` printed a different number of refs (must not happen). */
  interactiveOnlyRefsDiffer: boolean;
  playwrightRefs: number;
  playwrightCoverage?: Coverage;
  agentCoverage?: Coverage;
  /** Interactive refs of the JSON snapshot that the agent form did not print (must be 0). */
  missingInteractive: number;
  /** Agent-form refs absent from Playwright's text snapshot taken right after (refs should be stable). */
  unstableRefs: number;
  /** Our JSON → YAML port reproduces Playwright's text from the same JSON. */
  fullFormMatches: boolean;
  /** The engine's result equals the renderer's output scored for coverage, refs aside. */
  engineMatches: boolean;
  milliseconds: number;
  error?: string;
  /** The Playwright engine's snapshot, to compare the CDP engine's with. */
  engineSnapshot: string;
  /** Child frames of the page (the CDP engine does not read frames yet). */
  frames: number;
  /** The CDP engine on the same page. */
  cdp?: EngineComparison;
}

/** The built-in pages: generated login pages (with their ground truth) and article pages. */
function builtinPages(): CorpusPage[] {
  return [...builtinLoginPages().map((page) => ({ file: page.file, kind: "login", html: page.html! })), ...builtinArticlePages()];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.find((arg) => arg !== "--builtin");
  if (unknown !== undefined) throw new Error(`unknown argument ${JSON.stringify(unknown.slice(0, 40))} (expected --builtin)`);
  const builtin = args.includes("--builtin");
  const pages = corpusPresent() && !builtin ? await readCorpusManifest() : builtinPages();
  if (!corpusPresent() || builtin) {
    console.log(
      `${builtin ? "--builtin" : `corpus not found at ${corpusDir}`}: using the built-in generated pages instead ` +
        `(${pages.length}: bench/builtin-login-pages.ts and bench/builtin-article-pages.ts); figures differ from the corpus figures. ` +
        `For comparable pages, set STATION_CORPUS_DIR to a directory with a MANIFEST.tsv (columns file, kind) of saved pages: ` +
        `kind "login" pages whose username, password and submit elements carry data-fathom="username|password|next" ` +
        `(e.g. the training samples of github.com/1rneh/fathom-login-forms), kind "article" pages (e.g. mozilla/readability's test pages), as the corpus uses.`,
    );
  }
  const server = await startCorpusServer(pages);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: findChromium(), args: [...closedNetworkArgs] });
  const provider = createCorpusProvider(browser, origin);
  const adapter = new PlaywrightBrowserAdapter({ provider });
  const cdpChromium = await launchCdpChromium({ args: [offlineHosts] });
  const cdpAdapter = new CdpBrowserAdapter({ provider: relayProvider(cdpChromium.wsUrl), webSocket: nodeWebSocket });
  const started = Date.now();
  const results: PageResult[] = [];
  try {
    for (const corpusPage of pages) {
      const result = await measureWithTimeout(adapter, provider, origin, corpusPage);
      if (!result.error) result.cdp = await measureCdp(cdpAdapter, `${origin}/pages/${corpusPage.file}`, result);
      results.push(result);
      printRow(result);
    }
  } finally {
    await browser.close();
    await cdpAdapter.shutdown().catch(() => {});
    await cdpChromium.close();
    server.close();
  }
  printSummary(results, Date.now() - started);
}

/** The CDP engine's agent form of the same page, against the Playwright engine's (same viewport as the corpus contexts: Playwright's default 1280×720). */
async function measureCdp(adapter: CdpBrowserAdapter, pageUrl: string, engine: PageResult): Promise<EngineComparison> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let handle: Awaited<ReturnType<CdpBrowserAdapter["open"]>> | undefined;
  try {
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`page timed out after ${pageTimeoutMs} ms`)), pageTimeoutMs);
    });
    const measured = (async () => {
      handle = await adapter.open({ viewport: { width: 1280, height: 720 } });
      await adapter.execute(handle, { op: "navigate", url: pageUrl, timeoutMs: navigationTimeoutMs }).catch(() => {});
      const result = await adapter.execute(handle, { op: "accessibility" });
      return compareEngines(engine.engineSnapshot, result, engine.frames, Date.now() - started);
    })();
    return await Promise.race([measured, timeout]);
  } catch (error) {
    return { bytes: 0, identical: false, frames: engine.frames, milliseconds: Date.now() - started, error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
    if (handle) await adapter.close(handle).catch(() => {});
  }
}

async function measureWithTimeout(
  adapter: PlaywrightBrowserAdapter,
  provider: CorpusProvider,
  origin: string,
  corpusPage: CorpusPage,
): Promise<PageResult> {
  const started = Date.now();
  const pageUrl = `${origin}/pages/${corpusPage.file}`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const handle = await adapter.open();
  try {
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`page timed out after ${pageTimeoutMs} ms`)), pageTimeoutMs);
    });
    const measured = (async () => {
      await adapter.execute(handle, { op: "navigate", url: pageUrl, timeoutMs: navigationTimeoutMs }).catch(() => {});
      const page = provider.page(handle.id);
      page.setDefaultTimeout(actionTimeoutMs);
      return measure(adapter, handle, page, corpusPage, started);
    })();
    return await Promise.race([measured, timeout]);
  } catch (error) {
    return failedResult(corpusPage, started, error);
  } finally {
    clearTimeout(timer);
    await adapter.close(handle).catch(() => {});
  }
}

async function measure(
  adapter: PlaywrightBrowserAdapter,
  handle: Awaited<ReturnType<PlaywrightBrowserAdapter["open"]>>,
  page: Page,
  corpusPage: CorpusPage,
  started: number,
): Promise<PageResult> {
  const isLogin = corpusPage.kind === "login";
  const groundTruth = isLogin ? await markGroundTruth(page) : 0;

  // The engine's own result, end to end.
  const engine = await adapter.execute(handle, { op: "accessibility" });

  // Ours: the JSON snapshot, rendered; its refs resolve against this (latest) snapshot.
  const json = await page.ariaSnapshotJSON({ mode: "ai" });
  const printed: string[] = [];
  const agent = renderAgentForm(json, {
    interactiveOnly: false,
    depth: 20,
    maxBytes: mebibyte,
    boxes: false,
    mapRef: (ref) => {
      printed.push(ref);
      return ref;
    },
  });
  const agentCoverage = isLogin ? await coverage(page, printed, groundTruth) : undefined;
  const interactiveOnly = renderAgentForm(json, { interactiveOnly: true, depth: 20, maxBytes: mebibyte, boxes: false, mapRef: (ref) => ref });
  const fullForm = renderFullForm(json, { maxBytes: Number.MAX_SAFE_INTEGER, mapRef: (ref) => ref });

  // Playwright's baseline, taken right after; its refs resolve against it.
  const text = await page.ariaSnapshot({ mode: "ai" });
  const playwrightRefs = [...new Set([...text.matchAll(/\[ref=([^\]\s]+)\]/g)].map((match) => match[1] as string))];
  const playwrightCoverage = isLogin ? await coverage(page, playwrightRefs, groundTruth) : undefined;

  const playwrightRefSet = new Set(playwrightRefs);
  const printedSet = new Set(printed);
  return {
    file: corpusPage.file,
    kind: corpusPage.kind,
    playwrightBytes: utf8Bytes(text),
    agentBytes: engine.bytes,
    agentRefs: agent.refs,
    interactiveOnlyBytes: interactiveOnly.bytes,
    interactiveOnlyRefsDiffer: interactiveOnly.refs !== agent.refs,
    playwrightRefs: playwrightRefs.length,
    playwrightCoverage,
    agentCoverage,
    missingInteractive: interactiveRefs(json).filter((ref) => !printedSet.has(ref)).length,
    unstableRefs: printed.filter((ref) => !playwrightRefSet.has(ref)).length,
    fullFormMatches: fullForm.snapshot === text,
    engineMatches: withoutRefs(engine.snapshot) === withoutRefs(agent.snapshot),
    milliseconds: Date.now() - started,
    engineSnapshot: engine.snapshot,
    frames: page.frames().length - 1,
  };
}

/** Refs of every interactive node in the JSON snapshot (what the agent form promises to print). */
function interactiveRefs(json: unknown): string[] {
  const refs: string[] = [];
  const visit = (children: readonly AriaChild[]) => {
    for (const child of children) {
      if (typeof child === "string") continue;
      if (isInteractive(child)) refs.push(child.ref);
      visit(child.children ?? []);
    }
  };
  visit(readAriaNodes(json));
  return refs;
}

function failedResult(corpusPage: CorpusPage, started: number, error: unknown): PageResult {
  return {
    file: corpusPage.file,
    kind: corpusPage.kind,
    playwrightBytes: 0,
    agentBytes: 0,
    agentRefs: 0,
    interactiveOnlyBytes: 0,
    interactiveOnlyRefsDiffer: false,
    playwrightRefs: 0,
    missingInteractive: 0,
    unstableRefs: 0,
    fullFormMatches: false,
    engineMatches: false,
    milliseconds: Date.now() - started,
    error: error instanceof Error ? error.message : String(error),
    engineSnapshot: "",
    frames: 0,
  };
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

function formatCoverage(value: Coverage | undefined): string {
  return value ? `${value.covered}/${value.total}` : "-";
}

let headerPrinted = false;
function printRow(result: PageResult): void {
  const columns = [
    ["page", 44],
    ["pw bytes", 9],
    ["ours", 7],
    ["ratio", 6],
    ["pw cov", 6],
    ["our cov", 7],
    ["refs pw/ours", 12],
    ["ms", 6],
    ["cdp", 7],
    ["cdp=ours", 8],
  ] as const;
  if (!headerPrinted) {
    console.log(columns.map(([title, width], index) => (index ? title.padStart(width) : title.padEnd(width))).join(" "));
    headerPrinted = true;
  }
  if (result.error) {
    console.log(`${result.file.padEnd(44)} FAILED: ${result.error}`);
    return;
  }
  const notes = [
    result.missingInteractive ? `MISSING ${result.missingInteractive} interactive refs` : "",
    result.unstableRefs ? `${result.unstableRefs} refs changed between snapshots` : "",
    result.fullFormMatches ? "" : "full-form port differs",
    result.engineMatches ? "" : "engine result differs from the scored rendering",
    result.interactiveOnlyRefsDiffer ? "interactiveOnly printed other refs" : "",
    cdpNote(result),
  ].filter(Boolean);
  const cells = [
    result.file.padEnd(44),
    String(result.playwrightBytes).padStart(9),
    String(result.agentBytes).padStart(7),
    (result.agentBytes / result.playwrightBytes).toFixed(3).padStart(6),
    formatCoverage(result.playwrightCoverage).padStart(6),
    formatCoverage(result.agentCoverage).padStart(7),
    `${result.playwrightRefs}/${result.agentRefs}`.padStart(12),
    String(result.milliseconds).padStart(6),
    (result.cdp?.error ? "FAILED" : String(result.cdp?.bytes ?? "-")).padStart(7),
    (result.cdp?.error ? "-" : result.cdp?.identical ? "same" : `differs${result.frames ? "*" : ""}`).padStart(8),
  ];
  console.log(cells.join(" ") + (notes.length ? `  (${notes.join("; ")})` : ""));
}

/** What the row says of the CDP engine beyond its cells: its failure, or where its snapshot first differs. */
function cdpNote(result: PageResult): string {
  const cdp = result.cdp;
  if (!cdp) return "";
  if (cdp.error) return `CDP engine failed: ${cdp.error.split("\n")[0]}`;
  const difference = cdp.firstDifference;
  if (!difference) return "";
  const frames = result.frames ? `, ${result.frames} frame${result.frames === 1 ? "" : "s"} (expected)` : "";
  return `CDP differs at line ${difference.line}${frames}: pw ${JSON.stringify(difference.playwright)} / cdp ${JSON.stringify(difference.cdp)}`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Nearest-rank percentile. */
function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}

function sumCoverage(results: readonly PageResult[], pick: (result: PageResult) => Coverage | undefined): Coverage {
  return results.reduce(
    (sum, result) => {
      const value = pick(result);
      return value ? { covered: sum.covered + value.covered, total: sum.total + value.total } : sum;
    },
    { covered: 0, total: 0 },
  );
}

function printSummary(results: readonly PageResult[], milliseconds: number): void {
  const measured = results.filter((result) => !result.error);
  const failed = results.length - measured.length;
  const playwright = measured.map((result) => result.playwrightBytes);
  const agent = measured.map((result) => result.agentBytes);
  const ratios = measured.map((result) => result.agentBytes / result.playwrightBytes);
  const playwrightCoverage = sumCoverage(measured, (result) => result.playwrightCoverage);
  const agentCoverage = sumCoverage(measured, (result) => result.agentCoverage);
  const medianPlaywright = median(playwright);
  const medianAgent = median(agent);
  const summary = [
    ["pages measured", `${measured.length} of ${results.length}${failed ? ` (${failed} failed)` : ""}`],
    ["median bytes  pw / ours", `${Math.round(medianPlaywright)} / ${Math.round(medianAgent)}`],
    ["p90 bytes     pw / ours", `${percentile(playwright, 0.9)} / ${percentile(agent, 0.9)}`],
    ["median bytes  interactiveOnly", String(Math.round(median(measured.map((result) => result.interactiveOnlyBytes))))],
    ["median ratio (ours/pw)", median(ratios).toFixed(3)],
    ["ratio of medians", (medianAgent / medianPlaywright).toFixed(3)],
    ["coverage pw", `${playwrightCoverage.covered}/${playwrightCoverage.total}`],
    ["coverage ours", `${agentCoverage.covered}/${agentCoverage.total}`],
    ["interactive refs missing", String(measured.reduce((sum, result) => sum + result.missingInteractive, 0))],
    ["refs changed between snapshots", String(measured.reduce((sum, result) => sum + result.unstableRefs, 0))],
    ["full-form port identical", `${measured.filter((result) => result.fullFormMatches).length} of ${measured.length}`],
    ["engine = scored rendering", `${measured.filter((result) => result.engineMatches).length} of ${measured.length}`],
    ...summarizeEngines(
      measured.map((result) => ({
        engineBytes: result.agentBytes,
        ...(result.agentCoverage ? { coverage: result.agentCoverage } : {}),
        ...(result.cdp ? { cdp: result.cdp } : {}),
      })),
    ),
    ["total time", `${(milliseconds / 1000).toFixed(1)} s`],
  ];
  console.log("\nsummary (ours: the Playwright engine; cdp: the CDP engine on the same pages; * marks pages with frames)");
  for (const [label, value] of summary) console.log(`  ${(label as string).padEnd(32)} ${value}`);
  printKinds(measured);
}

/**
 * Login and article pages apart: bytes, ratios and the goal of the issue
 * (≤ 1/10 of Playwright's AI snapshot, by the median per-page ratio, at equal
 * coverage of the labelled login fields).
 */
function printKinds(measured: readonly PageResult[]): void {
  console.log("\nby page kind (goal: ours ≤ 1/10 of pw by median per-page ratio, equal coverage; controls only: median ratio of interactiveOnly)");
  console.log(`  ${"kind".padEnd(8)} ${"pages".padStart(5)} ${"total pw".padStart(9)} ${"total ours".padStart(10)} ${"ratio of totals".padStart(15)} ${"median ratio".padStart(12)} ${"p90 ratio".padStart(9)} ${"cov ours/pw".padStart(12)} ${"controls only".padStart(13)}  goal`);
  for (const kind of ["login", "article"]) {
    const pages = measured.filter((result) => result.kind === kind);
    if (!pages.length) continue;
    const ratios = pages.map((result) => result.agentBytes / result.playwrightBytes);
    const total = (pick: (result: PageResult) => number) => pages.reduce((sum, result) => sum + pick(result), 0);
    const playwrightCoverage = sumCoverage(pages, (result) => result.playwrightCoverage);
    const agentCoverage = sumCoverage(pages, (result) => result.agentCoverage);
    const medianRatio = median(ratios);
    const met = medianRatio <= 0.1 && agentCoverage.covered === playwrightCoverage.covered;
    console.log(
      [
        `  ${kind.padEnd(8)}`,
        String(pages.length).padStart(5),
        String(total((result) => result.playwrightBytes)).padStart(9),
        String(total((result) => result.agentBytes)).padStart(10),
        (total((result) => result.agentBytes) / total((result) => result.playwrightBytes)).toFixed(3).padStart(15),
        medianRatio.toFixed(3).padStart(12),
        percentile(ratios, 0.9).toFixed(3).padStart(9),
        (kind === "login" ? `${agentCoverage.covered}/${playwrightCoverage.covered} of ${agentCoverage.total}` : "-").padStart(12),
        // The floor of any form that keeps every ref with its name: interactiveOnly (no text at all), by median ratio.
        median(pages.map((result) => result.interactiveOnlyBytes / result.playwrightBytes)).toFixed(3).padStart(13),
        ` ${met ? "met" : "NOT met"}`,
      ].join(" "),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
