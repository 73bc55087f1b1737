import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { inspectPage as InspectPage } from "../../src/engine/inspect.js";

/**
 * The DOM observation under a transpiler that keeps function names (tsx,
 * esbuild `keepNames`, as `npm run worker` and the fault suite run): esbuild
 * then puts `__name(…)` calls into the page function's source, which fail in
 * the page unless the function is sent as an expression that binds `__name`.
 */
describe("inspect built with keepNames", () => {
  let directory: string;
  let browser: Browser;
  let inspectPage: typeof InspectPage;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "inspect-kept-names-"));
    const outfile = join(directory, "inspect.mjs");
    await build({ entryPoints: [join(import.meta.dirname, "../../src/engine/inspect.ts")], bundle: true, keepNames: true, format: "esm", platform: "node", external: ["playwright-core"], outfile, logLevel: "silent" });
    ({ inspectPage } = (await import(pathToFileURL(outfile).href)) as { inspectPage: typeof InspectPage });
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  });
  afterAll(async () => {
    await browser?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("still lists the page's elements", async () => {
    const page = await browser.newPage();
    await page.setContent(`<h1>Title</h1><button aria-label="Send it">Send</button><a href="/x">More</a>`);
    const result = await inspectPage(page, 10, 50);
    expect(result.elements.map((element) => [element.role, element.name ?? element.text])).toEqual([
      ["heading", "Title"],
      ["button", "Send it"],
      ["link", "More"],
    ]);
  });
});
