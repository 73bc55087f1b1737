/**
 * First pass of the agent form: walks Playwright's ARIA JSON and produces a
 * flat list of items (sections, elements, headings, text) with their output
 * nesting level. Decorative containers are flattened here; nothing is dropped
 * for size yet (that is the second pass, in agent-form.ts).
 *
 * Pure: no Node builtins, no playwright-core at runtime.
 */
import type { AriaChild, AriaNode } from "./aria-json.js";
import { clipText, collapseText } from "./snapshot-text.js";

/** Roles a model acts on; a node with one of these roles and a ref is always printed with its ref. */
const interactiveRoles = new Set([
  "button",
  "checkbox",
  "combobox",
  "gridcell",
  "link",
  "listbox",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "option",
  "radio",
  "scrollbar",
  "searchbox",
  "slider",
  "spinbutton",
  "switch",
  "tab",
  "textbox",
  "treeitem",
]);

/** Roles whose `text` is the control's current value, not its label. */
const valueRoles = new Set(["textbox", "searchbox", "combobox", "spinbutton", "slider", "scrollbar"]);

/** Containers kept as indented sections: landmarks, dialogs, frames and widget groups. */
const sectionRoles = new Set([
  "alert",
  "alertdialog",
  "banner",
  "complementary",
  "contentinfo",
  "dialog",
  "form",
  "grid",
  "iframe",
  "main",
  "menu",
  "menubar",
  "navigation",
  "radiogroup",
  "search",
  "status",
  "tablist",
  "toolbar",
  "tree",
  "treegrid",
]);

/** Sections that only count as sections when they have a name (otherwise flattened). */
const namedOnlySectionRoles = new Set(["group", "region", "tabpanel"]);

/** Sections whose text has its own budget (messages the model must not miss). */
const messageRoles = new Set(["alert", "alertdialog", "status"]);

/** Sections whose text gets the first claim on the prose budget (where the task usually is). */
const focusRoles = new Set(["main", "form", "dialog", "alertdialog", "search"]);

/** Longest accessible name, label or heading printed, in UTF-16 units. */
export const nameLength = 80;
/** Longest text run printed. */
export const textLength = 80;
const valueLength = 60;
const placeholderLength = 40;
const urlLength = 48;
const sectionNameLength = 60;
/** Options of a native select listed by name; the rest are counted. */
export const listedOptions = 8;

/** A container printed as `role "name":` with its content one level deeper. */
export interface SectionItem {
  kind: "section";
  level: number;
  role: string;
  name: string;
}

/** An interactive element, printed with its ref. */
export interface ElementItem {
  kind: "element";
  level: number;
  node: AriaNode;
  ref: string;
  label: string;
  value?: string;
  placeholder?: string;
  url?: string;
  /** Set when the element is the whole content of a heading. */
  headingLevel?: number;
  /** Names of ref-less options (native select), with the selected ones. */
  options?: { names: string[]; total: number };
  /** The element has printed children one level deeper. */
  opens: boolean;
}

/** A heading, printed as `h2 "text"`. */
export interface HeadingItem {
  kind: "heading";
  level: number;
  headingLevel: number;
  text: string;
}

/** A run of static text (or an image's name). */
export interface TextItem {
  kind: "text";
  level: number;
  text: string;
  image: boolean;
  /** Inside an alert or status message. */
  message: boolean;
  /** Inside main content, a form or a dialog. */
  focus: boolean;
}

/** One entry of the flat item list. */
export type AgentItem = SectionItem | ElementItem | HeadingItem | TextItem;

interface WalkContext {
  items: AgentItem[];
  /** Inside an alert or status message. */
  message: boolean;
  /** Inside main content, a form or a dialog. */
  focus: boolean;
  /** Text already shown by an enclosing line (a heading's own text) is not repeated. */
  quiet: boolean;
}

/**
 * Flattens ARIA nodes into agent-form items in document order.
 *
 * @example
 * const items = collectAgentItems(readAriaNodes(json));
 */
export function collectAgentItems(nodes: readonly AriaNode[]): AgentItem[] {
  const context: WalkContext = { items: [], message: false, focus: false, quiet: false };
  walkChildren(nodes, 0, context);
  return context.items;
}

/**
 * Whether the node is printed as an element with its ref: an interactive role,
 * a pointer cursor, or a named generic (a `<summary>`, or a `<div>` someone
 * gave an `aria-label` — generics are not otherwise named).
 */
export function isInteractive(node: AriaNode): node is AriaNode & { ref: string } {
  if (node.ref === undefined) return false;
  return interactiveRoles.has(node.role) || node.cursor === "pointer" || (node.role === "generic" && !!node.name);
}

function walkChildren(children: readonly AriaChild[], level: number, context: WalkContext): void {
  for (const child of children) {
    if (typeof child === "string") addText(child, level, false, context);
    else walkNode(child, level, context);
  }
}

function walkNode(node: AriaNode, level: number, context: WalkContext): void {
  if (isInteractive(node)) return addElement(node, level, context);
  if (node.role === "heading") return addHeading(node, level, context);
  const name = collapseText(node.name ?? "");
  if (sectionRoles.has(node.role) || (namedOnlySectionRoles.has(node.role) && name !== "")) {
    context.items.push({ kind: "section", level, role: node.role, name: clipText(name, sectionNameLength) });
    const inner = {
      ...context,
      message: context.message || messageRoles.has(node.role),
      focus: context.focus || focusRoles.has(node.role),
    };
    if (node.text !== undefined) addText(node.text, level + 1, false, inner);
    walkChildren(node.children ?? [], level + 1, inner);
    return;
  }
  if (node.role === "img") {
    if (name) addText(name, level, true, context);
    walkChildren(node.children ?? [], level, context);
    return;
  }
  // Decorative or structural container (generic, paragraph, list, table, cell…): lift its content.
  if (node.text !== undefined) addText(node.text, level, false, context);
  else if (name && !node.children?.length) addText(name, level, false, context);
  walkChildren(node.children ?? [], level, context);
}

