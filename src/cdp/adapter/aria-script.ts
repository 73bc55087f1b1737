/**
 * The CDP engine's ARIA snapshot, taken in ONE call in the engine's isolated
 * world: it walks the document from `<body>` (open shadow roots and slots,
 * one document: an iframe is a leaf here, filled in by aria-frames.ts), builds the tree Playwright's
 * `ariaSnapshotJSON({ mode: "ai" })` builds (generic containers kept, text
 * runs merged, redundant names dropped, single-child generics unwrapped, refs
 * on every visible element that receives pointer events, `cursor: pointer`
 * on the outermost clickable ones) and answers it in the same JSON shape
 * (src/protocol/aria/aria-json.ts), so the shared renderers print it alike.
 *
 * Refs: the world keeps ref → element for the latest snapshot only (a fresh
 * map each time, numbers never reused), read by the target script. Page
 * scripts cannot reach the world, so they can neither see the map nor forge
 * an entry. A password field's value never leaves the page: its text is
 * `request.hiddenText`, and its ref is listed in `passwords`.
 *
 * {@link snapshotAria} must be self-contained but for the helpers it is
 * handed; {@link ariaSnapshotExpression} composes the three sources.
 */
import { createAriaNames } from "./aria-names.js";
import { snapshotFrames } from "./aria-frames.js";
import { createAriaRoles, type AriaRoles } from "./aria-roles.js";

/** What the snapshot script is asked. */
export interface AriaSnapshotRequest {
  /** Add each element's box (viewport CSS pixels, rounded). */
  boxes: boolean;
  /** The text shown instead of a password field's value. */
  hiddenText: string;
  /** Cut the tree below this depth (the full form; the agent form limits depth itself). */
  depth?: number | undefined;
  /** What the refs of this frame start with: "" in the main frame, `f<n>` in an iframe (set by {@link snapshotFrames}). */
  refPrefix?: string;
  /** What this world's frame numbers start from: 0 in the page's top world, a cross-origin frame's own base in its world (so prefixes never meet). */
  frameBase?: number;
}

/** What it answers: the nodes (aria-json shape) and the refs of password fields that show a value. */
export interface AriaSnapshotAnswer {
  nodes: unknown[];
  passwords: string[];
  /** The iframes the nodes show, with their depth (for the depth left to their own snapshots); dropped by {@link snapshotFrames}. */
  frames?: Array<{ ref: string; depth: number }>;
  /** The cross-origin iframes shown (refs of this world), with the depth left to their own snapshots and the frame id the world remembers for each; their elements are kept as `__stationCrossFrames`. */
  cross?: Array<{ ref: string; depth?: number | undefined; frameId?: string }>;
}

/** Where the isolated world keeps the refs of its latest snapshot (read by the target script). */
export const ariaRefsKey = "__stationAriaRefs";

