/**
 * The full form of an accessibility snapshot: Playwright's own AI snapshot
 * (YAML), rendered from `ariaSnapshotJSON({ mode: "ai" })` so that refs are
 * renamed structurally. Renaming refs in the text instead would also rename
 * `[ref=…]` look-alikes inside page text, letting a page forge refs.
 *
 * With an identity `mapRef` the output equals `page.ariaSnapshot({ mode: "ai" })`
 * for the same tree (a port of Playwright 1.65's `renderAriaSnapshotAsYaml`).
 *
 * Pure: no Node builtins, no playwright-core at runtime.
 */
import { readAriaNodes, type AriaNode } from "./aria-json.js";
import { assembleLines, type SnapshotLine } from "./snapshot-text.js";
import type { AgentFormResult } from "./agent-form.js";

/** How to render the full form. */
export interface FullFormOptions {
  /** Largest output in UTF-8 bytes; cut at a line boundary and marked. */
  maxBytes: number;
  /** Renames a Playwright ref; called once per printed ref, only for printed refs. */
  mapRef: (playwrightRef: string) => string;
}

/**
 * Renders Playwright's AI snapshot YAML from its JSON form with refs renamed.
 * Limit the depth when taking the JSON (`ariaSnapshotJSON({ mode: "ai", depth })`).
 *
 * @example
 * const json = await page.ariaSnapshotJSON({ mode: "ai", depth: 20 });
 * const { snapshot } = renderFullForm(json, { maxBytes: 1024 * 1024, mapRef: (ref) => ref });
 */
export function renderFullForm(nodes: unknown, options: FullFormOptions): AgentFormResult {
  const lines: SnapshotLine[] = [];
  for (const node of readAriaNodes(nodes)) visit(node, 0, lines);
  return assembleLines(lines, options.maxBytes, options.mapRef, (omittedLines) =>
    `# truncated at maxBytes=${options.maxBytes}: ${omittedLines} more lines not shown (lower depth or use the agent form)`,
  );
}

function visit(node: AriaNode, depth: number, lines: SnapshotLine[]): void {
  if (node.role === "text") {
    pushText(node.text ?? "", depth, lines);
    return;
  }
  const key = createKey(node);
  const indent = "  ".repeat(depth) + "- ";
  const props: Array<[string, string]> = [];
  if (node.url !== undefined) props.push(["url", node.url]);
  if (node.placeholder !== undefined) props.push(["placeholder", node.placeholder]);
  const children = node.children ?? [];
  let suffix = ":";
  if (node.text === undefined && !props.length && !children.length) suffix = "";
  else if (node.text !== undefined && !props.length) suffix = `: ${yamlEscapeValueIfNeeded(node.text)}`;
  lines.push(keyLine(indent, key, suffix));
  if (suffix === "" || (node.text !== undefined && !props.length)) return;
  for (const [name, value] of props) lines.push({ head: `${"  ".repeat(depth + 1)}- /${name}: ${yamlEscapeValueIfNeeded(value)}`, tail: "" });
  if (node.text !== undefined) {
    pushText(node.text, depth + 1, lines);
    return;
  }
  for (const child of children) {
    if (typeof child === "string") pushText(child, depth + 1, lines);
    else visit(child, depth + 1, lines);
  }
}

function pushText(text: string, depth: number, lines: SnapshotLine[]): void {
  const escaped = yamlEscapeValueIfNeeded(text);
  if (escaped) lines.push({ head: `${"  ".repeat(depth)}- text: ${escaped}`, tail: "" });
}

/** The key with the ref split out, so the ref can be renamed when the line is assembled. */
interface Key {
  beforeRef: string;
  ref?: string;
  afterRef: string;
}

function createKey(node: AriaNode): Key {
  let key = node.role;
  if (node.name && node.name.length <= 900) key += ` ${JSON.stringify(node.name)}`;
  if (node.checked === "mixed") key += " [checked=mixed]";
  if (node.checked === true) key += " [checked]";
  if (node.disabled) key += " [disabled]";
  if (node.expanded) key += " [expanded]";
  if (node.active) key += " [active]";
  if (node.invalid === "grammar" || node.invalid === "spelling") key += ` [invalid=${node.invalid}]`;
  if (node.invalid === true) key += " [invalid]";
  if (node.level) key += ` [level=${node.level}]`;
  if (node.pressed === "mixed") key += " [pressed=mixed]";
  if (node.pressed === true) key += " [pressed]";
  if (node.selected === true) key += " [selected]";
  if (node.ariaHidden) key += " [aria-hidden]";
  let afterRef = "";
  if (node.ref !== undefined) {
    key += " [ref=";
    afterRef = "]";
    if (node.cursor === "pointer") afterRef += " [cursor=pointer]";
  }
  if (node.box) afterRef += ` [box=${node.box.x},${node.box.y},${node.box.width},${node.box.height}]`;
  return node.ref === undefined ? { beforeRef: key + afterRef, afterRef: "" } : { beforeRef: key, ref: node.ref, afterRef };
}

/** Quotes the whole key when YAML needs it; the decision is taken with the original ref in place. */
function keyLine(indent: string, key: Key, suffix: string): SnapshotLine {
  const whole = key.beforeRef + (key.ref ?? "") + key.afterRef;
  if (!yamlStringNeedsQuotes(whole)) return { head: indent + key.beforeRef, ref: key.ref, tail: key.afterRef + suffix };
  const quote = (text: string) => text.replace(/'/g, "''");
  return { head: `${indent}'${quote(key.beforeRef)}`, ref: key.ref, tail: `${quote(key.afterRef)}'${suffix}` };
}

function yamlEscapeValueIfNeeded(text: string): string {
  if (!yamlStringNeedsQuotes(text)) return text;
  const escaped = text.replace(/[\\"\x00-\x1f\x7f-\x9f]/g, (character) => {
    switch (character) {
      case "\\":
        return "\\\\";
      case '"':
        return '\\"';
      case "\b":
        return "\\b";
      case "\f":
        return "\\f";
      case "\n":
        return "\\n";
      case "\r":
        return "\\r";
      case "\t":
        return "\\t";
      default:
        return `\\x${character.charCodeAt(0).toString(16).padStart(2, "0")}`;
    }
  });
  return `"${escaped}"`;
}

const yamlWords = new Set(["y", "n", "yes", "no", "true", "false", "on", "off", "null", "~"]);

function yamlStringNeedsQuotes(text: string): boolean {
  if (text.length === 0) return true;
  if (/^\s|\s$/.test(text)) return true;
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/.test(text)) return true;
  if (/^-/.test(text)) return true;
  if (/[\n:](\s|$)/.test(text)) return true;
  if (/\s#/.test(text)) return true;
  if (/[\n\r]/.test(text)) return true;
  if (/^[&*\],?!>|@"'#%]/.test(text)) return true;
  if (/[{}`]/.test(text)) return true;
  if (/^\[/.test(text)) return true;
  if (!Number.isNaN(Number(text)) || yamlWords.has(text.toLowerCase())) return true;
  if (/^[-+]?\.(inf|nan)$/i.test(text)) return true;
  return false;
}
