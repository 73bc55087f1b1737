/**
 * The agent form of an accessibility snapshot: every interactive element with
 * its ref, plus the headings, labels and short text a model needs to use them,
 * in a compact line format. Built from Playwright's
 * `ariaSnapshotJSON({ mode: "ai" })`.
 *
 * Format, one item per line, one space of indent per enclosing section:
 * ```text
 * main:
 *  h1 "Sign in"
 *  textbox "Email" placeholder="you@example.com" [e4]
 *  checkbox "Remember me" [checked] [e5]
 *  combobox "Country" value="France" [e6]
 *   options: "Austria", "Belgium", "France", … 190 more
 *  button "Sign in" [e7]
 *  "By signing in you accept the terms"
 *  links: "Terms" [e8], "Privacy" [e9], "Help" [e10]
 * … 12 more text lines not shown
 * ```
 * - `role "label" [flags] key="value"… [R]` is an element with its ref R
 *   (`e12`, or `f1e3` inside a frame; with `boxes`, followed by
 *   `[box=x,y,width,height]`); `[R]` is the only ref marker (Playwright's
 *   `[ref=R]` minus `ref=`: refs are a quarter of the bytes) and a real one
 *   never appears inside a quoted string, because every page-controlled
 *   string is JSON-quoted. Flags: `[checked]`,
 *   `[checked=mixed]`, `[pressed]`, `[selected]`, `[expanded]`, `[disabled]`,
 *   `[invalid]`, `[focused]`; keys: `value`, `placeholder`, `url` (unnamed
 *   links only).
 * - `role "name":` opens a section (landmark, form, dialog, iframe, menu…);
 *   an element ending in `:` has interactive children one level deeper. At
 *   the depth limit the line ends with `… N more lines deeper` instead.
 * - `h1`…`h6 "text"` is a heading; a heading made of one link or button is
 *   printed as `h2 link "text" [R]`.
 * - `links: "Home" [R1], "Blog" [R2], …` lists three or more plain
 *   links in a row (named, no state), up to ten a line: the same as a
 *   `link "Home" [R1]` line each, in fewer bytes.
 * - A bare `"text"` line is static text; `img "name"` an image's name.
 * - Lines starting with `…` are notes from the renderer, not page content.
 *
 * Pure: no Node builtins, no playwright-core at runtime.
 */
import { readAriaNodes } from "./aria-json.js";
import { collectAgentItems, nameLength, textLength, type AgentItem, type ElementItem } from "./agent-form-items.js";
import { assembleLines, clipText, quoteText, utf8Length, type SnapshotLine } from "./snapshot-text.js";

/** How to render the agent form. */
export interface AgentFormOptions {
  /** Keep only interactive elements and the sections around them (no headings, no text). */
  interactiveOnly: boolean;
  /** Deepest section nesting printed (0–20); deeper lines are counted on their section's line. */
  depth: number;
  /** Largest output in UTF-8 bytes; the output is cut at a line boundary and marked. */
  maxBytes: number;
  /** Append `[box=x,y,width,height]` to elements (needs `ariaSnapshotJSON({ boxes: true })`). */
  boxes: boolean;
  /** Renames a Playwright ref for output; called once per printed ref, in output order, and only for printed refs. */
  mapRef: (playwrightRef: string) => string;
}

/** The rendered agent form. */
export interface AgentFormResult {
  snapshot: string;
  /** The output was cut at `maxBytes`. */
  truncated: boolean;
  /** UTF-8 length of `snapshot`. */
  bytes: number;
  /** How many refs were printed. */
  refs: number;
}

/** Bytes of static text kept per snapshot (labels of unnamed fields always kept; headings and alerts first use their own budgets). */
export const proseBudgetBytes = 1024;
/** Bytes of headings kept before further headings count as ordinary text. */
export const headingBudgetBytes = 512;
/** Bytes of alert and status text kept before further messages count as ordinary text. */
export const messageBudgetBytes = 1024;
const maxDepth = 20;
/** Text lines closer than this to an element are compared with its label to drop repeats. */
const repeatWindow = 3;