/** Runs in the page (isolated world). Self-contained but for `roles` and `names`. */
export function snapshotAria(request: AriaSnapshotRequest, roles: AriaRoles, names: ReturnType<typeof createAriaNames>): AriaSnapshotAnswer {
  type Box = { visible: boolean; inline: boolean; cursor?: string };
  interface Node {
    role: string;
    name: string;
    children: Array<Node | string>;
    props: Record<string, string>;
    box: Box;
    pointer: boolean;
    active: boolean;
    element: Element;
    ref?: string;
    checked?: boolean | "mixed";
    disabled?: boolean;
    expanded?: boolean;
    invalid?: boolean | string;
    level?: number;
    pressed?: boolean | "mixed";
    selected?: boolean;
  }
  const world = globalThis as unknown as Record<string, unknown>;
  const counterKey = "__stationAriaRefCount";
  const refs = new Map<string, Element>();
  const refOf = new Map<Element, string>();
  const contributors = new Map<string, string[]>();
  const passwords: string[] = [];
  const normalize = (text: string) => text.replace(/[\u200b\u00ad]/g, "").trim().replace(/\s+/g, " ");
  const { styleOf, box, hiddenForAria, textNotRendered, receivesPointerEvents, roleOf } = roles;
  const body = document.body ?? document.documentElement;

  const giveRef = (node: Node) => {
    if (!node.box.visible || !node.pointer) return;
    const number = ((world[counterKey] as number | undefined) ?? 0) + 1;
    world[counterKey] = number;
    node.ref = `${request.refPrefix ?? ""}e${number}`;
    refs.set(node.ref, node.element);
    refOf.set(node.element, node.ref);
  };
  const isActive = (element: Element) => element.ownerDocument.activeElement === element && element.ownerDocument.hasFocus();

  const toNode = (element: Element): { node: Node; sources: Set<Element> } | null => {
    if (element.nodeName === "IFRAME" || element.nodeName === "FRAME") {
      const node: Node = { role: "iframe", name: "", children: [], props: {}, box: box(element), pointer: true, active: isActive(element), element };
      giveRef(node);
      return { node, sources: new Set() };
    }
    const role = roleOf(element) ?? "generic";
    if (role === "presentation" || role === "none") return null;
    const name = names.nameOf(element);
    const elementBox = box(element);
    if (role === "generic" && elementBox.inline && element.childNodes.length === 1 && element.childNodes[0]!.nodeType === 3) return null;
    const node: Node = { role, name: normalize(name.text), children: [], props: {}, box: elementBox, pointer: receivesPointerEvents(element), active: isActive(element), element };
    giveRef(node);
    if (["checkbox", "menuitemcheckbox", "option", "radio", "switch", "menuitemradio", "treeitem"].includes(role)) node.checked = roles.checked(element);
    if ("application button composite gridcell group input link menuitem scrollbar separator tab checkbox columnheader combobox grid listbox menu menubar menuitemcheckbox menuitemradio option radio radiogroup row rowheader searchbox select slider spinbutton switch tablist textbox toolbar tree treegrid treeitem".split(" ").includes(role)) {
      node.disabled = roles.disabled(element);
    }
    if ("application button checkbox combobox gridcell link listbox menuitem row rowheader tab treeitem columnheader menuitemcheckbox menuitemradio switch".split(" ").includes(role)) node.expanded = roles.expanded(element);
    if ("application checkbox columnheader combobox gridcell listbox radiogroup rowheader searchbox slider spinbutton switch textbox tree".split(" ").includes(role)) node.invalid = roles.invalid(element);
    if (["heading", "listitem", "row", "treeitem"].includes(role)) node.level = roles.level(element);
    if (role === "button") node.pressed = roles.pressed(element);
    if (["gridcell", "option", "row", "tab", "rowheader", "columnheader", "treeitem"].includes(role)) node.selected = roles.selected(element);
    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
      if (element.type !== "checkbox" && element.type !== "radio" && element.type !== "file") {
        const password = element instanceof HTMLInputElement && element.type.toLowerCase() === "password";
        const value = element.value;
        node.children = [password && normalize(value) ? request.hiddenText : value];
        if (password && normalize(value) && node.ref) passwords.push(node.ref);
      }
    }
    return { node, sources: name.elements };
  };

  const seen = new Set<globalThis.Node>();
  const pending: Array<[Node, Set<Element>]> = [];
  const visit = (parent: Node, domNode: globalThis.Node, parentVisible: boolean) => {
    if (seen.has(domNode)) return;
    seen.add(domNode);
    if (domNode.nodeType === 3 && domNode.nodeValue) {
      if (!parentVisible || textNotRendered(domNode)) return;
      if (parent.role !== "textbox") parent.children.push(domNode.nodeValue);
      return;
    }
    if (domNode.nodeType !== 1) return;
    const element = domNode as Element;
    const visible = !hiddenForAria(element) || box(element).visible;
    const owned = element.hasAttribute("aria-owns") ? element.getAttribute("aria-owns")!.split(/\s+/).flatMap((id) => document.getElementById(id) ?? []) : [];
    const made = visible ? toNode(element) : null;
    if (made) {
      if ((element.getAttribute("aria-hidden") ?? "").toLowerCase() === "true") made.node.props["aria-hidden"] = "true";
      parent.children.push(made.node);
    }
    walkInto(made?.node ?? parent, element, owned, visible);
    if (made?.node.ref) pending.push([made.node, made.sources]);
  };
  const walkInto = (node: Node, element: Element, owned: Element[], visible: boolean) => {
    const block = (styleOf(element)?.display || "inline") !== "inline" || element.nodeName === "BR" ? " " : "";
    if (block) node.children.push(block);
    node.children.push(names.cssContent(element, "::before") || "");
    const assigned = element.nodeName === "SLOT" ? (element as HTMLSlotElement).assignedNodes() : [];
    if (assigned.length) for (const child of assigned) visit(node, child, visible);
    else {
      for (let child = element.firstChild; child; child = child.nextSibling) if (!(child as Element | Text).assignedSlot) visit(node, child, visible);
      if (element.shadowRoot) for (let child = element.shadowRoot.firstChild; child; child = child.nextSibling) visit(node, child, visible);
    }
    for (const child of owned) visit(node, child, visible);
    node.children.push(names.cssContent(element, "::after") || "");
    if (block) node.children.push(block);
    if (node.children.length === 1 && node.name === node.children[0]) node.children = [];
    if (node.role === "link" && element.hasAttribute("href")) {
      const href = element.getAttribute("href")!;
      const comma = href.indexOf(",");
      node.props.url = href.startsWith("data:") && comma !== -1 ? `${href.slice(0, comma + 1)}\u2026` : href;
    }
    if (node.role === "textbox" && element.hasAttribute("placeholder") && element.getAttribute("placeholder") !== node.name) node.props.placeholder = element.getAttribute("placeholder")!;
  };

  const root: Node = { role: "fragment", name: "", children: [], props: {}, box: box(body), pointer: true, active: false, element: body };
  visit(root, body, true);
  for (const [node, sources] of pending) {
    const list: string[] = [];
    for (const source of sources) {
      const ref = refOf.get(source);
      if (ref && ref !== node.ref) list.push(ref);
    }
    contributors.set(node.ref!, list);
  }

  // Playwright's ai-mode distillation, plugin by plugin on each node, children first.
  const pointerCursor = (node: Node) => node.box.cursor === "pointer";
  const leafGeneric = (node: Node) => node.role === "generic" && node.children.every((child) => typeof child === "string");
  const clickRoot = (node: Node, ancestors: Node[]) => !!node.ref && pointerCursor(node) && !ancestors.some((ancestor) => !!ancestor.ref && pointerCursor(ancestor));
  const identifying = new Set("alertdialog dialog banner complementary contentinfo form main navigation region search application document figure group grid listbox menu menubar radiogroup tablist tabpanel toolbar tree treegrid table columnheader rowheader".split(" "));
  const pendingRefs = new Set<string>();
  const ancestors: Node[] = [];
  const enter = (node: Node, depth: number) => {
    if (!node.ref) return;
    for (const ref of contributors.get(node.ref) ?? []) pendingRefs.add(ref);
    const beyondDepth = !!request.depth && depth > request.depth;
    if (!beyondDepth && !leafGeneric(node)) pendingRefs.delete(node.ref);
  };
  /** The exit steps; answers "remove" or "unwrap" when the node goes. */
  const exit = (node: Node): "remove" | "unwrap" | undefined => {
    // mergeStringChildren
    const merged: Array<Node | string> = [];
    let buffer: string[] = [];
    const flush = () => {
      const text = normalize(buffer.join(""));
      if (text) merged.push(text);
      buffer = [];
    };
    for (const child of node.children) {
      if (typeof child === "string") buffer.push(child);
      else {
        flush();
        merged.push(child);
      }
    }
    flush();
    node.children = merged.length === 1 && merged[0] === node.name ? [] : merged;
    // removeNamelessImages
    if (node.role === "img" && !node.name && !node.children.length && !clickRoot(node, ancestors)) return "remove";
    // removeRedundantNames
    const sources = node.ref ? contributors.get(node.ref) : undefined;
    if (sources?.length) {
      if (!identifying.has(node.role) && sources.every((ref) => !pendingRefs.has(ref))) node.name = "";
      else for (const ref of sources) pendingRefs.delete(ref);
    }
    // inlineTextIntoGeneric
    const only = node.children.length === 1 ? node.children[0] : undefined;
    if (node.role === "generic" && !Object.keys(node.props).length && only && typeof only !== "string") {
      if (only.role === "generic" && !only.name && !only.active && !Object.keys(only.props).length && only.children.length === 1 && typeof only.children[0] === "string") node.children = [only.children[0]];
    }
    // removeNameRepeatingChild
    const parent = ancestors[ancestors.length - 1];
    if (parent?.name && node.role === "generic" && !node.active && !Object.keys(node.props).length) {
      const singleText = node.children.length === 1 && typeof node.children[0] === "string" ? node.children[0] : undefined;
      const text = node.name ? (node.children.length ? undefined : node.name) : singleText;
      if (text && text === parent.name) {
        if (node.ref) pendingRefs.add(node.ref);
        return "remove";
      }
    }
    // unwrapSingleChildGenerics
    if (node.role === "generic" && !node.name && node.children.length <= 1 && node.children.every((child) => typeof child !== "string" && !!child.ref)) {
      if (!node.children.length && clickRoot(node, ancestors)) return undefined;
      return "unwrap";
    }
    return undefined;
  };
  const distill = (node: Node, depth: number) => {
    const kept: Array<Node | string> = [];
    const visitChild = (child: Node | string) => {
      if (typeof child === "string") return void kept.push(child);
      enter(child, depth + 1);
      distill(child, depth + 1);
      const result = exit(child);
      if (result === "remove") return;
      if (result === "unwrap") kept.push(...child.children);
      else kept.push(child);
    };
    ancestors.push(node);
    node.children.forEach(visitChild);
    ancestors.pop();
    node.children = kept;
  };
  distill(root, -1);
  exit(root);

  // The JSON, as ariaSnapshotJSON answers it.
  const frames: Array<{ ref: string; depth: number }> = [];
  const toJson = (node: Node, depth: number, cursorAllowed: boolean): Record<string, unknown> => {
    if (node.role === "iframe" && node.ref) frames.push({ ref: node.ref, depth });
    const out: Record<string, unknown> = { role: node.role };
    if (node.name) out.name = node.name;
    if (node.checked === true || node.checked === "mixed") out.checked = node.checked;
    if (node.disabled) out.disabled = true;
    if (node.expanded) out.expanded = true;
    if (node.active) out.active = true;
    if (node.invalid) out.invalid = node.invalid;
    if (node.level) out.level = node.level;
    if (node.pressed === true || node.pressed === "mixed") out.pressed = node.pressed;
    if (node.selected === true) out.selected = true;
    if (node.ref) {
      out.ref = node.ref;
      if (cursorAllowed && pointerCursor(node)) out.cursor = "pointer";
    }
    if (request.boxes) {
      const rect = node.element.getBoundingClientRect();
      out.box = { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) };
    }
    if (node.props.url !== undefined) out.url = node.props.url;
    if (node.props.placeholder !== undefined) out.placeholder = node.props.placeholder;
    if (node.props["aria-hidden"] !== undefined) out.ariaHidden = true;
    if (node.children.length === 1 && typeof node.children[0] === "string") out.text = node.children[0];
    else if (node.children.length && !(request.depth && depth === request.depth)) {
      const inside = !!node.ref && cursorAllowed && pointerCursor(node);
      out.children = node.children.map((child) => (typeof child === "string" ? child : toJson(child, depth + 1, cursorAllowed && !inside)));
    }
    return out;
  };
  const nodes = root.children.map((child) => (typeof child === "string" ? { role: "text", text: child } : toJson(child, 0, true)));
  // Only the elements this snapshot still shows keep a ref.
  const shown = new Map<string, Element>();
  const collect = (child: unknown) => {
    const node = child as { ref?: string; children?: unknown[] };
    if (typeof child !== "object" || child === null) return;
    if (node.ref && refs.has(node.ref)) shown.set(node.ref, refs.get(node.ref)!);
    node.children?.forEach(collect);
  };
  nodes.forEach(collect);
  world["__stationAriaRefs"] = shown;
  return { nodes, passwords: passwords.filter((ref) => shown.has(ref)), frames };
}

