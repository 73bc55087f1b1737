import { readAriaNodes, type AriaChild, type AriaNode } from "./aria-json.js";

/** What a hidden value reads as. */
export const hiddenValue = "(hidden)";

/**
 * A copy of an ARIA JSON tree in which the nodes with the given refs show
 * `(hidden)` instead of their value. Playwright's AI snapshot prints the value
 * of every text field, password fields included; the engine passes the refs of
 * password inputs here before rendering either form.
 */
export function hideValues(nodes: unknown, refs: ReadonlySet<string>): AriaNode[] {
  const visit = (child: AriaChild): AriaChild => {
    if (typeof child === "string") return child;
    if (child.ref !== undefined && refs.has(child.ref)) {
      const { children: _children, ...rest } = child;
      return { ...rest, text: hiddenValue };
    }
    return child.children ? { ...child, children: child.children.map(visit) } : child;
  };
  return readAriaNodes(nodes).map((node) => visit(node) as AriaNode);
}

/** Text fields that show a value (the only nodes that can leak one): ref → the value shown. */
export function fieldsWithValues(nodes: unknown): Map<string, string> {
  const fields = new Map<string, string>();
  const visit = (child: AriaChild) => {
    if (typeof child === "string") return;
    if ((child.role === "textbox" || child.role === "searchbox") && child.ref !== undefined && child.text !== undefined) fields.set(child.ref, child.text);
    child.children?.forEach(visit);
  };
  readAriaNodes(nodes).forEach(visit);
  return fields;
}