/**
 * Renders the agent form of a snapshot. Every interactive element that has a
 * Playwright ref is printed with its ref (mapped through `mapRef`) unless the
 * output is cut by `maxBytes` or `depth`.
 *
 * @example
 * const json = await page.ariaSnapshotJSON({ mode: "ai" });
 * const { snapshot } = renderAgentForm(json, {
 *   interactiveOnly: false, depth: 20, maxBytes: 256 * 1024, boxes: false, mapRef: (ref) => ref,
 * });
 */
export function renderAgentForm(nodes: unknown, options: AgentFormOptions): AgentFormResult {
  const { items, keep, omittedText } = selectItems(collectAgentItems(readAriaNodes(nodes)), options);
  const depth = Math.max(0, Math.min(maxDepth, Math.floor(options.depth)));
  const lines: SnapshotLine[] = [];
  // Plain links in a row at one level, waiting to be printed on shared `links:` lines.
  let run: ElementItem[] = [];
  const flush = () => {
    lines.push(...renderLinkRun(run, options));
    run = [];
  };
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as AgentItem;
    if (!keep[index] || item.level > depth) continue;
    if (isPlainLink(item, options)) {
      if (run.length && run[0]!.level !== item.level) flush();
      run.push(item as ElementItem);
      continue;
    }
    flush();
    const inside = item.kind === "section" || (item.kind === "element" && item.opens) ? keptInside(items, keep, index) : 0;
    const deeper = item.level === depth && inside ? ` … ${inside} more lines deeper` : "";
    lines.push(...renderItem(item, options, inside > 0, deeper));
  }
  flush();
  if (omittedText) lines.push({ head: `… ${omittedText} more text lines not shown`, tail: "" });
  return assembleLines(lines, options.maxBytes, options.mapRef, (omittedLines) =>
    `… truncated at maxBytes=${options.maxBytes}: ${omittedLines} more lines not shown (raise maxBytes or use interactiveOnly)`,
  );
}

interface Selection {
  items: AgentItem[];
  keep: boolean[];
  /** Text lines left out for the prose budget. */
  omittedText: number;
}

/**
 * Decides which items survive: drops repeated and punctuation-only text,
 * merges text fragments, applies the prose budget and drops empty sections.
 */
function selectItems(collected: readonly AgentItem[], options: AgentFormOptions): Selection {
  const items = mergeText(dropRepeats(collected, options.interactiveOnly));
  const keep = items.map(() => true);
  // The text right before an unnamed element (or right after an unnamed checkbox) is its only label: always kept.
  const label = items.map(() => false);
  items.forEach((item, index) => {
    if (item.kind !== "element" || item.label || item.placeholder) return;
    if (items[index - 1]?.kind === "text") label[index - 1] = true;
    if (items[index + 1]?.kind === "text" && labelledAfter.has(item.node.role)) label[index + 1] = true;
  });
  // Headings and alert messages have budgets of their own; what does not fit competes as prose.
  const headings = new Budget(headingBudgetBytes);
  const messages = new Budget(messageBudgetBytes);
  const prose: number[] = [];
  items.forEach((item, index) => {
    if (item.kind === "heading" && !headings.take(item.text)) prose.push(index);
    if (item.kind !== "text" || label[index]) return;
    if (!item.message || !messages.take(item.text)) prose.push(index);
  });
  // Text in main content, forms and dialogs claims the prose budget first, then other text, then
  // image names, each in document order.
  const rank = (index: number) => {
    const item = items[index];
    if (item?.kind !== "text") return 1;
    return item.image ? 2 : item.focus ? 0 : 1;
  };
  const ordered = [0, 1, 2].flatMap((wanted) => prose.filter((index) => rank(index) === wanted));
  const budget = new Budget(proseBudgetBytes);
  let omittedText = 0;
  for (const index of ordered) {
    if (budget.take((items[index] as AgentItem & { text: string }).text)) continue;
    keep[index] = false;
    omittedText += 1;
  }
  for (let index = items.length - 1; index >= 0; index--) {
    if (items[index]?.kind === "section" && !keptInside(items, keep, index)) keep[index] = false;
  }
  return { items, keep, omittedText };
}

/** A byte budget for lines of text (each line costs its text plus quotes, indent and newline). */
class Budget {
  private used = 0;
  constructor(private readonly limit: number) {}

  /** Takes room for `text` if it fits. */
  take(text: string): boolean {
    const bytes = utf8Length(text) + 4;
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }
}

/** Checkable roles whose label text usually follows them. */
const labelledAfter = new Set(["checkbox", "radio", "switch"]);

