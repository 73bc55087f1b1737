import type { CDPSession, Page } from "playwright-core";

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
 * or the text after a navigation ({@link evaluate}) is one
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
  watchFill(value: string, maxFields: number): FillWatch {
    const call = (functionDeclaration: string, awaitPromise: boolean) =>
      this.run(
        (cdp, contextId) =>
          cdp.send("Runtime.callFunctionOn", {
            functionDeclaration,
            executionContextId: contextId,
            arguments: [{ value }, { value: maxFields }],
            awaitPromise,
            returnByValue: true,
          }),
        // A number (-1) when the wait was replaced by a later one or cut short.
        (read): PasswordFieldsAfterFill | undefined => {
          const { count, focusedOrHolding } = (typeof read === "object" && read !== null ? read : {}) as Record<string, unknown>;
          return typeof count === "number" && typeof focusedOrHolding === "boolean" ? { count, focusedOrHolding } : undefined;
        },
      );
    const answer = call(waitForFillFunction, true);
    let settled: PasswordFieldsAfterFill | undefined | null = null;
    void answer.then((read) => (settled = read));
    return {
      read: async () => {
        // Answered already (the usual case: the page answers as the text arrives).
        if (settled !== null) return settled;
        // Not (yet): the page stopped the event, refused the text, or the answer is on its way.
        // A read now ends the wait; whichever of the two answers first is a read after the fill.
        const now = call(readNowFunction, false);
        const first = await Promise.race([answer, now]);
        return first ?? (await now);
      },
      cancel: () => void call(readNowFunction, false),
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

/**
 * The value of `expression` in the page's main frame: in the engine's own
 * isolated world when it can be (page scripts cannot change what it reads,
 * and a new document needs no Playwright script first), else through
 * Playwright in the page, which throws as `page.evaluate` does.
 */
export async function evaluateInMainFrame(page: Page, probe: MainFrameProbe | undefined, expression: string): Promise<unknown> {
  const inWorld = await probe?.evaluate(expression);
  return inWorld ? inWorld.value : await page.evaluate(expression);
}

/** What the main frame's password inputs looked like after a fill. */
export interface PasswordFieldsAfterFill {
  /** Password inputs, open shadow roots included. */
  count: number;
  /**
   * Read at the fill's `input` event: one of them is focused, or holds a
   * non-empty value that is part of the filled text or holds all of it (only
   * read when there are at most `maxFields`; more count as true).
   */
  focusedOrHolding?: boolean;
}

/** A read of password inputs requested before a fill ({@link MainFrameProbe.watchFill}). */
export interface FillWatch {
  /** Password inputs after the fill, or `undefined` when they cannot be read this way. Call once the fill returned. */
  read(): Promise<PasswordFieldsAfterFill | undefined>;
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

/**
 * Runs in the isolated world: the password inputs of the document and of its
 * open shadow roots, how many, and whether one is focused (\`:focus\`, as
 * Playwright's selector reads it) or holds part of the filled text or all of
 * it (as password-fields.ts compares values; more than `maxFields` count as yes).
 */
const readFieldsFunction = `function readPasswordFields(value, maxFields) {
  const fields = [];
  const visit = (root) => {
    fields.push(...root.querySelectorAll("input[type=password i]"));
    for (const element of root.querySelectorAll("*")) if (element.shadowRoot) visit(element.shadowRoot);
  };
  visit(document);
  const holding = (field) => field.matches(":focus") || (field.value !== "" && (value.includes(field.value) || field.value.includes(value)));
  return { count: fields.length, focusedOrHolding: fields.length > maxFields || fields.some(holding) };
}`;

/** Runs in the isolated world: ends a wait of {@link waitForFillFunction} and reads the fields now. */
const readNowFunction = `function (value, maxFields) {
  ${readFieldsFunction}
  globalThis.__stationFillWatch?.(-1);
  return readPasswordFields(value, maxFields);
}`;

/** Runs in the isolated world: reads the fields at the fill's `input` event (window, bubble phase); -1 when cut short. */
const waitForFillFunction = `function (value, maxFields) {
  ${readFieldsFunction}
  globalThis.__stationFillWatch?.(-1);
  return new Promise((resolve) => {
    const end = (answer) => {
      window.removeEventListener("input", onInput);
      if (globalThis.__stationFillWatch === end) globalThis.__stationFillWatch = undefined;
      resolve(answer);
    };
    const onInput = (event) => {
      if (event.isTrusted && event.inputType === "insertText" && event.data === value) end(readPasswordFields(value, maxFields));
    };
    globalThis.__stationFillWatch = end;
    window.addEventListener("input", onInput);
  });
}`;
