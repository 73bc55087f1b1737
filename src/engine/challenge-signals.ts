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

interface DomSignals {
  title: string;
  text: string;
  textLength: number;
  markers: string[];
  frameUrls: string[];
  scriptUrls: string[];
}

/**
 * Reads the DOM signals of the main frame: title, visible text (`innerText`),
 * markers, frame and script URLs. Runs in the page, so it must be self-contained.
 */
export function readDomSignals(
  selectors: Record<string, string>,
  tokens: Record<string, string>,
  limits: { excerpt: number; urls: number; scan: number },
): DomSignals {
  const body = document.body;
  const text = body ? String(body.innerText) : "";
  const markers: string[] = [];
  for (const [name, selector] of Object.entries(selectors)) if (document.querySelector(selector)) markers.push(name);
  const inline = [...document.querySelectorAll("script:not([src])")].map((script) => (script.textContent ?? "").slice(0, limits.scan));
  for (const [name, token] of Object.entries(tokens)) if (inline.some((code) => code.includes(token))) markers.push(name);
  const urls = (selector: string, attribute: string) =>
    [...document.querySelectorAll(selector)].map((element) => (element as HTMLIFrameElement).src || element.getAttribute(attribute) || "").filter(Boolean).slice(0, limits.urls);
  return {
    title: String(document.title),
    text: text.slice(0, limits.excerpt),
    textLength: text.trim().length,
    markers,
    frameUrls: urls("iframe[src], frame[src]", "src"),
    scriptUrls: urls("script[src]", "src"),
  };
}

const expression = `(${String(readDomSignals)})(${JSON.stringify(challengeDomMarkers)}, ${JSON.stringify(challengeScriptTokens)}, ${JSON.stringify({
  excerpt: excerptLength,
  urls: urlsMax,
  scan: scriptScanLength,
})})`;

async function readOnce(page: Page, probe: MainFrameProbe | undefined): Promise<DomSignals> {
  const read = await evaluateInMainFrame(page, probe, expression);
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
  let dom: DomSignals | undefined;
  for (let attempt = 0; dom === undefined; attempt++) {
    try {
      dom = await readOnce(state.page, state.probe);
    } catch (error) {
      if (attempt >= 2 || state.page.isClosed()) throw new ActionFailedError(`challenge: the page could not be read (${(error as Error).message})`, { cause: error });
      await state.page.waitForLoadState("load").catch(() => undefined);
    }
  }
  const url = state.page.url();
  const cookies = /^https?:/.test(url) ? (await context.cookies(url)).map((cookie) => cookie.name) : [];
  const document = state.document;
  return { ...dom, ...(document ? { status: document.status, headers: document.headers } : {}), cookies };
}