/**
 * Drops text without letters or digits, copyright notices, text that repeats
 * a nearby element's label or placeholder, any earlier text or any heading, and
 * headings that repeat an earlier heading (all compared loosely). Text that
 * is the only label of an unnamed field is kept even when repeated.
 */
function dropRepeats(items: readonly AgentItem[], interactiveOnly: boolean): AgentItem[] {
  const seenText = new Set<string>();
  const seenHeadings = new Set<string>();
  // Text that a heading of the page says as well (a title printed above its h1) is left to the heading.
  const headingKeys = new Set(items.flatMap((item) => (item.kind === "heading" ? [looseText(item.text)] : [])));
  return items.filter((item, index) => {
    if (item.kind !== "text" && item.kind !== "heading") return true;
    if (interactiveOnly) return false;
    const key = looseText(item.text);
    if (!key) return false;
    if (item.kind === "heading") {
      if (seenHeadings.has(key)) return false;
      seenHeadings.add(key);
      return true;
    }
    if (isUnnamedFieldLabel(items, index)) {
      seenText.add(key);
      return true;
    }
    const clipped = looseText(clipText(item.text, nameLength));
    if (copyrightNotice.test(item.text) || seenText.has(key) || headingKeys.has(clipped) || repeatsNearbyLabel(items, index, clipped)) {
      return false;
    }
    seenText.add(key);
    return true;
  });
}

/** `© 2019 Acme`, `Copyright © Acme`, `(c) 2019 Acme`, `Copyright 2019 Acme`, `… All rights reserved.`: boilerplate, not page content. */
const copyrightNotice = /^(?:©|\(c\)\s*\d{4}|copyright\s*(?:©|\(c\)|\d{4}))|all rights reserved\W*$/i;

/** Roles of form fields, whose nearby text may be their only label. */
const fieldRoles = new Set(["textbox", "searchbox", "combobox", "listbox", "spinbutton", "slider", "checkbox", "radio", "switch"]);

/** The text item at `index` is right before an unnamed field (or right after an unnamed checkbox): that field's only label. */
function isUnnamedFieldLabel(items: readonly AgentItem[], index: number): boolean {
  const unnamed = (item: AgentItem | undefined): item is ElementItem =>
    item?.kind === "element" && fieldRoles.has(item.node.role) && !item.label && !item.placeholder;
  const next = items[index + 1];
  const previous = items[index - 1];
  return unnamed(next) || (unnamed(previous) && labelledAfter.has(previous.node.role));
}

/** Joins consecutive text runs of one level (inline fragments) while they fit on one line, then clips each line. */
function mergeText(items: readonly AgentItem[]): AgentItem[] {
  const merged: AgentItem[] = [];
  for (const item of items) {
    const previous = merged[merged.length - 1];
    if (
      item.kind === "text" &&
      previous?.kind === "text" &&
      !item.image &&
      !previous.image &&
      previous.level === item.level &&
      previous.text.length + 1 + item.text.length <= textLength
    ) {
      merged[merged.length - 1] = {
        ...previous,
        text: `${previous.text} ${item.text}`,
        message: previous.message || item.message,
        focus: previous.focus || item.focus,
      };
      continue;
    }
    merged.push(item);
  }
  return merged.map((item) => (item.kind === "text" ? { ...item, text: clipText(item.text, textLength) } : item));
}

function repeatsNearbyLabel(items: readonly AgentItem[], index: number, key: string): boolean {
  const from = Math.max(0, index - repeatWindow);
  const to = Math.min(items.length - 1, index + repeatWindow);
  for (let other = from; other <= to; other++) {
    const item = items[other];
    if (item?.kind === "element" && (looseText(item.label) === key || (item.placeholder !== undefined && looseText(item.placeholder) === key))) return true;
  }
  return false;
}

