/**
 * The in-page read of challenge signals (title, visible text, vendor markers,
 * frame and script URLs, cookie names) and how its answer becomes the
 * classifier's input: the same for both engines. Web standards only; the
 * read is sent as source text, so it runs in any world.
 */
import { challengeDomMarkers, challengeScriptTokens, type ChallengeSignals } from "./challenge.js";

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
/** The read of the DOM signals, an expression (the same for both engines). */
export const domSignalsExpression = expressionWith(excerptLength);
/** The same read with the whole visible text (for an action's text change). */
export const domSignalsWithTextExpression = expressionWith(Number.MAX_SAFE_INTEGER);

/** The signals for the classifier: what the page shows, plus the status and headers its document came with. */
export function signalsOf(state: { document?: { status: number; headers: Record<string, string> } | undefined }, dom: DomSignals, cookies: string[] = dom.cookies): ChallengeSignals {
  const { loading: _loading, ...shown } = dom;
  const document = state.document;
  return { ...shown, text: dom.text.slice(0, excerptLength), ...(document ? { status: document.status, headers: document.headers } : {}), cookies };
}
