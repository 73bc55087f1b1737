/**
 * The real-page corpus (`../shared/corpus/pages`, see its MANIFEST.tsv) as the
 * benchmark and the corpus tests use it: served on 127.0.0.1, driven through
 * the engine with a provider whose contexts answer every request but the
 * corpus document with a 404, and scored against the `data-fathom` ground
 * truth of the login pages (read here only, never by the engine).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { PlaywrightProvider } from "../src/playwright.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Where the corpus is read from (`STATION_CORPUS_DIR`, else beside the repository). */
export const corpusDir = process.env.STATION_CORPUS_DIR ?? path.resolve(repoRoot, "../shared/corpus/pages");
const groundTruthSelector = '[data-fathom="username"], [data-fathom="password"], [data-fathom="next"]';
/** Refs resolved at once while scoring coverage. */
const resolveBatch = 64;
const resolveTimeoutMs = 5_000;

/** True when the corpus (its MANIFEST.tsv) is present. */
export const corpusPresent = () => existsSync(path.join(corpusDir, "MANIFEST.tsv"));

/** The corpus pages listed in MANIFEST.tsv. */
export async function readCorpusManifest(): Promise<CorpusPage[]> {
  return parseManifest(await readFile(path.join(corpusDir, "MANIFEST.tsv"), "utf8"));
}

/** One page of the corpus. */
export interface CorpusPage {
  file: string;
  kind: string;
  /** Built-in pages carry their HTML; corpus pages are read from `corpusDir`. */
  html?: string;
}

/** Ground-truth elements reached through some ref, of all. */
export interface Coverage {
  covered: number;
  total: number;
}

function parseManifest(text: string): CorpusPage[] {
  const [header, ...rows] = text.split("\n").filter((line) => line.trim() !== "");
  const columns = (header ?? "").split("\t");
  const fileColumn = columns.indexOf("file");
  const kindColumn = columns.indexOf("kind");
  return rows.map((row) => {
    const cells = row.split("\t");
    return { file: cells[fileColumn] ?? "", kind: cells[kindColumn] ?? "" };
  }).filter((entry) => /^[\w.-]+\.html$/.test(entry.file));
}

/**
 * Serves each page at `/pages/<file>` (its own HTML, else the corpus file);
 * everything else is a 404 with an empty body, as the Playwright side's route
 * answers it ({@link createCorpusProvider}), so that an iframe of a missing
 * page shows the same (nothing) to both engines.
 */
export async function startCorpusServer(pages: readonly CorpusPage[]): Promise<Server> {
  const files = new Map(pages.map((entry) => [entry.file, entry]));
  const server = createServer((request, response) => {
    const match = /^\/pages\/([\w.-]+\.html)$/.exec(request.url ?? "");
    if (request.method !== "GET" || !match?.[1] || !files.has(match[1])) {
      response.writeHead(404, { "content-type": "text/plain" }).end();
      return;
    }
    const html = files.get(match[1])!.html;
    (html === undefined ? readFile(path.join(corpusDir, match[1])) : Promise.resolve(html)).then(
      (body) => response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

export type CorpusProvider = PlaywrightProvider & { page(sessionId: string): Page };

/**
 * A provider for the engine over the benchmark's browser: each session is a
 * context in which the top-level corpus document loads and every other request
 * (sub-resources, other hosts) gets a 404, so nothing leaves the machine.
 */
export function createCorpusProvider(
  browser: Browser,
  origin: string,
  isPage: (url: string) => boolean = (url) => url.startsWith(`${origin}/pages/`),
): CorpusProvider {
  const contexts = new Map<string, BrowserContext>();
  let counter = 0;
  const record = (id: string, openTag: string) => ({ id, openTag, status: "RUNNING" as const, createdAt: new Date().toISOString() });
  return {
    name: "bench",
    async create(request) {
      const context = await browser.newContext({ serviceWorkers: "block" });
      await context.route("**/*", (route) =>
        isPage(route.request().url()) && route.request().isNavigationRequest() && route.request().frame().parentFrame() === null
          ? route.continue()
          : route.fulfill({ status: 404, contentType: "text/plain", body: "" }),
      );
      const id = `bench-${++counter}`;
      contexts.set(id, context);
      return record(id, request.openTag);
    },
    async connect(session) {
      const context = contexts.get(session.id);
      if (!context) throw new Error(`no bench session ${session.id}`);
      return context;
    },
    async get(id) {
      return contexts.has(id) ? record(id, "") : undefined;
    },
    async find() {
      return [];
    },
    async release(id) {
      await contexts.get(id)?.close().catch(() => {});
      contexts.delete(id);
    },
    async shutdown() {
      await Promise.all([...contexts.keys()].map((id) => this.release(id)));
    },
    page(sessionId) {
      const page = contexts.get(sessionId)?.pages()[0];
      if (!page) throw new Error(`no page in bench session ${sessionId}`);
      return page;
    },
  };
}

/**
 * A snapshot with every ref and field value blanked, to compare renderings that
 * name refs differently (the engine also hides password values).
 */
export const withoutRefs = (snapshot: string) =>
  snapshot.replace(/\[(?:ref=)?(?:f\d+)?e\d+\]/g, "[ref]").replace(/ value="(?:[^"\\]|\\.)*"/g, " value=…");

/** Numbers every ground-truth element with a JS property (no attribute, so the ARIA tree is untouched). */
export async function markGroundTruth(page: Page): Promise<number> {
  return page.evaluate((selector) => {
    const elements = [...document.querySelectorAll(selector)];
    elements.forEach((element, index) => {
      (element as unknown as { __benchTruth: number }).__benchTruth = index;
    });
    return elements.length;
  }, groundTruthSelector);
}

/** How many ground-truth elements some ref resolves to (the element itself, not an ancestor). */
export async function coverage(page: Page, refs: readonly string[], total: number): Promise<Coverage> {
  const found = new Set<number>();
  for (let start = 0; start < refs.length; start += resolveBatch) {
    const batch = refs.slice(start, start + resolveBatch);
    const marks = await Promise.all(
      batch.map((ref) =>
        page
          .getByRef(ref)
          .evaluate((element) => (element as unknown as { __benchTruth?: number }).__benchTruth, undefined, {
            timeout: resolveTimeoutMs,
          })
          .catch(() => undefined),
      ),
    );
    for (const mark of marks) if (typeof mark === "number") found.add(mark);
  }
  return { covered: found.size, total };
}

/**
 * The CDP engine's Chromium resolves no host but 127.0.0.1: the Playwright
 * side answers every request but the page with a 404 at once, and without
 * this a page's requests to the internet (absent here) hang until the load
 * times out, so the page under the CDP engine is caught still loading.
 */
export const offlineHosts = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1";