/** Text compared loosely: lower case, letters and digits only (`"*E-mail:"` and `"e-mail"` are the same). */
function looseText(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/** Kept items nested inside the item at `index` (sections not counted). */
function keptInside(items: readonly AgentItem[], keep: readonly boolean[], index: number): number {
  const level = (items[index] as AgentItem).level;
  let count = 0;
  for (let other = index + 1; other < items.length; other++) {
    const item = items[other] as AgentItem;
    if (item.level <= level) break;
    if (keep[other] && item.kind !== "section") count += 1;
  }
  return count;
}

function renderItem(item: AgentItem, options: AgentFormOptions, opens: boolean, deeper: string): SnapshotLine[] {
  const indent = " ".repeat(item.level);
  switch (item.kind) {
    case "section":
      return [{ head: `${indent}${item.role}${item.name ? ` ${quoteText(item.name)}` : ""}:${deeper}`, tail: "" }];
    case "heading":
      return [{ head: `${indent}h${clampHeadingLevel(item.headingLevel)} ${quoteText(item.text)}`, tail: "" }];
    case "text":
      return [{ head: `${indent}${item.image ? "img " : ""}${quoteText(item.text)}`, tail: "" }];
    case "element":
      return renderElement(item, options, opens, deeper, indent);
  }
}

function renderElement(item: ElementItem, options: AgentFormOptions, opens: boolean, deeper: string, indent: string): SnapshotLine[] {
  const { node } = item;
  let head = indent;
  if (item.headingLevel !== undefined) head += `h${clampHeadingLevel(item.headingLevel)} `;
  head += node.role;
  if (item.label) head += ` ${quoteText(item.label)}`;
  if (node.checked === "mixed") head += " [checked=mixed]";
  else if (node.checked === true) head += " [checked]";
  if (node.pressed === "mixed") head += " [pressed=mixed]";
  else if (node.pressed === true) head += " [pressed]";
  if (node.selected) head += " [selected]";
  if (node.expanded) head += " [expanded]";
  if (node.disabled) head += " [disabled]";
  if (node.invalid) head += " [invalid]";
  if (node.active) head += " [focused]";
  if (item.value !== undefined) head += ` value=${quoteText(item.value)}`;
  if (item.placeholder) head += ` placeholder=${quoteText(item.placeholder)}`;
  if (item.url) head += ` url=${quoteText(item.url)}`;
  head += " [";
  let tail = "]";
  if (options.boxes && node.box) {
    const { x, y, width, height } = node.box;
    tail += ` [box=${Math.round(x)},${Math.round(y)},${Math.round(width)},${Math.round(height)}]`;
  }
  if (opens) tail += `:${deeper}`;
  const lines: SnapshotLine[] = [{ head, ref: item.ref, tail }];
  if (item.options && item.level + 1 <= Math.min(maxDepth, options.depth)) {
    const { names, total } = item.options;
    const more = total > names.length ? `, … ${total - names.length} more` : "";
    lines.push({ head: `${indent} options: ${names.map(quoteText).join(", ")}${more}`, tail: "" });
  }
  return lines;
}

/** Links in a row that share one `links:` line: at least this many, at most `linksPerLine` a line. */
const linkRunMin = 3;
const linksPerLine = 10;

/** A link with a name and nothing else to say (no state, no box, no children): it can share a `links:` line. */
function isPlainLink(item: AgentItem, options: AgentFormOptions): boolean {
  if (item.kind !== "element" || item.node.role !== "link" || options.boxes) return false;
  const { node } = item;
  const stateless = !node.checked && !node.pressed && !node.selected && !node.expanded && !node.disabled && !node.invalid && !node.active;
  return stateless && item.label !== "" && !item.opens && item.headingLevel === undefined && item.value === undefined && !item.placeholder && !item.url;
}

/** Links in a row: `links: "Home" [e1], "Blog" [e2], …` (fewer than {@link linkRunMin}: a line each). */
function renderLinkRun(run: readonly ElementItem[], options: AgentFormOptions): SnapshotLine[] {
  if (run.length < linkRunMin) return run.flatMap((item) => renderElement(item, options, false, "", " ".repeat(item.level)));
  const lines: SnapshotLine[] = [];
  for (let start = 0; start < run.length; start += linksPerLine) {
    const chunk = run.slice(start, start + linksPerLine);
    const [first, ...rest] = chunk.map((item, index) => ({ head: `${index ? ", " : ""}${quoteText(item.label)} [`, ref: item.ref, tail: "]" }));
    lines.push({ ...first!, head: `${" ".repeat(chunk[0]!.level)}links: ${first!.head}`, more: rest });
  }
  return lines;
}

function clampHeadingLevel(level: number): number {
  return Math.max(1, Math.min(6, Math.floor(level)));
}
