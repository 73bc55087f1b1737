import type { Frame, Page } from "playwright-core";
import { collectElements, iframeSelector, InspectAccumulator, type CollectedElements } from "../protocol/inspect-script.js";
import { limits } from "../protocol/limits.js";
import type { InspectResult } from "../protocol/results.js";
import { callInPage } from "./evaluate-result.js";

async function frameChain(frame: Frame): Promise<{ chain: string[]; offsetX: number; offsetY: number } | undefined> {
  const chain: string[] = [];
  let current: Frame | null = frame;
  while (current?.parentFrame()) {
    const element = await current.frameElement();
    chain.unshift(await element.evaluate(iframeSelector));
    current = current.parentFrame();
  }
  const box = await (await frame.frameElement()).boundingBox();
  if (!box || chain.length > limits.frameChain) return undefined;
  return { chain, offsetX: box.x, offsetY: box.y };
}

/** Bounded DOM metadata of the page and its frames, in main-viewport CSS pixels. */
export async function inspectPage(page: Page, maxElements: number, maxTextLength: number): Promise<InspectResult> {
  const found = new InspectAccumulator(maxElements);
  for (const frame of page.frames()) {
    if (found.remaining <= 0) {
      found.truncated = true;
      break;
    }
    const placement = frame === page.mainFrame() ? { chain: [], offsetX: 0, offsetY: 0 } : await frameChain(frame).catch(() => undefined);
    if (!placement) continue;
    // As an expression (callInPage): under a transpiler that keeps names (tsx), the function's own source calls `__name`.
    const collected = await frame
      .evaluate<CollectedElements>(callInPage(collectElements, { maxElements: found.remaining, maxTextLength, offsetX: placement.offsetX, offsetY: placement.offsetY }))
      .catch(() => undefined);
    if (collected) found.add({ chain: placement.chain, ...collected });
  }
  const viewport = page.viewportSize() ?? (await page.evaluate(() => ({ width: innerWidth, height: innerHeight })));
  return found.result(viewport);
}
