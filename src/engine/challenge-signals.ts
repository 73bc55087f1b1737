import type { BrowserContext, Page } from "playwright-core";
import { ActionFailedError } from "../errors.js";
import { challengeDomMarkers, challengeScriptTokens, type ChallengeSignals } from "../access/challenge.js";
import { evaluateInMainFrame, type MainFrameProbe } from "./isolated-world.js";
import type { PageState } from "./session.js";

/** Visible text kept for the classifier, and URLs of frames and scripts read. */
const excerptLength = 2000;
const urlsMax = 50;
/** Inline script text searched for tokens, per script. */
const scriptScanLength = 100_000;

/** What the page itself shows, read in one call. */
export interface DomSignals {
  title: string;
  text: string;
  textLength: number;
  markers: string[];
  frameUrls: string[];
  scriptUrls: string[];
  /** Names of the cookies page script can see (`document.cookie`; HttpOnly ones are not there). */
  cookies: string[];
  /** The document is still being parsed (what it shows may not be final). */
  loading: boolean;
}

/**
 * Reads the DOM signals of the main frame: title, visible text (`innerText`),
 * markers, frame and script URLs, the cookie names page script sees. Runs in
 * the page, in the engine's isolated world as a rule: kept as source text (a
 * compiled function can refer to helpers of the bundler that the world lacks).
 */
const readDomSignalsFunction = `function readDomSignals(selectors, tokens, limits) {
  const body = document.body;
  const text = body ? String(body.innerText) : "";
  const markers = [];
  for (const [name, selector] of Object.entries(selectors)) if (document.querySelector(selector)) markers.push(name);
  const inline = Array.from(document.querySelectorAll("script:not([src])"), (script) => (script.textContent || "").slice(0, limits.scan));
  for (const [name, token] of Object.entries(tokens)) if (inline.some((code) => code.includes(token))) markers.push(name);
  const urls = (selector) =>
    Array.from(document.querySelectorAll(selector), (element) => element.src || element.getAttribute("src") || "").filter(Boolean).slice(0, limits.urls);
  let cookies = [];
  try {
    cookies = String(document.cookie).split(";").map((pair) => pair.split("=")[0].trim()).filter(Boolean);
  } catch {
    // An opaque origin has no cookies to read.
  }
  return {
    title: String(document.title),
    text: text.slice(0, limits.excerpt),
    textLength: text.trim().length,
    markers,
    frameUrls: urls("iframe[src], frame[src]"),
    scriptUrls: urls("script[src]"),
    cookies,
    loading: document.readyState === "loading",
  };
}`;

const expressionWith = (excerpt: number) =>
  `(${readDomSignalsFunction})(${JSON.stringify(challengeDomMarkers)}, ${JSON.stringify(challengeScriptTokens)}, ${JSON.stringify({
    excerpt,
    urls: urlsMax,
    scan: scriptScanLength,
  })})`;
const expression = expressionWith(excerptLength);
/** The same read with the whole visible text (for an action's text change). */
const expressionWithText = expressionWith(Number.MAX_SAFE_INTEGER);

/**
 * The DOM signals of the main frame in one call (in the engine's isolated
 * world when it can be), with the whole visible text when `wholeText`.
 * Throws as `page.evaluate` does.
 */
export async function readDomSignalsOf(page: Page, probe: MainFrameProbe | undefined, wholeText = false): Promise<DomSignals> {
  const read = await evaluateInMainFrame(page, probe, wholeText ? expressionWithText : expression);
  if (typeof read !== "object" || read === null) throw new ActionFailedError("challenge: the page answered no signals");
  return read as DomSignals;
}

/** The signals for the classifier: what the page shows, plus the status and headers its document came with. */
export function signalsOf(state: PageState, dom: DomSignals, cookies: string[] = dom.cookies): ChallengeSignals {
  const { loading: _loading, ...shown } = dom;
  const document = state.document;
  return { ...shown, text: dom.text.slice(0, excerptLength), ...(document ? { status: document.status, headers: document.headers } : {}), cookies };
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
