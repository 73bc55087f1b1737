/**
 * Challenge detection: a pure classifier of signals a page showed. Runtime
 * neutral (web standards only), so that a host can run it on signals of its
 * own. It detects; nothing here solves or bypasses a challenge.
 *
 * A vendor marker alone never makes a `challenge`: sensors and widgets sit on
 * ordinary pages. A challenge is a vendor marker plus the shape of an
 * interstitial (little visible text, or a challenge title), or a vendor's own
 * mitigation header. A status code alone is low confidence.
 */

export type ChallengeState = "none" | "passive" | "widget" | "challenge" | "blocked" | "rate_limited" | "login_wall";

export const challengeStates: readonly ChallengeState[] = ["none", "passive", "widget", "challenge", "blocked", "rate_limited", "login_wall"];

/** What a page showed. Every field is optional: a missing one is a signal that did not fire. */
export interface ChallengeSignals {
  /** The main document's HTTP status, as seen on the network. */
  status?: number;
  /** The main document's response headers, names lower-cased. */
  headers?: Record<string, string>;
  title?: string;
  /** The visible text (`innerText`) or a bounded excerpt of it. */
  text?: string;
  /** The length of the whole visible text; `text.length` when absent. */
  textLength?: number;
  /** Names of {@link challengeDomMarkers} and {@link challengeScriptTokens} found in the page. */
  markers?: string[];
  frameUrls?: string[];
  scriptUrls?: string[];
  /** Cookie names (never values). */
  cookies?: string[];
}

export interface ChallengeResult {
  state: ChallengeState;
  vendor?: string;
  /** Which signals fired, for a human to check. */
  evidence: string[];
}

/** DOM markers, checked in the page with `querySelector`: name → selector. */
export const challengeDomMarkers: Readonly<Record<string, string>> = {
  "cf-challenge-form":
    "#challenge-form, form[action*='__cf_chl_f_tk='], form[action*='__cf_chl_jschl_tk__'], form[action*='__cf_chl_captcha_tk__']",
  "cf-challenge-stage": "#cf-please-wait, #challenge-spinner, #challenge-running, #challenge-stage, #turnstile-wrapper, #cf-hcaptcha-container",
  "cf-error": ".cf-error-code, #cf-error-details",
  "px-captcha": "#px-captcha, meta[name='description'][content='px-captcha']",
  "akamai-challenge": "iframe#sec-cpt-if",
  "imperva-incident": "iframe#main-iframe[src*='_Incapsula_Resource']",
  "distil-form": "#distilUnblockForm",
  "captcha-widget":
    ".g-recaptcha, textarea[name='g-recaptcha-response'], .h-captcha, textarea[name='h-captcha-response'], .cf-turnstile, input[name='cf-turnstile-response']",
  "password-field": "input[type='password']",
};

/** Tokens looked for in the page's inline scripts: name → substring. */
export const challengeScriptTokens: Readonly<Record<string, string>> = {
  "cf-chl-opt": "_cf_chl_opt",
  "cf-jschl": "jschl_answer",
  "cf-beacon": "__CF$cv$params",
  "px-app-id": "_pxAppId",
  "aws-goku": "gokuProps",
  "datadome-dd": "captcha-delivery.com",
  "kasada": "KPSDK",
};

const challengeMarkers: Record<string, string> = {
  "cf-challenge-form": "cloudflare",
  "cf-challenge-stage": "cloudflare",
  "cf-chl-opt": "cloudflare",
  "cf-jschl": "cloudflare",
  "px-captcha": "perimeterx",
  "akamai-challenge": "akamai",
  "aws-goku": "aws-waf",
  "datadome-dd": "datadome",
  "kasada": "kasada",
  "distil-form": "distil",
};

