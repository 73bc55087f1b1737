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
 *
 * The world of a new document is made as it commits, so reading the title
 * or the text after a navigation ({@link title}, {@link evaluate}) is one
 * small request, with no Playwright script to set up in the document first.
 *
 * A fill can have the count taken with no round trip after it
 * ({@link watchFill}): the request goes out before the fill, and the page
 * answers it when the fill's text arrives.
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
        // Made now, while the document loads, so that the first read of it waits for nothing.
        const world = this.createWorld(session);
        world.catch(() => undefined);
        this.world = world;
      });
      return session;
    });
  }

  /** Password inputs in the main frame's document, or `undefined` when they cannot be counted this way. */
  async countPasswordInputs(): Promise<number | undefined> {
    return this.run(
      (cdp, contextId) => cdp.send("Runtime.evaluate", { expression: countNowExpression, contextId, returnByValue: true }),
      (value) => (typeof value === "number" ? value : undefined),
    );
  }

  /** The main frame document's title, or `undefined` when it cannot be read this way. */
  async title(): Promise<string | undefined> {
    const read = await this.evaluate("document.title");
    return typeof read?.value === "string" ? read.value : undefined;
  }

  /**
   * The JSON value of `expression` (self-contained) in the main frame's
   * document, as `{ value }`; `undefined` when it cannot be run this way.
   */
  async evaluate(expression: string): Promise<{ value: unknown } | undefined> {
    return this.run(
      (cdp, contextId) => cdp.send("Runtime.evaluate", { expression, contextId, returnByValue: true }),
      (value) => ({ value }),
    );
  }

  /**
   * Starts counting for a fill of `value` that is about to run: the world
   * waits for the `input` event the fill's text causes (trusted, `insertText`,
   * carrying exactly `value`) and counts as that event reaches the window,
   * after the page's own listeners on the field and on its ancestors (and the
   * microtasks they queued) have run. Call {@link FillWatch.count} once the fill
   * has returned.
   */
  watchFill(value: string): FillWatch {
    const answer = this.run(
      (cdp, contextId) =>
        cdp.send("Runtime.callFunctionOn", {
          functionDeclaration: waitForFillFunction,
          executionContextId: contextId,
          arguments: [{ value }],
          awaitPromise: true,
          returnByValue: true,
        }),
      // -1: replaced by a later watch, or cut short by a count.
      (counted) => (typeof counted === "number" && counted >= 0 ? counted : undefined),
    );
    let settled: number | undefined | null = null;
    void answer.then((counted) => (settled = counted));
    return {
      count: async () => {
        // Answered already (the usual case: the page answers as the text arrives).
        if (settled !== null) return settled;
        // Not (yet): the page stopped the event, refused the text, or the answer is on its way.
        // A count now ends the wait; whichever of the two answers first is a count after the fill.
        const now = this.countPasswordInputs();
        const first = await Promise.race([answer, now]);
        return first ?? (await now);
      },
      cancel: () => void this.countPasswordInputs(),
    };
  }

  private async run<T>(
    send: (cdp: CDPSession, contextId: number) => Promise<{ result: { value?: unknown }; exceptionDetails?: unknown }>,
    read: (value: unknown) => T | undefined,
  ): Promise<T | undefined> {
    let world: Promise<number> | undefined;
    try {
      const cdp = await this.ready;
      if (!cdp) return undefined;
      world = this.world ??= this.createWorld(cdp);
      const answer = await send(cdp, await world);
      return answer.exceptionDetails ? undefined : read(answer.result.value);
    } catch {
      // The world went with its document, or the page closed: a new one next time.
      if (this.world === world) this.world = undefined;
      return undefined;
    }
  }

  private async createWorld(cdp: CDPSession): Promise<number> {
    const frameId = this.frameId ?? (await cdp.send("Page.getFrameTree")).frameTree.frame.id;
    return (await cdp.send("Page.createIsolatedWorld", { frameId, worldName: "station-browser-use" })).executionContextId;
  }
}

/** A count of password inputs requested before a fill ({@link MainFrameProbe.watchFill}). */
export interface FillWatch {
  /** Password inputs after the fill, or `undefined` when they cannot be counted this way. Call once the fill returned. */
  count(): Promise<number | undefined>;
  /** The fill failed: stop waiting for its text (best effort, not awaited). */
  cancel(): void;
}

/**
 * Runs in the isolated world (its `globalThis` is that world's own): counts
 * password inputs of the document and of every open shadow root in it, and
 * ends a wait for a fill ({@link waitForFillFunction}) with -1.
 */
const countFunction = `function countPasswordInputs() {
  let count = 0;
  const visit = (root) => {
    count += root.querySelectorAll("input[type=password i]").length;
    for (const element of root.querySelectorAll("*")) if (element.shadowRoot) visit(element.shadowRoot);
  };
  visit(document);
  return count;
}`;

const countNowExpression = `(() => {
  ${countFunction}
  globalThis.__stationFillWatch?.(-1);
  return countPasswordInputs();
})()`;

/** Runs in the isolated world: resolves with the count at the fill's `input` event (window, bubble phase), or -1 when cut short. */
const waitForFillFunction = `function (value) {
  ${countFunction}
  globalThis.__stationFillWatch?.(-1);
  return new Promise((resolve) => {
    const end = (answer) => {
      window.removeEventListener("input", onInput);
      if (globalThis.__stationFillWatch === end) globalThis.__stationFillWatch = undefined;
      resolve(answer);
    };
    const onInput = (event) => {
      if (event.isTrusted && event.inputType === "insertText" && event.data === value) end(countPasswordInputs());
    };
    globalThis.__stationFillWatch = end;
    window.addEventListener("input", onInput);
  });
}`;
