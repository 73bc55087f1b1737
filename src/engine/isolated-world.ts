import type { CDPSession } from "playwright-core";

/**
 * Counts password inputs of a page's main frame, open shadow roots included,
 * in an isolated world of the engine's own (`Page.createIsolatedWorld`), over
 * the page's CDP session: one CDP request, where a Playwright `count` also
 * costs a trip through Playwright's client and server. Page scripts cannot
 * reach that world, so overriding `querySelectorAll` or `shadowRoot` in the
 * page changes nothing. A world belongs to one document: a new one is made
 * after the main frame commits a document (`Page.frameNavigated`, a page
 * restored from the back-forward cache included). Answers `undefined` whenever
 * it cannot tell (no CDP session, a navigation meanwhile): callers then count
 * through Playwright.
 */
export class MainFrameProbe {
  private world: Promise<number> | undefined;
  private frameId: string | undefined;
  private readonly ready: Promise<CDPSession | undefined>;

  /** @param cdp The page's CDP session (with the Page domain enabled), if it has one. */
  constructor(cdp: Promise<CDPSession | undefined>) {
    this.ready = cdp.then((session) => {
      session?.on("Page.frameNavigated", ({ frame }) => {
        if (frame.parentId !== undefined) return;
        this.frameId = frame.id;
        this.world = undefined;
      });
      return session;
    });
  }

  /** Password inputs in the main frame's document, or `undefined` when they cannot be counted this way. */
  async countPasswordInputs(): Promise<number | undefined> {
    try {
      const cdp = await this.ready;
      if (!cdp) return undefined;
      const world = (this.world ??= this.createWorld(cdp));
      const answer = await cdp.send("Runtime.evaluate", { expression: countExpression, contextId: await world, returnByValue: true });
      const value: unknown = answer.result.value;
      return answer.exceptionDetails || typeof value !== "number" ? undefined : value;
    } catch {
      // The world went with its document, or the page closed: a new one next time.
      this.world = undefined;
      return undefined;
    }
  }

  private async createWorld(cdp: CDPSession): Promise<number> {
    const frameId = this.frameId ?? (await cdp.send("Page.getFrameTree")).frameTree.frame.id;
    return (await cdp.send("Page.createIsolatedWorld", { frameId, worldName: "station-browser-use" })).executionContextId;
  }
}

/** Runs in the isolated world: password inputs of the document and of every open shadow root in it. */
const countExpression = `(() => {
  let count = 0;
  const visit = (root) => {
    count += root.querySelectorAll("input[type=password i]").length;
    for (const element of root.querySelectorAll("*")) if (element.shadowRoot) visit(element.shadowRoot);
  };
  visit(document);
  return count;
})()`;