const challengeUrls: [RegExp, string][] = [
  [/\/cdn-cgi\/challenge-platform\/.*orchestrate\//, "cloudflare"],
  [/geo\.captcha-delivery\.com\/(captcha|interstitial)\//, "datadome"],
  [/captcha\.px-cdn\.net/, "perimeterx"],
  [/\/_sec\/cp_challenge\//, "akamai"],
  [/(token\.awswaf\.com\/.*challenge\.js|captcha-sdk\.awswaf\.com)/, "aws-waf"],
  [/cdn\.distilnetworks\.com/, "distil"],
  [/\/ips\.js(\?|$)/, "kasada"],
];

const sensorUrls: [RegExp, string][] = [
  [/\/cdn-cgi\/(challenge-platform\/scripts\/jsd\/|bm\/cv\/)/, "cloudflare"],
  [/challenges\.cloudflare\.com\/turnstile/, "cloudflare"],
  [/(google\.com|recaptcha\.net|gstatic\.com)\/recaptcha\//, "recaptcha"],
  [/hcaptcha\.com\//, "hcaptcha"],
  [/(client\.perimeterx\.net|px-cloud\.net|px-cdn\.net)/, "perimeterx"],
  [/_Incapsula_Resource/, "imperva"],
  [/datadome\.co/, "datadome"],
];

const sensorCookies: [RegExp, string][] = [
  [/^(__cf_bm|cf_clearance)$/, "cloudflare"],
  [/^(_px3|_pxhd|_pxvid|_px2)$/, "perimeterx"],
  [/^(_abck|bm_sz)$/, "akamai"],
  [/^datadome$/, "datadome"],
  [/^(visid_incap_|incap_ses_)/, "imperva"],
  [/^aws-waf-token$/, "aws-waf"],
  [/^__ddg1/, "ddos-guard"],
];

/** Real interstitials showed 45–830 characters of visible text. */
const interstitialTextMax = 2000;
const challengeTitle = /^(just a moment|attention required|performing security verification|please verify you are a human|press & hold|human verification|pardon our interruption|access to this page has been denied|checking your browser|ddos-guard)/i;
const rateLimitText = /too many requests|rate limit|sending too many|visiting too frequently|maximum number of attempts reached|please wait a few minutes/i;
const blockTitle = /^(error )?40[13]\b|forbidden|access denied|you have been blocked|request unsuccessful|^blocked\b/i;
const blockText = /incapsula incident id|sorry, you have been blocked|reference #18\.|you are not authorized to access this page|access (to this page )?(has been )?denied/i;
const loginWallText = /\b(sign|log) ?in to (continue|view|see|access)\b|\bplease (sign|log) ?in\b/i;
/** A QR sign-in (WhatsApp Web, Telegram, Discord): no password field; a short page offers a QR code to log in or link a device. */
const qrLoginText = /\bQR[ -]?code\b/i;
const qrLoginAim = /\b(log ?in|sign ?in|link)/i;

/** Classifies what a page showed. Never throws; any input gives a valid state. */
export function classifyChallenge(signals: ChallengeSignals): ChallengeResult {
  const read = normalize(signals);
  const evidence: string[] = [];
  const result = (state: ChallengeState, vendor?: string): ChallengeResult => ({ state, ...(vendor ? { vendor } : {}), evidence });
  const header = (name: string) => read.headers[name]?.toLowerCase() ?? "";
  const has = (marker: string) => read.markers.has(marker);
  const urls = [...read.frameUrls, ...read.scriptUrls];
  const shortText = read.textLength <= interstitialTextMax;
  const titled = challengeTitle.test(read.title);
  if (read.status !== undefined) evidence.push(`status ${read.status}`);

  // A vendor's mitigation header is its own statement that the response is a challenge.
  if (header("cf-mitigated") === "challenge") return evidence.push("header cf-mitigated: challenge"), result("challenge", "cloudflare");
  if (header("x-vercel-mitigated") === "challenge") return evidence.push("header x-vercel-mitigated: challenge"), result("challenge", "vercel");
  const waf = header("x-amzn-waf-action");
  if (waf === "captcha" || waf === "challenge") return evidence.push(`header x-amzn-waf-action: ${waf}`), result("challenge", "aws-waf");

  // Vendor challenge markers, counted only with the shape of an interstitial.
  const markerVendors = [...read.markers].filter((marker) => marker in challengeMarkers).map((marker) => [marker, challengeMarkers[marker]!] as const);
  const urlVendors = urls.flatMap((url) => challengeUrls.filter(([pattern]) => pattern.test(url)).map(([, vendor]) => [url, vendor] as const));
  const pxTitled = has("px-app-id") && titled;
  if ((markerVendors.length > 0 || urlVendors.length > 0 || pxTitled) && (shortText || titled)) {
    for (const [marker] of markerVendors) evidence.push(`marker ${marker}`);
    for (const url of new Set(urlVendors.map(([found]) => withoutQuery(found)))) evidence.push(`url ${url}`);
    if (pxTitled) evidence.push("marker px-app-id");
    evidence.push(titled ? `title ${JSON.stringify(truncate(read.title))}` : `visible text ${read.textLength} characters`);
    if (/t=bv\b/.test(urls.join(" ")) && urlVendors.some(([, vendor]) => vendor === "datadome")) return result("blocked", "datadome");
    return result("challenge", markerVendors[0]?.[1] ?? urlVendors[0]?.[1] ?? "perimeterx");
  }

  // Blocks: nothing to solve.
  if (has("cf-error") && shortText) return evidence.push("marker cf-error"), result("blocked", "cloudflare");
  if (has("imperva-incident") || /_Incapsula_Resource\?CWUDNSAI=/.test(read.frameUrls.join(" "))) {
    return evidence.push("marker imperva-incident"), result("blocked", "imperva");
  }
  const blockSaid = shortText && (blockTitle.test(read.title) || blockText.test(read.text));
  if (blockSaid && /incapsula/i.test(read.text)) return evidence.push("text Incapsula incident"), result("blocked", "imperva");
  if (blockSaid && /reference #18\./i.test(read.text)) return evidence.push("text Akamai reference"), result("blocked", "akamai");

  // Throttling.
  if (read.status === 429) return result("rate_limited", vendorOfServer(header("server")));
  if (shortText && (rateLimitText.test(read.title) || rateLimitText.test(read.text.slice(0, 500)))) {
    return evidence.push(`text ${JSON.stringify(truncate(read.title || read.text))}`), result("rate_limited");
  }

  // A site's own refusal: the status (low confidence alone) or what the page says, on a short page.
  const refused = read.status === 401 || read.status === 403;
  if (has("password-field") && (read.status === 401 || loginWallText.test(read.text))) return evidence.push("a sign-in form"), result("login_wall");
  if (shortText && qrLoginText.test(read.text) && qrLoginAim.test(read.text)) return evidence.push("a QR code sign-in"), result("login_wall");
  if (blockSaid) return evidence.push(`block text ${JSON.stringify(truncate(read.title || read.text))}`), result("blocked", vendorOfServer(header("server")));
  if (refused && shortText) return evidence.push("status only (low confidence)"), result("blocked", vendorOfServer(header("server")));

  if (has("captcha-widget")) {
    const vendor = urls.map((url) => sensorUrls.find(([pattern]) => pattern.test(url))?.[1]).find((found) => found !== undefined);
    return evidence.push("marker captcha-widget"), result("widget", vendor);
  }

  // Sensors: scripts, frames and cookies of a vendor on a page that shows no challenge.
  const sensors = [
    ...urls.flatMap((url) => sensorUrls.filter(([pattern]) => pattern.test(url)).map(([, vendor]) => [`url ${withoutQuery(url)}`, vendor] as const)),
    ...read.cookies.flatMap((name) => sensorCookies.filter(([pattern]) => pattern.test(name)).map(([, vendor]) => [`cookie ${name}`, vendor] as const)),
    ...["cf-beacon", "px-app-id"].filter(has).map((marker) => [`marker ${marker}`, marker.startsWith("cf") ? "cloudflare" : "perimeterx"] as const),
  ];
  if (sensors.length > 0) {
    for (const [what] of sensors.slice(0, 5)) evidence.push(what);
    return result("passive", sensors[0]![1]);
  }
  return result("none");
}

function vendorOfServer(server: string): string | undefined {
  if (server.includes("cloudflare")) return "cloudflare";
  if (server.includes("akamaighost")) return "akamai";
  return undefined;
}

/** URLs in evidence lose their query and fragment (they can carry tokens). */
const withoutQuery = (url: string) => truncate(url.replace(/[?#].*$/s, ""));

const truncate = (value: string) => (value.length > 120 ? `${value.slice(0, 119)}…` : value);

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);

function normalize(signals: ChallengeSignals) {
  const raw = (typeof signals === "object" && signals !== null ? signals : {}) as Record<string, unknown>;
  const text = typeof raw.text === "string" ? raw.text : "";
  const headers: Record<string, string> = {};
  if (typeof raw.headers === "object" && raw.headers !== null) {
    for (const [name, value] of Object.entries(raw.headers)) if (typeof value === "string") headers[name.toLowerCase()] = value;
  }
  return {
    status: typeof raw.status === "number" && Number.isFinite(raw.status) ? raw.status : undefined,
    headers,
    title: typeof raw.title === "string" ? raw.title.trim() : "",
    text,
    textLength: typeof raw.textLength === "number" && raw.textLength >= 0 ? raw.textLength : text.trim().length,
    markers: new Set(strings(raw.markers)),
    frameUrls: strings(raw.frameUrls),
    scriptUrls: strings(raw.scriptUrls),
    cookies: strings(raw.cookies),
  };
}
