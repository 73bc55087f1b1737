import type { Page } from "playwright-core";
import { limits } from "../protocol/limits.js";
import { evaluateInMainFrame, type MainFrameProbe } from "./isolated-world.js";
import { readVisibleText, readVisibleTextAndTitle } from "../protocol/visible-text-script.js";

export { readVisibleText, readVisibleTextAndTitle };

/**
 * The visible text and the title of a page's main frame in one round trip:
 * in the engine's own isolated world when it can be (no Playwright script to
 * set up in a new document, and page scripts cannot change what it reads),
 * else through Playwright in the page. Anything but strings reads as empty.
 */
export async function readTextAndTitle(page: Page, probe?: MainFrameProbe): Promise<{ text: string; title: string }> {
  const read = await evaluateInMainFrame(page, probe, `(${String(readVisibleTextAndTitle)})()`);
  const { text, title } = (typeof read === "object" && read !== null ? read : {}) as { text?: unknown; title?: unknown };
  return { text: typeof text === "string" ? text : "", title: typeof title === "string" ? title : "" };
}

/**
 * The visible text for a change summary, or `undefined` when it cannot be
 * read in time (a page between documents, a closed page). Never throws.
 */
export function probeVisibleText(page: Page, probe?: MainFrameProbe): Promise<string | undefined> {
  return withinReadTimeout(async () => {
    const text = await evaluateInMainFrame(page, probe, `(${String(readVisibleText)})()`);
    return typeof text === "string" ? text : undefined;
  });
}

/** What `read` answers within `limits.textChange.readTimeoutMs`, or `undefined` (also when it throws). Never throws. */
export async function withinReadTimeout<T>(read: () => Promise<T>): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), limits.textChange.readTimeoutMs)));
  try {
    return await Promise.race([read().catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
