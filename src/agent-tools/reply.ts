import type { ToolImage, ToolResult } from "./types.js";
import type { TakeoverNotice } from "./takeover.js";
import { cutUtf8, fence, fenceOverheadBytes, nonceFor, utf8Length } from "./fence.js";
import type { Redactor } from "../redact.js";

/** A piece of a reply: our own text, or website content that goes inside the fence. */
export type ReplyPart = { kind: "text"; text: string } | { kind: "page"; text: string };

/**
 * What a tool produces: typed parts, composed into bounded text in one place
 * ({@link renderReply}). Tools never build result strings with page content
 * outside a `page` part.
 */
export interface ToolReply {
  isError: boolean;
  /** The error code of a failure reply (for the toolset's own bookkeeping; never shown). */
  code?: string;
  parts: ReplyPart[];
  images: ToolImage[];
  /** For the host only: the session now needs a human. */
  takeover?: TakeoverNotice;
}

/** A reply of our own text lines. */
export function textReply(lines: readonly string[], isError = false): ToolReply {
  return { isError, parts: lines.map((text) => ({ kind: "text", text })), images: [] };
}

/** How a call ended, as the first line of its result says. */
export type Outcome = "ok" | "failed" | "unknown";

/**
 * A reply whose first line states the outcome (`outcome: ok — click`),
 * followed by `more` lines of our own; an error reply unless `ok`.
 */
export function outcomeReply(outcome: Outcome, text: string, ...more: string[]): ToolReply {
  return textReply([`outcome: ${outcome} — ${text}`, ...more], outcome !== "ok");
}

/** Adds a line of our own text. */
export function addText(reply: ToolReply, text: string): ToolReply {
  reply.parts.push({ kind: "text", text });
  return reply;
}

/** Adds website content (fenced when rendered). Empty content is skipped. */
export function addPage(reply: ToolReply, text: string): ToolReply {
  if (text !== "") reply.parts.push({ kind: "page", text });
  return reply;
}

/** Bytes kept free for a truncation marker. */
const markerReserve = 64;

const marker = (shown: number, total: number) => `[truncated: ${shown} of ${total} bytes shown]`;

/**
 * Turns a reply into the model's {@link ToolResult}: every part redacted,
 * website content fenced with a fresh nonce, and the whole text within
 * `maxBytes`. Website content is cut first, inside its fence (which always
 * closes), and marked `[truncated: N of M bytes shown]`; our own text keeps at
 * least half of the budget and is cut (and marked) only beyond that.
 */
export function renderReply(reply: ToolReply, options: { maxBytes: number; redactor: Redactor }): ToolResult {
  const parts = reply.parts.map((part) => ({ ...part, text: options.redactor.apply(part.text) }));
  const nonce = nonceFor(parts.filter((part) => part.kind === "page").map((part) => part.text));
  const pages = parts.filter((part) => part.kind === "page").length;
  const fixed = Math.max(0, parts.length - 1) + pages * fenceOverheadBytes(nonce);
  const ownTotal = parts.reduce((sum, part) => sum + (part.kind === "text" ? utf8Length(part.text) : 0), 0);
  const pageTotal = parts.reduce((sum, part) => sum + (part.kind === "page" ? utf8Length(part.text) : 0), 0);
  const fits = fixed + ownTotal + pageTotal <= options.maxBytes;
  let ownBudget = fits ? ownTotal : Math.min(ownTotal, Math.max(0, Math.floor(options.maxBytes / 2) - markerReserve));
  const ownCut = ownBudget < ownTotal;
  let pageBudget = fits ? pageTotal : Math.max(0, options.maxBytes - fixed - ownBudget - markerReserve * (pages + (ownCut ? 1 : 0)));
  let ownMarked = false;
  const rendered = parts.flatMap((part) => {
    const size = utf8Length(part.text);
    if (part.kind === "text") {
      if (size <= ownBudget) {
        ownBudget -= size;
        return [part.text];
      }
      // The first part that does not fit is cut and marked; later ones are left out.
      if (ownMarked) return [];
      ownMarked = true;
      const shown = cutUtf8(part.text, ownBudget);
      ownBudget = 0;
      return [`${shown}\n${marker(utf8Length(shown), size)}`];
    }
    if (size <= pageBudget) {
      pageBudget -= size;
      return [fence(part.text, nonce)];
    }
    const cut = cutUtf8(part.text, pageBudget);
    pageBudget -= utf8Length(cut);
    return [`${fence(cut, nonce)}\n${marker(utf8Length(cut), size)}`];
  });
  return { text: rendered.join("\n"), images: reply.images, ...(reply.isError ? { isError: true } : {}), ...(reply.takeover ? { takeover: reply.takeover } : {}) };
}