function addText(raw: string, level: number, image: boolean, context: WalkContext): void {
  if (context.quiet) return;
  const text = collapseText(raw);
  if (!text) return;
  context.items.push({ kind: "text", level, text, image, message: context.message, focus: context.focus });
}

function addHeading(node: AriaNode, level: number, context: WalkContext): void {
  const text = clipText(collapseText(node.name ?? "") || contentText(node), nameLength);
  const headingLevel = node.level ?? 2;
  const interactive = interactiveDescendants(node);
  const only = interactive[0];
  if (interactive.length === 1 && only && (text === "" || text === elementLabel(only))) {
    const start = context.items.length;
    addElement(only, level, context);
    const element = context.items[start];
    if (element?.kind === "element") element.headingLevel = headingLevel;
    return;
  }
  if (text && !context.quiet) context.items.push({ kind: "heading", level, headingLevel, text });
  if (interactive.length) walkChildren(node.children ?? [], level, { ...context, quiet: true });
}

function addElement(node: AriaNode & { ref: string }, level: number, context: WalkContext): void {
  const children = node.children ?? [];
  const selectLike = node.role === "combobox" || node.role === "listbox";
  // A native select's options have no refs: they are listed by name. Options with refs are elements of their own.
  const summary = selectLike && !collectOptions(node, false).length ? collectOptions(node, true) : [];
  const opens = hasInteractiveDescendant(children);
  const item: ElementItem = { kind: "element", level, node, ref: node.ref, label: elementLabel(node), opens };
  if (valueRoles.has(node.role) && node.text !== undefined) {
    const value = collapseText(node.text);
    if (value) item.value = clipText(value, valueLength);
  }
  if (summary.length) {
    const selected = summary.filter((option) => option.selected).map((option) => option.name);
    if (selected.length && item.value === undefined) item.value = clipText(selected.join(", "), valueLength);
    item.options = { names: summary.slice(0, listedOptions).map((option) => option.name), total: summary.length };
  }
  if (node.placeholder) item.placeholder = clipText(collapseText(node.placeholder), placeholderLength);
  // An unnamed link's URL is its only hint, except for in-page anchors and script URLs.
  if (!item.label && !item.placeholder && !opens && node.url && !/^\s*(?:#|javascript:)/i.test(node.url)) {
    item.url = clipText(collapseText(node.url), urlLength);
  }
  context.items.push(item);
  if (opens) walkChildren(children, level + 1, { ...context, quiet: context.quiet || item.label !== "" });
}

/** The label printed for an element: its accessible name, or (when Playwright left it out) its content text. */
function elementLabel(node: AriaNode): string {
  const name = collapseText(node.name ?? "");
  if (name) return clipText(name, nameLength);
  if (valueRoles.has(node.role)) return "";
  return clipText(undoubled(contentText(node)), textLength);
}

/** `"Argentina Argentina"` (an image's name next to the same caption) becomes `"Argentina"`. */
function undoubled(text: string): string {
  const half = (text.length - 1) / 2;
  if (Number.isInteger(half) && half > 0 && text[half] === " " && text.slice(0, half) === text.slice(half + 1)) {
    return text.slice(0, half);
  }
  return text;
}

/** Text of a subtree, interactive descendants excluded, whitespace collapsed. */
function contentText(node: AriaNode): string {
  const parts: string[] = [];
  let length = 0;
  const visit = (current: AriaNode, isRoot: boolean) => {
    if (length > nameLength * 2) return;
    if (!isRoot && isInteractive(current)) return;
    const own = current.text ?? (isRoot ? "" : current.children?.length ? "" : (current.name ?? ""));
    if (own) {
      parts.push(own);
      length += own.length;
    }
    for (const child of current.children ?? []) {
      if (typeof child === "string") {
        parts.push(child);
        length += child.length;
      } else {
        visit(child, false);
      }
    }
  };
  visit(node, true);
  return collapseText(parts.join(" "));
}

function interactiveDescendants(node: AriaNode): Array<AriaNode & { ref: string }> {
  const found: Array<AriaNode & { ref: string }> = [];
  const visit = (children: readonly AriaChild[]) => {
    for (const child of children) {
      if (typeof child === "string") continue;
      if (isInteractive(child)) found.push(child);
      else visit(child.children ?? []);
    }
  };
  visit(node.children ?? []);
  return found;
}

function hasInteractiveDescendant(children: readonly AriaChild[]): boolean {
  for (const child of children) {
    if (typeof child === "string") continue;
    if (isInteractive(child) || hasInteractiveDescendant(child.children ?? [])) return true;
  }
  return false;
}

/** Option descendants of a select-like element: ref-less ones (`refless`) or ones with refs. */
function collectOptions(node: AriaNode, refless: boolean): Array<{ name: string; selected: boolean }> {
  const options: Array<{ name: string; selected: boolean }> = [];
  const visit = (children: readonly AriaChild[]) => {
    for (const child of children) {
      if (typeof child === "string") continue;
      if (child.role === "option" && (child.ref === undefined) === refless) {
        const name = clipText(collapseText(child.name ?? child.text ?? ""), placeholderLength);
        options.push({ name, selected: child.selected === true });
      } else {
        visit(child.children ?? []);
      }
    }
  };
  visit(node.children ?? []);
  return options;
}
