/**
 * The secrets scan itself: which artefacts quote which secret. Worker answers
 * may hand out a lease or view token where the host asked for one, and may
 * quote the page's own text (a site that echoes a password); both are left
 * out of an answer before a typed password is searched for in it.
 */
import type { Artefact } from "./artefacts.js";

/** Control and view tokens handed out in worker answers: `"token":"…"` of a grant, `token=…` of a live view path. */
export function issuedTokens(answers: readonly Artefact[]): Set<string> {
  const tokens = new Set<string>();
  for (const { text } of answers) {
    for (const match of text.matchAll(/"token":"([^"]+)"/g)) tokens.add(match[1]!);
    for (const match of text.matchAll(/token=([^"&\s\\]+)/g)) tokens.add(decodeURIComponent(match[1]!));
  }
  return tokens;
}

/** An answer without the places that legitimately hand a token out. */
const withoutIssued = (text: string) => text.replace(/"token":"[^"]+"/g, '"token":""').replace(/token=[^"&\s\\]+/g, "token=");

/** Fields of worker answers that quote the page itself (its text, text changes, console text): the site echoes a password there, not the package. */
const pageTextFields = new Set(["text", "added", "removed", "snapshot"]);

/** A worker answer without the page's own text (an answer that is not JSON is kept whole). */
function withoutPageText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text, (key, value: unknown) => (pageTextFields.has(key) ? undefined : value)));
  } catch {
    return text;
  }
}

/** A secret searched for: what kind it is (`typed password` is searched outside the page's own text) and its value. */
export type Secret = [kind: string, value: string];

/** Where each secret shows in `scanned` (as is, or URL-encoded): one line per finding, with the text around it. */
export function findSecrets(scanned: readonly Artefact[], secrets: readonly Secret[]): string[] {
  const found: string[] = [];
  for (const artefact of scanned) {
    const whole = artefact.answer ? withoutIssued(artefact.text) : artefact.text;
    const ownText = artefact.answer ? withoutPageText(whole) : whole;
    for (const [kind, value] of secrets) {
      const text = kind === "typed password" ? ownText : whole;
      if (text.includes(value) || text.includes(encodeURIComponent(value))) {
        const at = text.indexOf(value);
        found.push(`${kind} in ${artefact.kind}: …${text.slice(Math.max(0, at - 100), at + value.length + 40)}…`);
      }
    }
  }
  return found;
}
