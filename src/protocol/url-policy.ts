import { UrlPolicyError } from "../errors.js";

/**
 * The navigation URL policy: absolute http(s) URLs without embedded
 * credentials, or `about:blank` (with or without a fragment). Everything else (file:, data:,
 * javascript:, chrome:, view-source:, blob:, relative URLs…) is refused.
 */
export function isAllowedNavigationUrl(url: string): boolean {
  return refusalReason(url) === undefined;
}

/** Why a URL is refused, or `undefined` when it is allowed. */
export function refusalReason(url: string): string | undefined {
  if (url === "about:blank" || url.startsWith("about:blank#")) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "it is not an absolute URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return `the ${parsed.protocol} scheme is not allowed; only http:, https: and about:blank are`;
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return "URLs with embedded credentials are not allowed";
  }
  return undefined;
}

/**
 * Throws {@link UrlPolicyError} unless `url` may be navigated to. The error
 * shows the URL without credentials, query or fragment.
 *
 * @example
 * ```ts
 * assertNavigableUrl("https://example.com/"); // ok
 * assertNavigableUrl("file:///etc/passwd");    // throws UrlPolicyError
 * ```
 */
export function assertNavigableUrl(url: string): void {
  const reason = refusalReason(url);
  if (reason !== undefined) throw new UrlPolicyError(`Navigation to ${sanitizeUrl(url)} refused: ${reason}`);
}

/**
 * A URL safe to log or show: no credentials, query or fragment. Non-URLs are
 * reduced to their scheme (or `[invalid URL]`).
 */
export function sanitizeUrl(url: string): string {
  if (url === "about:blank") return url;
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "http:" || parsed.protocol === "https:" || parsed.protocol === "ws:" || parsed.protocol === "wss:") {
      return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
    }
    return `${parsed.protocol}…`;
  } catch {
    return "[invalid URL]";
  }
}
