import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser } from "playwright-core";
import {
  corpusDir,
  corpusPresent,
  coverage,
  createCorpusProvider,
  markGroundTruth,
  readCorpusManifest,
  startCorpusServer,
  withoutRefs,
  type CorpusPage,
  type CorpusProvider,
} from "../../bench/corpus.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { renderAgentForm } from "../../src/protocol/aria/agent-form.js";
import { closedNetworkArgs, findChromium } from "../../src/providers/local/index.js";

/**
 * On the real login pages of the corpus, every labelled element (username,
 * password, next) is reachable through a ref of the engine's agent form. The
 * corpus lives outside the repository (`../shared/corpus/pages`); without it
 * this suite is skipped and says so.
 */
const present = corpusPresent();
if (!present) console.warn(`corpus coverage: SKIPPED — no corpus at ${corpusDir} (set STATION_CORPUS_DIR)`);

describe.skipIf(!present)(`agent form coverage on the corpus login pages (${present ? "corpus found" : "SKIPPED: corpus absent"})`, () => {
  let browser: Browser;
  let server: Server;
  let provider: CorpusProvider;
  let adapter: PlaywrightBrowserAdapter;
  let origin = "";
  let logins: CorpusPage[] = [];

  beforeAll(async () => {
    logins = (await readCorpusManifest()).filter((page) => page.file.startsWith("login-"));
    server = await startCorpusServer(logins);
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: findChromium(), args: [...closedNetworkArgs] });
    provider = createCorpusProvider(browser, origin);
    adapter = new PlaywrightBrowserAdapter({ provider });
  });
  afterAll(async () => {
    await adapter?.shutdown();
    await browser?.close();
    server?.close();
  });

  it("reaches every labelled login element through a ref, as Playwright's snapshot does", async () => {
    expect(logins.length).toBeGreaterThan(10);
    let covered = 0;
    let total = 0;
    const missed: string[] = [];
    for (const login of logins) {
      const handle = await adapter.open();
      try {
        await adapter.execute(handle, { op: "navigate", url: `${origin}/pages/${login.file}`, timeoutMs: 15_000 }).catch(() => undefined);
        const page = provider.page(handle.id);
        const truth = await markGroundTruth(page);
        const engine = await adapter.execute(handle, { op: "accessibility" });
        // Score the same rendering with Playwright's refs, and check it is the engine's result.
        const refs: string[] = [];
        const scored = renderAgentForm(await page.ariaSnapshotJSON({ mode: "ai" }), {
          interactiveOnly: false,
          depth: 20,
          maxBytes: 1024 * 1024,
          boxes: false,
          mapRef: (ref) => (refs.push(ref), ref),
        });
        expect(withoutRefs(engine.snapshot), login.file).toBe(withoutRefs(scored.snapshot));
        const reached = await coverage(page, refs, truth);
        covered += reached.covered;
        total += reached.total;
        if (reached.covered < reached.total) missed.push(`${login.file}: ${reached.covered}/${reached.total}`);
      } finally {
        await adapter.close(handle);
      }
    }
    expect(missed).toEqual([]);
    expect(total).toBeGreaterThan(50);
    expect(covered).toBe(total);
  }, 240_000);
});
