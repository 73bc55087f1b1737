import { agentToolLimits } from "./limits.js";

/**
 * Untrusted-content fences: website text (page text, names, values, titles,
 * URLs the page chose, console output) is wrapped in markers that carry a
 * random nonce made for this one result. The page never sees the nonce, so
 * text on the page cannot close the fence early.
 */

/** The element name of the fence markers. */
export const fenceName = "untrusted-page-content";

/** A fresh nonce: random hex from `crypto.getRandomValues`. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(agentToolLimits.fenceNonceBytes));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A nonce that occurs in none of `contents` (a clash is astronomically unlikely; this makes it impossible). */
export function nonceFor(contents: readonly string[]): string {
  for (;;) {
    const nonce = createNonce();
    if (!contents.some((content) => content.includes(nonce))) return nonce;
  }
}

/** The opening marker line. */
export const fenceOpen = (nonce: string) => `<${fenceName} nonce="${nonce}">`;
/** The closing marker line. */
export const fenceClose = (nonce: string) => `</${fenceName} nonce="${nonce}">`;

/** `content` between the two markers, each on its own line. */
export function fence(content: string, nonce: string): string {
  return `${fenceOpen(nonce)}\n${content}\n${fenceClose(nonce)}`;
}

/** What the markers add around content (UTF-8 bytes). */
export const fenceOverheadBytes = (nonce: string) => utf8Length(fence("", nonce));

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** UTF-8 length of `text`. */
export const utf8Length = (text: string) => encoder.encode(text).length;

/**
 * `text` cut to at most `maxBytes` UTF-8 bytes without splitting a character;
 * when a line break falls in the last quarter, the cut is made there.
 */
export function cutUtf8(text: string, maxBytes: number): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  // Step back over continuation bytes (10xxxxxx) to a character boundary.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  const cut = decoder.decode(bytes.subarray(0, end));
  const lineBreak = cut.lastIndexOf("\n");
  return lineBreak >= cut.length * 0.75 ? cut.slice(0, lineBreak) : cut;
}
