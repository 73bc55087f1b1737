/**
 * The JSON shape of Playwright's `ariaSnapshotJSON({ mode: "ai" })`, and a
 * defensive reader that turns an unknown value into that shape.
 *
 * Pure: no Node builtins, no playwright-core at runtime.
 */

/** A bounding box in viewport CSS pixels, as Playwright reports it. */
export interface AriaBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One element node of an ARIA snapshot (a child may also be a plain string: static text). */
export interface AriaNode {
  role: string;
  name?: string;
  /** Text content when it is the only child (for inputs: the value). */
  text?: string;
  ref?: string;
  cursor?: string;
  url?: string;
  placeholder?: string;
  box?: AriaBox;
  checked?: boolean | "mixed";
  disabled?: boolean;
  expanded?: boolean;
  active?: boolean;
  invalid?: boolean | string;
  level?: number;
  pressed?: boolean | "mixed";
  selected?: boolean;
  ariaHidden?: boolean;
  children?: AriaChild[];
}

/** A child of an ARIA node: another node, or a run of static text. */
export type AriaChild = AriaNode | string;

/** Nesting beyond this is ignored, so a hostile page cannot exhaust the stack. */
const MAX_READ_DEPTH = 1000;

/**
 * Reads the value returned by `ariaSnapshotJSON` into typed nodes, dropping
 * anything that does not have the expected shape. Accepts a list of nodes or a
 * single node.
 *
 * @example
 * const nodes = readAriaNodes(await page.ariaSnapshotJSON({ mode: "ai" }));
 */
export function readAriaNodes(value: unknown): AriaNode[] {
  const list = Array.isArray(value) ? value : [value];
  const nodes: AriaNode[] = [];
  for (const item of list) {
    if (typeof item === "string") {
      nodes.push({ role: "text", text: item });
      continue;
    }
    const node = readNode(item, 0);
    if (node) nodes.push(node);
  }
  return nodes;
}

function readNode(value: unknown, depth: number): AriaNode | undefined {
  if (!isRecord(value) || typeof value.role !== "string") return undefined;
  const node: AriaNode = { role: value.role };
  copyString(value, node, "name");
  copyString(value, node, "text");
  copyString(value, node, "ref");
  copyString(value, node, "cursor");
  copyString(value, node, "url");
  copyString(value, node, "placeholder");
  if (value.checked === true || value.checked === "mixed") node.checked = value.checked;
  if (value.pressed === true || value.pressed === "mixed") node.pressed = value.pressed;
  if (value.disabled === true) node.disabled = true;
  if (value.expanded === true) node.expanded = true;
  if (value.active === true) node.active = true;
  if (value.selected === true) node.selected = true;
  if (value.ariaHidden === true) node.ariaHidden = true;
  if (value.invalid === true || typeof value.invalid === "string") node.invalid = value.invalid;
  if (typeof value.level === "number" && Number.isFinite(value.level)) node.level = value.level;
  const box = readBox(value.box);
  if (box) node.box = box;
  if (Array.isArray(value.children) && depth < MAX_READ_DEPTH) {
    const children: AriaChild[] = [];
    for (const child of value.children) {
      if (typeof child === "string") {
        children.push(child);
        continue;
      }
      const childNode = readNode(child, depth + 1);
      if (childNode) children.push(childNode);
    }
    node.children = children;
  }
  return node;
}

function readBox(value: unknown): AriaBox | undefined {
  if (!isRecord(value)) return undefined;
  const { x, y, width, height } = value;
  if (![x, y, width, height].every((part) => typeof part === "number" && Number.isFinite(part))) return undefined;
  return { x: x as number, y: y as number, width: width as number, height: height as number };
}

function copyString(
  source: Record<string, unknown>,
  target: AriaNode,
  key: "name" | "text" | "ref" | "cursor" | "url" | "placeholder",
): void {
  const value = source[key];
  if (typeof value === "string") target[key] = value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
