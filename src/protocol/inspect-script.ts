/**
 * The DOM observation (`inspect`), the same for both engines: the in-page
 * collection of one document ({@link collectElements}), the in-page walk of
 * the main document and the frames it can reach in one call (the CDP
 * engine's, {@link inspectFramesExpression}), and the bounding of what they
 * found ({@link InspectAccumulator}). Web standards only; page functions are
 * sent as source.
 */
import { limits } from "./limits.js";
import type { InspectResult, InspectedElement } from "./results.js";

export interface InspectCollectOptions {
  maxElements: number;
  maxTextLength: number;
  offsetX: number;
  offsetY: number;
}

/** What {@link collectElements} answers for one document. */
export interface CollectedElements {
  elements: InspectedElement[];
  more: boolean;
}

/**
 * Runs in the page: lists visible, actionable elements (and headings) of
 * `root` (the frame's own document by default) in DOM order, piercing open
 * shadow roots. Password and file input values are never read. Boxes are
 * shifted by the frame's offset into main-viewport CSS pixels. Element kinds
 * are told by tag name, so a document of another frame (another realm) reads
 * the same.
 */
export function collectElements(options: InspectCollectOptions, root: Document = document): CollectedElements {
  const selector =
    'a[href],button,input:not([type=hidden]),select,textarea,summary,[role],[contenteditable=""],[contenteditable=true],[onclick],[tabindex]:not([tabindex="-1"]),h1,h2,h3,h4,h5,h6';
  const cut = (text: string | null | undefined) => {
    const clean = (text ?? "").replace(/\s+/g, " ").trim();
    return clean.length > options.maxTextLength ? `${clean.slice(0, options.maxTextLength - 1)}…` : clean;
  };
  const implicitRole = (element: Element): string | undefined => {
    const tag = element.tagName.toLowerCase();
    if (tag === "a") return "link";
    if (tag === "button" || tag === "summary") return "button";
    if (tag === "select") return (element as HTMLSelectElement).multiple ? "listbox" : "combobox";
    if (tag === "textarea") return "textbox";
    if (/^h[1-6]$/.test(tag)) return "heading";
    if (tag === "input") {
      const type = (element as HTMLInputElement).type;
      if (type === "checkbox" || type === "radio") return type;
      if (type === "submit" || type === "button" || type === "reset" || type === "image") return "button";
      if (type === "range") return "slider";
      if (type === "search") return "searchbox";
      return "textbox";
    }
    return undefined;
  };
  const nameOf = (element: Element): string => {
    const aria = element.getAttribute("aria-label");
    if (aria) return cut(aria);
    const labelledBy = element.getAttribute("aria-labelledby");
    if (labelledBy) {
      const text = labelledBy
        .split(/\s+/)
        .map((id) => element.ownerDocument.getElementById(id)?.textContent ?? "")
        .join(" ");
      if (text.trim()) return cut(text);
    }
    const labels = (element as HTMLInputElement).labels;
    if (labels && labels.length > 0) return cut(Array.from(labels, (label) => label.textContent).join(" "));
    const input = element as HTMLInputElement;
    if (element.tagName === "INPUT" && (input.type === "submit" || input.type === "button") && input.value) return cut(input.value);
    return cut(element.getAttribute("title") ?? element.getAttribute("alt") ?? "");
  };
  const visible = (element: Element) => {
    const rect = element.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) return false;
    const style = (root.defaultView ?? window).getComputedStyle(element);
    return style.visibility !== "hidden" && style.display !== "none";
  };
  const found: Element[] = [];
  const walk = (root: Document | ShadowRoot) => {
    for (const element of Array.from(root.querySelectorAll("*"))) {
      if (element.matches(selector)) found.push(element);
      if (element.shadowRoot) walk(element.shadowRoot);
    }
  };
  walk(root);
  const elements: InspectedElement[] = [];
  let more = false;
  for (const element of found) {
    if (!visible(element)) continue;
    if (elements.length >= options.maxElements) {
      more = true;
      break;
    }
    const rect = element.getBoundingClientRect();
    const tag = element.tagName.toLowerCase();
    const entry: InspectedElement = {
      tag,
      box: {
        x: Math.round(rect.x + options.offsetX),
        y: Math.round(rect.y + options.offsetY),
        width: Math.round(rect.width),
        height: Math.round(rect.height),
      },
    };
    const role = element.getAttribute("role") ?? implicitRole(element);
    if (role) entry.role = role;
    const name = nameOf(element);
    if (name) entry.name = name;
    const text = cut((element as HTMLElement).innerText);
    if (text && text !== name) entry.text = text;
    if (element.id) entry.id = cut(element.id);
    if (element.tagName === "INPUT") {
      const input = element as HTMLInputElement;
      entry.type = input.type;
      if (input.type === "checkbox" || input.type === "radio") entry.checked = input.checked;
      else if (input.type !== "password" && input.type !== "file" && input.value) entry.value = cut(input.value);
      if (input.placeholder) entry.placeholder = cut(input.placeholder);
    } else if (element.tagName === "TEXTAREA") {
      const area = element as HTMLTextAreaElement;
      if (area.value) entry.value = cut(area.value);
      if (area.placeholder) entry.placeholder = cut(area.placeholder);
    } else if (element.tagName === "SELECT") {
      const chosen = Array.from((element as HTMLSelectElement).selectedOptions, (option) => option.textContent ?? "").join(", ");
      if (chosen) entry.value = cut(chosen);
    } else if (element.tagName === "A" && element.getAttribute("href")) {
      entry.href = cut((element as HTMLAnchorElement).href);
    }
    if ((element as HTMLButtonElement).disabled) entry.disabled = true;
    elements.push(entry);
  }
  return { elements, more };
}

