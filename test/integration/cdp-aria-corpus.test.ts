import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { corpusDir, corpusPresent, offlineHosts, readCorpusManifest, startCorpusServer, type CorpusPage } from "../../bench/corpus.js";
import type { BrowserAdapter, BrowserHandle } from "../../src/protocol/adapter.js";
import { useBrowser } from "../helpers/browser.js";
import { useCdpBrowser } from "../helpers/cdp-engine.js";
import { withRefNumbersHidden } from "../helpers/snapshot-refs.js";

/**
 * The two engines' agent forms of the corpus's real pages (outside the
 * repository: `../shared/corpus/pages`, see its MANIFEST.tsv), compared as
 * text once ref numbers are hidden. It prints how many are identical and
 * which differ. Pages with iframes may differ by design (the CDP engine
 * renders same-origin iframes only; a cross-origin one stays a leaf). The
 * CDP engine's Chromium resolves no host but 127.0.0.1 (`offlineHosts`), so
 * a page's requests to the absent internet fail at once under both engines
 * rather than hang. Without the corpus it is skipped and says so.
 */
const present = corpusPresent();
if (!present) console.warn(`cdp aria corpus: SKIPPED — no corpus at ${corpusDir} (set STATION_CORPUS_DIR)`);

describe.skipIf(!present)(`agent forms of the corpus pages under both engines (${present ? "corpus found" : "SKIPPED: corpus absent"})`, () => {
  const playwright = useBrowser();
  // As in bench:observe: requests to the (absent) internet fail at once under both engines.
  const cdp = useCdpBrowser({}, [offlineHosts]);
  let server: Server;
  let origin = "";
  let pages: CorpusPage[] = [];

  beforeAll(async () => {
    pages = await readCorpusManifest();
    server = await startCorpusServer(pages);
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server?.close();
  });

  /** The page's agent form under one engine (in its one session), or why there is none. */
  async function agentForm(adapter: BrowserAdapter, handle: BrowserHandle, file: string): Promise<string> {
    try {
      await adapter.execute(handle, { op: "navigate", url: `${origin}/pages/${file}`, timeoutMs: 15_000 }).catch(() => undefined);
      const { snapshot } = await adapter.execute(handle, { op: "accessibility" });
      return withRefNumbersHidden(snapshot);
    } catch (error) {
      return `error: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  it("reports how many pages give byte-identical agent forms", async () => {
    expect(pages.length).toBeGreaterThan(10);
    const handles = [await playwright.open(), await cdp.open()] as const;
    const different: string[] = [];
    let identical = 0;
    let withoutFrames = 0;
    let identicalWithoutFrames = 0;
    for (const page of pages) {
      const expected = await agentForm(playwright.adapter, handles[0], page.file);
      const actual = await agentForm(cdp.adapter, handles[1], page.file);
      const same = actual === expected && !expected.startsWith("error:");
      const frames = /^\s*iframe\b/m.test(expected);
      if (same) identical++;
      if (!frames) withoutFrames++;
      if (same && !frames) identicalWithoutFrames++;
      if (!same) different.push(`${page.file} (${expected.length} vs ${actual.length} bytes${frames ? ", has iframes" : ""})`);
    }
    console.log(
      `cdp aria corpus: ${identical} of ${pages.length} pages identical (${identicalWithoutFrames} of the ${withoutFrames} without iframes); different: ${different.join(", ") || "none"}`,
    );
    expect(identicalWithoutFrames).toBeGreaterThanOrEqual(Math.ceil(withoutFrames * 0.85));
  }, 600_000);
});
