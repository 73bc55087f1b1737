import type { BrowserContext, Page } from "playwright-core";
import { ActionFailedError } from "../errors.js";
import type { ChallengeSignals } from "../access/challenge.js";
import { domSignalsExpression, domSignalsWithTextExpression, signalsOf, type DomSignals } from "../access/challenge-dom-signals.js";
import { evaluateInMainFrame, type MainFrameProbe } from "./isolated-world.js";
import type { PageState } from "./session.js";

export { signalsOf, type DomSignals };

/**
 * The DOM signals of the main frame in one call (in the engine's isolated
 * world when it can be), with the whole visible text when `wholeText`.
 * Throws as `page.evaluate` does.
 */
export async function readDomSignalsOf(page: Page, probe: MainFrameProbe | undefined, wholeText = false): Promise<DomSignals> {
  const read = await evaluateInMainFrame(page, probe, wholeText ? domSignalsWithTextExpression : domSignalsExpression);
  if (typeof read !== "object" || read === null) throw new ActionFailedError("challenge: the page answered no signals");
  return read as DomSignals;
}

/**
 * The signals of a page for {@link classifyChallenge}: DOM signals in one
 * in-page call (in the engine's isolated world when it can be), the main
 * document's status and headers as the network delivered them, and the
 * names of the page's cookies. A page that navigates meanwhile (a challenge
 * reloading itself) is read again once it has loaded.
 */
export async function collectChallengeSignals(context: BrowserContext, state: PageState): Promise<ChallengeSignals> {
  // The cookie names come from the browser (HttpOnly ones included), asked at the same time.
  const url = state.page.url();
  const cookies = /^https?:/.test(url) ? context.cookies(url).then((all) => all.map((cookie) => cookie.name), () => undefined) : Promise.resolve(undefined);
  let dom: DomSignals | undefined;
  for (let attempt = 0; dom === undefined; attempt++) {
    try {
      dom = await readDomSignalsOf(state.page, state.probe);
    } catch (error) {
      if (attempt >= 2 || state.page.isClosed()) throw new ActionFailedError(`challenge: the page could not be read (${(error as Error).message})`, { cause: error });
      await state.page.waitForLoadState("load").catch(() => undefined);
    }
  }
  const names = state.page.url() === url ? await cookies : undefined;
  return signalsOf(state, dom, names ?? dom.cookies);
}