/** Runs in the page: a selector for an iframe element within its parent document. */
export function iframeSelector(element: Element): string {
  const tag = element.tagName.toLowerCase();
  if (element.id) return `${tag}#${CSS.escape(element.id)}`;
  const name = element.getAttribute("name");
  if (name) return `${tag}[name="${name.replace(/"/g, '\\"')}"]`;
  const siblings = Array.from(element.parentElement?.children ?? []).filter((sibling) => sibling.tagName === element.tagName);
  return siblings.length > 1 ? `${tag}:nth-of-type(${siblings.indexOf(element) + 1})` : tag;
}

/** The elements of one frame: its iframe chain from the main document, and what {@link collectElements} found there. */
export interface InspectedFrame extends CollectedElements {
  chain: string[];
}

/**
 * Gathers the elements of frames in order (main document first, then each
 * frame depth first) within `maxElements` and the total byte budget,
 * marking the result truncated when anything was left out.
 */
export class InspectAccumulator {
  readonly elements: InspectedElement[] = [];
  truncated = false;
  #bytes = 0;

  constructor(readonly maxElements: number) {}

  /** Elements still wanted; at 0 the next frame is not read, and the result is truncated. */
  get remaining(): number {
    return this.maxElements - this.elements.length;
  }

  /** Adds the elements of one frame, until the byte budget is spent. */
  add(frame: InspectedFrame): void {
    this.truncated ||= frame.more;
    for (const element of frame.elements) {
      const entry = frame.chain.length ? { ...element, frame: frame.chain } : element;
      this.#bytes += JSON.stringify(entry).length;
      if (this.#bytes > limits.inspect.totalBytesMax) {
        this.truncated = true;
        break;
      }
      this.elements.push(entry);
    }
  }

  result(viewport: { width: number; height: number }): InspectResult {
    return { elements: this.elements, truncated: this.truncated, coordinateSpace: "css-pixels-main-viewport", viewport };
  }
}

interface WalkOptions {
  maxElements: number;
  maxTextLength: number;
  frameChainMax: number;
  /** Where this document is: its iframe chain from the main document and its offset in the main viewport (a cross-origin frame's own walk). */
  chain?: string[];
  offsetX?: number;
  offsetY?: number;
}

