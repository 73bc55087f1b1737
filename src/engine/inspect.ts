import type { Frame, Page } from "playwright-core";
import { limits } from "../protocol/limits.js";
import type { InspectResult, InspectedElement } from "../protocol/results.js";
import { callInPage } from "./evaluate-result.js";

interface CollectOptions {
  maxElements: number;
  maxTextLength: number;
  offsetX: number;
  offsetY: number;
}

/**
 * Runs in the page: lists visible, actionable elements (and headings) in DOM
 * order, piercing open shadow roots. Password and file input values are never
 * read. Boxes are shifted by the frame's offset into main-viewport CSS pixels.
 */
function collectElements(options: CollectOptions): { elements: InspectedElement[]; more: boolean } {
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
    const style = getComputedStyle(element);
    return style.visibility !== "hidden" && style.display !== "none";
  };
  const found: Element[] = [];
  const walk = (root: Document | ShadowRoot) => {
    for (const element of Array.from(root.querySelectorAll("*"))) {
      if (element.matches(selector)) found.push(element);
      if (element.shadowRoot) walk(element.shadowRoot);
    }
  };
  walk(document);
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
    if (element instanceof HTMLInputElement) {
      entry.type = element.type;
      if (element.type === "checkbox" || element.type === "radio") entry.checked = element.checked;
      else if (element.type !== "password" && element.type !== "file" && element.value) entry.value = cut(element.value);
      if (element.placeholder) entry.placeholder = cut(element.placeholder);
    } else if (element instanceof HTMLTextAreaElement) {
      if (element.value) entry.value = cut(element.value);
      if (element.placeholder) entry.placeholder = cut(element.placeholder);
    } else if (element instanceof HTMLSelectElement) {
      const chosen = Array.from(element.selectedOptions, (option) => option.textContent ?? "").join(", ");
      if (chosen) entry.value = cut(chosen);
    } else if (element instanceof HTMLAnchorElement && element.getAttribute("href")) {
      entry.href = cut(element.href);
    }
    if ((element as HTMLButtonElement).disabled) entry.disabled = true;
    elements.push(entry);
  }
  return { elements, more };
}

/** A selector for an iframe element within its parent document. */
function iframeSelector(element: Element): string {
  const tag = element.tagName.toLowerCase();
  if (element.id) return `${tag}#${CSS.escape(element.id)}`;
  const name = element.getAttribute("name");
  if (name) return `${tag}[name="${name.replace(/"/g, '\\"')}"]`;
  const siblings = Array.from(element.parentElement?.children ?? []).filter((sibling) => sibling.tagName === element.tagName);
  return siblings.length > 1 ? `${tag}:nth-of-type(${siblings.indexOf(element) + 1})` : tag;
}

async function frameChain(frame: Frame): Promise<{ chain: string[]; offsetX: number; offsetY: number } | undefined> {
  const chain: string[] = [];
  let current: Frame | null = frame;
  while (current?.parentFrame()) {
    const element = await current.frameElement();
    chain.unshift(await element.evaluate(iframeSelector));
    current = current.parentFrame();
  }
  const box = await (await frame.frameElement()).boundingBox();
  if (!box || chain.length > limits.frameChain) return undefined;
  return { chain, offsetX: box.x, offsetY: box.y };
}

/** Bounded DOM metadata of the page and its frames, in main-viewport CSS pixels. */
export async function inspectPage(page: Page, maxElements: number, maxTextLength: number): Promise<InspectResult> {
  const elements: InspectedElement[] = [];
  let truncated = false;
  let bytes = 0;
  for (const frame of page.frames()) {
    const remaining = maxElements - elements.length;
    if (remaining <= 0) {
      truncated = true;
      break;
    }
    const placement = frame === page.mainFrame() ? { chain: [], offsetX: 0, offsetY: 0 } : await frameChain(frame).catch(() => undefined);
    if (!placement) continue;
    // As an expression (callInPage): under a transpiler that keeps names (tsx), the function's own source calls `__name`.
    const collected = await frame
      .evaluate<ReturnType<typeof collectElements>>(callInPage(collectElements, { maxElements: remaining, maxTextLength, offsetX: placement.offsetX, offsetY: placement.offsetY }))
      .catch(() => undefined);
    if (!collected) continue;
    truncated ||= collected.more;
    for (const element of collected.elements) {
      const entry = placement.chain.length ? { ...element, frame: placement.chain } : element;
      bytes += JSON.stringify(entry).length;
      if (bytes > limits.inspect.totalBytesMax) {
        truncated = true;
        break;
      }
      elements.push(entry);
    }
  }
  const viewport = page.viewportSize() ?? (await page.evaluate(() => ({ width: innerWidth, height: innerHeight })));
  return { elements, truncated, coordinateSpace: "css-pixels-main-viewport", viewport };
}