/**
 * The expression that takes a snapshot: the three self-contained sources
 * composed, with the request. A document still without a `<body>` (its
 * parser blocked) is waited for up to `waitMs`, as Playwright waits for
 * `body,frameset`; past that, the snapshot is of what there is.
 */
export function ariaSnapshotExpression(request: AriaSnapshotRequest, waitMs: number): string {
  // Each source binds `__name` itself: a transpiler that keeps names (tsx, esbuild `keepNames`)
  // puts `__name(…)` calls into them, and an iframe's own eval has no such binding around it.
  const shim = (source: string) => `((__name) => (${source}))((target) => target)`;
  const roles = `${shim(createAriaRoles.toString())}()`;
  const names = shim(createAriaNames.toString());
  // One source for every frame: compiled in the top document here, and by each iframe's own eval.
  const takeOne = `(request) => { const roles = ${roles}; return ${shim(snapshotAria.toString())}(request, roles, ${names}(roles)); }`;
  const take = `() => ${shim(snapshotFrames.toString())}(${takeOne}, ${JSON.stringify(`(${takeOne})`)}, ${JSON.stringify(request)})`;
  const wait = `(take, until) => new Promise((resolve) => { const tick = () => (document.body || Date.now() >= until ? resolve(take()) : setTimeout(tick, 50)); tick(); })`;
  return `((__name) => (${wait})(${take}, Date.now() + ${Math.max(0, Math.floor(waitMs))}))((target) => target)`;
}