/** A cross-origin frame the walk could not read: its chain and offset; its iframe element is kept as `__stationInspectFrames[index]` for the engine to walk in the frame's own world. */
export interface CrossInspectFrame {
  index: number;
  /** The frame id the world remembers for the iframe (the CDP engine's `__stationFrameIds`), if any. */
  frameId?: string;
  chain: string[];
  offsetX: number;
  offsetY: number;
}

/**
 * Runs in the page: {@link collectElements} over the main document, then
 * over each frame whose document it can reach (same process: its
 * `contentDocument`), depth first in document order, with the frame's iframe
 * chain and its offset in the main viewport. A frame not rendered, or deeper
 * than the chain limit, is left out; one of another origin, which this walk
 * cannot read, is answered (`cross`) for the engine to walk in its own world.
 */
function walkFrames(
  collect: typeof collectElements,
  selectorOf: typeof iframeSelector,
  options: WalkOptions,
): { frames: InspectedFrame[]; stopped: boolean; cross: CrossInspectFrame[] } {
  const frames: InspectedFrame[] = [];
  const cross: CrossInspectFrame[] = [];
  const kept: Element[] = [];
  let remaining = options.maxElements;
  let stopped = false;
  const frameElementsOf = (root: Document | ShadowRoot, found: HTMLIFrameElement[] = []) => {
    for (const element of Array.from(root.querySelectorAll("*"))) {
      if (element.tagName === "IFRAME" || element.tagName === "FRAME") found.push(element as HTMLIFrameElement);
      if (element.shadowRoot) frameElementsOf(element.shadowRoot, found);
    }
    return found;
  };
  const visit = (root: Document, chain: string[], offsetX: number, offsetY: number): boolean => {
    if (remaining <= 0) {
      stopped = true;
      return false;
    }
    const collected = collect({ maxElements: remaining, maxTextLength: options.maxTextLength, offsetX, offsetY }, root);
    frames.push({ chain, ...collected });
    remaining -= collected.elements.length;
    for (const frameElement of frameElementsOf(root)) {
      let child: Document | null = null;
      let other = false;
      try {
        child = frameElement.contentDocument;
        other = !child && !!frameElement.contentWindow;
      } catch {
        other = true;
      }
      if ((!child && !other) || frameElement.getClientRects().length === 0) continue;
      const childChain = [...chain, selectorOf(frameElement)];
      if (childChain.length > options.frameChainMax) continue;
      const box = frameElement.getBoundingClientRect();
      if (other) {
        // Another origin's document (in this process or out of it): walked in its own world by the engine.
        const frameId = ((globalThis as unknown as Record<string, unknown>)["__stationFrameIds"] as WeakMap<Element, string> | undefined)?.get(frameElement);
        cross.push({ index: kept.length, chain: childChain, offsetX: offsetX + box.x, offsetY: offsetY + box.y, ...(frameId ? { frameId } : {}) });
        kept.push(frameElement);
        continue;
      }
      if (!visit(child!, childChain, offsetX + box.x, offsetY + box.y)) return false;
    }
    return true;
  };
  visit(document, options.chain ?? [], options.offsetX ?? 0, options.offsetY ?? 0);
  (globalThis as unknown as Record<string, unknown>)["__stationInspectFrames"] = kept;
  return { frames, stopped, cross };
}

/**
 * The expression of {@link walkFrames}: one call lists the elements of the
 * main document and of the frames it reaches. Bound as `callInPage` binds a
 * function, so a `__name` a transpiler put into the sources passes through.
 */
export function inspectFramesExpression(maxElements: number, maxTextLength: number, at?: Pick<CrossInspectFrame, "chain" | "offsetX" | "offsetY">): string {
  const options: WalkOptions = { maxElements, maxTextLength, frameChainMax: limits.frameChain, ...(at ? { chain: at.chain, offsetX: at.offsetX, offsetY: at.offsetY } : {}) };
  return `((__name) => (${walkFrames.toString()})(${collectElements.toString()}, ${iframeSelector.toString()}, ${JSON.stringify(options)}))((target) => target)`;
}
