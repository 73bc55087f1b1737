/**
 * The CDP engine's own in-page script: in ONE call it finds the element a
 * target names (selector, role, text, label, placeholder, test id, a ref of
 * the latest accessibility snapshot; `exact`,
 * `nth`; open shadow roots pierced), refuses ambiguity, waits until the
 * element is ready for the action (visible, enabled, stable and not covered
 * for a click; visible, enabled and editable for a fill), scrolls it into
 * view and answers with its point in main-viewport CSS pixels and the
 * document's title. It runs in the engine's isolated world, so page scripts
 * can neither change the built-ins it uses nor see what it reads.
 *
 * {@link findAndPrepare} must be self-contained: its source is sent to the page.
 */
import type { ReadinessAction, ReadinessScript } from "./input-readiness.js";
import type { UploadRequest } from "./upload-script.js";

/** The targets the script resolves (no `frame` chain: the engine refuses that first). A `ref` is the world's own ref of the latest snapshot. */
export type ScriptTarget =
  | { by: "ref"; ref: string }
  | { by: "selector"; selector: string; nth?: number | undefined }
  | { by: "role"; role: string; name?: string | undefined; exact?: boolean | undefined; nth?: number | undefined }
  | { by: "text" | "label" | "placeholder" | "testId"; value: string; exact?: boolean | undefined; nth?: number | undefined };

/** What the script is asked. */
export interface ScriptRequest {
  target: ScriptTarget;
  /**
   * `click`: a point to press; `fill`: the field focused and its text selected; `focus`: the element focused.
   * Every other action is readied by the script passed with the request (`input-readiness.ts`).
   */
  action: "click" | "fill" | "focus" | ReadinessAction | "upload";
  /** The value of a fill (types such as date and color take it as their value at once). */
  value?: string;
  /** `select`: the options to select, each by value or label. */
  options?: string[];
  /** `waitFor`: the state to wait for. */
  state?: "visible" | "hidden" | "attached" | "detached";
  /** `scroll`: how far to scroll the element (CSS pixels); none scrolls it into view. */
  deltaX?: number;
  deltaY?: number;
  /** `upload`: the files to set, or only the count to check (staged files). */
  upload?: UploadRequest;
  /** No element at all (or none at `nth`) answers ok: `waitFor` hidden or detached. */
  absentOk?: boolean;
  /** How long to wait for the element to appear and be ready (ms). */
  timeoutMs: number;
}

/** The trusted input events an action will cause, counted so that the answer to {@link inputSeenExpression} waits for them. */
export interface InputWatch {
  /** `mousemove`: a hover's one move. */
  type: "mouseup" | "keyup" | "mousemove";
  count: number;
  /** Longest wait for them (ms): a page that stops their propagation before the world's listener still gets an answer. */
  fallbackMs: number;
}

/**
 * Runs in the page (isolated world). Self-contained. Counts the trusted
 * `watch.type` events on `windows` (this realm's, and those of its
 * same-origin frames: `frame-windows.ts`) from now on; once `watch.count` have been seen and one
 * task has passed (so their default actions — a link followed, a form
 * submitted — have been requested), `globalThis.__stationInputSeen()`
 * resolves with the document's title. Its answer travels on the same CDP
 * channel as the page's `Page.frameRequestedNavigation`, after it: a
 * navigation the input requested is known when the answer arrives.
 */
export function watchInput(watch: InputWatch, windows: Window[] = [window]): string {
  let seen = 0;
  let done = false;
  let wake: (() => void) | undefined;
  let moved = false;
  let wakeMove: (() => void) | undefined;
  const stop = () =>
    windows.forEach((view) => {
      try {
        view.removeEventListener(watch.type, listener, true);
        view.removeEventListener("mousemove", moveListener, true);
      } catch {
        // A frame gone to another origin meanwhile: its listener went with its document.
      }
    });
  const listener = (event: Event) => {
    if (!event.isTrusted || ++seen < watch.count) return;
    stop();
    done = true;
    setTimeout(() => wake?.(), 0);
  };
  const moveListener = (event: Event) => {
    if (!event.isTrusted || moved) return;
    moved = true;
    wakeMove?.();
  };
  // On every window the input may land in (`frame-windows.ts`): a key goes to the focused frame's document.
  windows.forEach((view) => view.addEventListener(watch.type, listener, true));
  if (watch.type !== "keyup") {
    windows.forEach((view) => view.addEventListener("mousemove", moveListener, true));
    // Whether the pointer's move reached this document (see `moveSeenExpression`): true once it has, false after `withinMs`.
    (globalThis as { __stationMoveSeen?: (withinMs: number) => Promise<boolean> }).__stationMoveSeen = (withinMs) =>
      new Promise<boolean>((resolve) => {
        if (moved) return resolve(true);
        wakeMove = () => resolve(true);
        setTimeout(() => resolve(moved), withinMs);
      });
  }
  (globalThis as { __stationInputSeen?: () => Promise<string> }).__stationInputSeen = () =>
    new Promise<string>((resolve) => {
      const answer = () => {
        stop();
        resolve(document.title);
      };
      if (done) setTimeout(answer, 0);
      else wake = answer;
      setTimeout(answer, watch.fallbackMs);
    });
  return document.title;
}

/** The expression sent with an action's input: the title once the input has been handled (or the old title if the world is gone). */
export const inputSeenExpression = "globalThis.__stationInputSeen ? globalThis.__stationInputSeen() : document.title";

/**
 * Asked in a cross-origin frame's world after a pointer move to the point of
 * a click or hover there: whether the frame's document got the move (within
 * `withinMs`). A frame that has just loaded in its own process may not be in
 * the browser's hit testing yet, so input at its point goes to its parent
 * document; a move that reached the frame says the press will too.
 */
export const moveSeenExpression = (withinMs: number) => `globalThis.__stationMoveSeen ? globalThis.__stationMoveSeen(${withinMs}) : true`;

/** What the script answers. */
export type ScriptAnswer =
  | {
      status: "ok";
      title: string;
      x?: number;
      y?: number;
      /** `select`: the values now selected. */
      selected?: string[];
      /** `check`/`uncheck`: already in the state asked for, so there is nothing to click. */
      done?: boolean;
      fill?: "insert" | "delete" | "set";
      /** For a fill: the text may sit in a password field (the field is one, or the page has one or an iframe, which the script does not read). */
      sensitive?: boolean;
    }
  | { status: "notFound" }
  | { status: "ambiguous"; count: number }
  | { status: "nthOutOfRange"; count: number }
  | { status: "notActionable"; reason: string }
  | { status: "refused"; reason: string }
  /** The command does not fit the element (an upload to something not a file input): a `ValidationError` naming `field`. */
  | { status: "invalid"; field: string; reason: string }
  | { status: "staleRef" }
  | { status: "badSelector"; reason: string };

/** Runs in the page (isolated world). Self-contained; `readiness` readies the actions it does not know itself. */
export function findAndPrepare(request: ScriptRequest, readiness?: ReadinessScript): Promise<ScriptAnswer> {
  const { target, action } = request;
  const deadline = Date.now() + request.timeoutMs;
  const normalize = (text: string) => text.replace(/[\s\u200b]+/g, " ").trim();
  const matcher = (wanted: string, exact: boolean | undefined) => {
    const want = normalize(wanted);
    const lower = want.toLowerCase();
    return (text: string) => (exact ? normalize(text) === want : normalize(text).toLowerCase().includes(lower));
  };
  const skipped = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD"]);

  /** Every element in tree order, open shadow roots after their host's start. */
  const allElements = (): Element[] => {
    const out: Element[] = [];
    const walk = (root: Document | ShadowRoot | Element) => {
      for (let child = root.firstElementChild; child; child = child.nextElementSibling) {
        out.push(child);
        if (child.shadowRoot) walk(child.shadowRoot);
        walk(child);
      }
    };
    walk(document);
    return out;
  };

  const parentOf = (node: Node): Element | null => {
    if (node.parentElement) return node.parentElement;
    const parent = node.parentNode;
    return parent instanceof ShadowRoot ? parent.host : null;
  };

  const textCache = new Map<Node, string>();
  const textOf = (node: Node): string => {
    const cached = textCache.get(node);
    if (cached !== undefined) return cached;
    let text = "";
    if (node.nodeType === Node.TEXT_NODE) text = node.nodeValue ?? "";
    else if (node instanceof Element && skipped.has(node.nodeName)) text = "";
    else {
      const from = node instanceof Element && node.shadowRoot ? node.shadowRoot : node;
      for (let child = from.firstChild; child; child = child.nextSibling) text += textOf(child);
    }
    textCache.set(node, text);
    return text;
  };

  const hiddenForAria = (element: Element): boolean => {
    for (let current: Element | null = element; current; current = parentOf(current)) {
      if (current.getAttribute("aria-hidden") === "true") return true;
    }
    return !element.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions);
  };

  const implicitRole = (element: Element): string | undefined => {
    const tag = element.localName;
    const type = (element.getAttribute("type") ?? "").toLowerCase();
    switch (tag) {
      case "a":
      case "area":
        return element.hasAttribute("href") ? "link" : undefined;
      case "button":
        return "button";
      case "input":
        if (["button", "submit", "reset", "image"].includes(type)) return "button";
        if (type === "checkbox") return "checkbox";
        if (type === "radio") return "radio";
        if (type === "range") return "slider";
        if (type === "number") return "spinbutton";
        if (type === "hidden" || type === "file" || type === "color" || type === "date") return undefined;
        if (element.hasAttribute("list")) return "combobox";
        return type === "search" ? "searchbox" : "textbox";
      case "textarea":
        return "textbox";
      case "select":
        return (element as HTMLSelectElement).multiple || (element as HTMLSelectElement).size > 1 ? "listbox" : "combobox";
      case "option":
        return "option";
      case "h1":
      case "h2":
      case "h3":
      case "h4":
      case "h5":
      case "h6":
        return "heading";
      case "img":
        return element.getAttribute("alt") === "" ? "presentation" : "img";
      case "ul":
      case "ol":
      case "menu":
        return "list";
      case "li":
        return "listitem";
      case "nav":
        return "navigation";
      case "main":
        return "main";
      case "aside":
        return "complementary";
      case "form":
        return "form";
      case "article":
        return "article";
      case "dialog":
        return "dialog";
      case "table":
        return "table";
      case "tr":
        return "row";
      case "td":
        return "cell";
      case "th":
        return "columnheader";
      case "p":
        return "paragraph";
      case "hr":
        return "separator";
      case "fieldset":
      case "details":
        return "group";
      case "progress":
        return "progressbar";
      case "output":
        return "status";
      default:
        return undefined;
    }
  };
  const roleOf = (element: Element): string | undefined => {
    const explicit = (element.getAttribute("role") ?? "").trim().split(/\s+/)[0];
    return explicit ? explicit : implicitRole(element);
  };

  const nameFromContent = new Set(["button", "link", "heading", "cell", "columnheader", "rowheader", "option", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "treeitem", "checkbox", "radio", "switch", "tooltip"]);
  const contentName = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return node.nodeValue ?? "";
    if (!(node instanceof Element)) return "";
    if (skipped.has(node.nodeName) || hiddenForAria(node)) return "";
    const label = node.getAttribute("aria-label")?.trim();
    if (label) return ` ${label} `;
    if (node.localName === "img") return ` ${node.getAttribute("alt") ?? ""} `;
    const from = node.shadowRoot ?? node;
    let text = "";
    for (let child = from.firstChild; child; child = child.nextSibling) text += contentName(child);
    // Block elements separate words.
    return getComputedStyle(node).display.startsWith("inline") ? text : ` ${text} `;
  };
  const labelsText = (element: Element): string[] => {
    const texts: string[] = [];
    const ids = (element.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean);
    const root = element.getRootNode() as Document | ShadowRoot;
    const byId = ids.map((id) => root.getElementById(id)).filter((found): found is HTMLElement => found !== null);
    if (byId.length) texts.push(byId.map((found) => textOf(found)).join(" "));
    const aria = element.getAttribute("aria-label");
    if (aria?.trim()) texts.push(aria);
    const labels = (element as HTMLInputElement).labels;
    if (labels) for (const label of Array.from(labels)) texts.push(textOf(label));
    return texts;
  };
  const accessibleName = (element: Element, role: string | undefined): string => {
    const ids = (element.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean);
    if (ids.length) {
      const root = element.getRootNode() as Document | ShadowRoot;
      const text = ids.map((id) => root.getElementById(id)).filter((found) => found !== null).map((found) => contentName(found!)).join(" ");
      if (normalize(text)) return normalize(text);
    }
    const aria = element.getAttribute("aria-label");
    if (aria && normalize(aria)) return normalize(aria);
    const tag = element.localName;
    const type = (element.getAttribute("type") ?? "").toLowerCase();
    if (tag === "input" && ["button", "submit", "reset"].includes(type)) {
      return normalize((element as HTMLInputElement).value || (type === "submit" ? "Submit" : type === "reset" ? "Reset" : ""));
    }
    if (tag === "input" && type === "image") return normalize(element.getAttribute("alt") ?? "");
    if (tag === "img") return normalize(element.getAttribute("alt") ?? element.getAttribute("title") ?? "");
    if (tag === "input" || tag === "textarea" || tag === "select") {
      const labels = (element as HTMLInputElement).labels;
      const text = labels ? Array.from(labels).map((label) => contentName(label)).join(" ") : "";
      if (normalize(text)) return normalize(text);
    }
    if (tag === "fieldset") {
      const legend = element.querySelector(":scope > legend");
      if (legend) return normalize(contentName(legend));
    }
    if (role && nameFromContent.has(role)) {
      const text = normalize(contentName(element.shadowRoot ?? element));
      if (text) return text;
    }
    return normalize(element.getAttribute("title") ?? element.getAttribute("placeholder") ?? "");
  };

  const querySelectorDeep = (selector: string): Element[] => {
    const found: Element[] = [];
    const seen = new Set<Element>();
    const roots: Array<Document | ShadowRoot> = [document];
    for (const element of allElements()) if (element.shadowRoot) roots.push(element.shadowRoot);
    for (const root of roots) for (const element of Array.from(root.querySelectorAll(selector))) seen.add(element);
    // In tree order, as one walk finds them.
    for (const element of allElements()) if (seen.has(element)) found.push(element);
    return found;
  };

  const matches = (): Element[] => {
    const elements = allElements();
    switch (target.by) {
      case "ref": {
        const element = ((globalThis as Record<string, unknown>)["__stationAriaRefs"] as Map<string, Element> | undefined)?.get(target.ref);
        return element?.isConnected ? [element] : [];
      }
      case "selector":
        return querySelectorDeep(target.selector);
      case "testId":
        return elements.filter((element) => element.getAttribute("data-testid") === target.value);
      case "placeholder": {
        const match = matcher(target.value, target.exact);
        return elements.filter((element) => element.hasAttribute("placeholder") && match(element.getAttribute("placeholder")!));
      }
      case "label": {
        const match = matcher(target.value, target.exact);
        return elements.filter((element) => labelsText(element).some(match));
      }
      case "text": {
        const match = matcher(target.value, target.exact);
        const textual = (element: Element) => {
          // As Playwright's text engine: nothing in <head> (a <title>) is text to match.
          if (skipped.has(element.nodeName) || document.head?.contains(element)) return false;
          if (element.localName === "input" && ["button", "submit", "reset"].includes((element as HTMLInputElement).type)) return match((element as HTMLInputElement).value);
          return match(textOf(element));
        };
        // The smallest elements holding the text: one whose child element holds it too is left for the child.
        return elements.filter((element) => {
          if (!textual(element)) return false;
          const from = element.shadowRoot ?? element;
          for (let child = from.firstElementChild; child; child = child.nextElementSibling) if (textual(child)) return false;
          return true;
        });
      }
      case "role": {
        const match = target.name === undefined ? undefined : matcher(target.name, target.exact);
        return elements.filter((element) => {
          if (roleOf(element) !== target.role || hiddenForAria(element)) return false;
          return match === undefined || match(accessibleName(element, target.role));
        });
      }
    }
  };

  const describeElement = (element: Element) => {
    const id = element.id ? `#${element.id}` : "";
    const classes = element.classList.length ? `.${Array.from(element.classList).slice(0, 2).join(".")}` : "";
    return `<${element.localName}${id}${classes}>`;
  };
  const visible = (element: Element) => {
    const rect = element.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0 && element.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions);
  };
  const enabled = (element: Element) => {
    if (element.matches(":disabled")) return false;
    for (let current: Element | null = element; current; current = parentOf(current)) {
      if (current.getAttribute("aria-disabled") === "true") return false;
    }
    return true;
  };
  const frame = () => new Promise<void>((resolve) => {
    requestAnimationFrame(() => resolve());
    // A page that paints no frames (hidden, throttled) still moves on.
    setTimeout(resolve, 100);
  });
  const deepActive = (): Element | null => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active;
  };
  const hitTarget = (x: number, y: number): Element | null => {
    let hit = document.elementFromPoint(x, y);
    while (hit?.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  };
  const holds = (element: Element, inner: Element | null) => {
    for (let current = inner; current; current = parentOf(current)) if (current === element) return true;
    return false;
  };

  const sensitive = (field: Element | null) =>
    (field?.localName === "input" && (field as HTMLInputElement).type === "password") ||
    allElements().some((element) => element.localName === "iframe" || (element.localName === "input" && (element as HTMLInputElement).type === "password"));

  /** Click readiness: in view, stable over a frame, and the element (or its child) is what a click at its centre hits. */
  const pointOf = async (element: Element): Promise<ScriptAnswer | string> => {
    let rect = element.getBoundingClientRect();
    if (rect.top < 0 || rect.left < 0 || rect.bottom > innerHeight || rect.right > innerWidth) {
      element.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    }
    rect = element.getBoundingClientRect();
    await frame();
    const after = element.getBoundingClientRect();
    if (after.x !== rect.x || after.y !== rect.y || after.width !== rect.width || after.height !== rect.height) return "element is not stable";
    const left = Math.max(after.left, 0);
    const right = Math.min(after.right, innerWidth);
    const top = Math.max(after.top, 0);
    const bottom = Math.min(after.bottom, innerHeight);
    if (right <= left || bottom <= top) return "element is outside of the viewport";
    const x = (left + right) / 2;
    const y = (top + bottom) / 2;
    const hit = hitTarget(x, y);
    if (!holds(element, hit)) return `${hit ? describeElement(hit) : "nothing"} intercepts pointer events`;
    return { status: "ok", title: document.title, x, y };
  };

  const textInputTypes = new Set(["", "text", "search", "url", "tel", "email", "password", "number"]);
  const valueInputTypes = new Set(["date", "time", "datetime-local", "month", "week", "color", "range"]);

  /** Prepares `element` for the action: an answer, or why not yet (a string), or a refusal. */
  const prepare = async (element: Element): Promise<ScriptAnswer | string> => {
    if (action !== "click" && action !== "fill" && action !== "focus") {
      if (!readiness) return { status: "refused", reason: `no readiness script for ${action}` };
      return readiness(element, request, { visible, enabled, pointOf, sensitive, deepActive, roleOf, frame });
    }
    if (action === "focus") {
      (element as HTMLElement).focus?.();
      return { status: "ok", title: document.title };
    }
    if (!visible(element)) return "element is not visible";
    if (!enabled(element)) return "element is not enabled";
    if (action === "fill") {
      const field = element.localName === "label" && (element as HTMLLabelElement).control ? (element as HTMLLabelElement).control! : element;
      const tag = field.localName;
      const type = tag === "input" ? (field as HTMLInputElement).type.toLowerCase() : "";
      if (tag === "input" && !textInputTypes.has(type) && !valueInputTypes.has(type)) return { status: "refused", reason: `Input of type "${type}" cannot be filled` };
      if (tag !== "input" && tag !== "textarea" && !(field as HTMLElement).isContentEditable) {
        return { status: "refused", reason: "Element is not an <input>, <textarea> or [contenteditable] element" };
      }
      if ((tag === "input" || tag === "textarea") && (field as HTMLInputElement).readOnly) return "element is not editable";
      (field as HTMLElement).focus();
      if (tag === "input" && valueInputTypes.has(type)) {
        const input = field as HTMLInputElement;
        input.value = request.value ?? "";
        if (input.value !== (request.value ?? "")) return { status: "refused", reason: `Malformed value for an input of type "${type}"` };
        input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
        input.dispatchEvent(new Event("change", { bubbles: true }));
        return { status: "ok", title: document.title, fill: "set", sensitive: sensitive(field) };
      }
      if (tag === "input" || tag === "textarea") (field as HTMLInputElement).select();
      else {
        const range = document.createRange();
        range.selectNodeContents(field);
        const selection = getSelection();
        selection?.removeAllRanges();
        selection?.addRange(range);
      }
      if (deepActive() !== field) return "element could not be focused";
      return { status: "ok", title: document.title, fill: request.value ? "insert" : "delete", sensitive: sensitive(field) };
    }
    return pointOf(element);
  };

  const pauses = [0, 20, 100, 100, 500];
  const attempt = async (round: number, reason: string | undefined): Promise<ScriptAnswer> => {
    let found: Element[];
    try {
      found = matches();
    } catch (error) {
      return { status: "badSelector", reason: String((error as Error)?.message ?? error) };
    }
    let why: string | undefined;
    const nth = target.by === "ref" ? undefined : target.nth;
    // Waiting for an element to be hidden or gone: none (or too few for nth) is the answer.
    if (request.absentOk && found.length <= (nth ?? 0)) return { status: "ok", title: document.title };
    // A ref names one element of the latest snapshot: gone (detached, or the document replaced) it is stale at once.
    if (target.by === "ref" && found.length === 0) return { status: "staleRef" };
    if (target.by === "ref") found = found.slice(0, 1);
    if (found.length > 1 && nth === undefined) return { status: "ambiguous", count: found.length };
    if (found.length > 0 && nth !== undefined && nth >= found.length) return { status: "nthOutOfRange", count: found.length };
    if (found.length > 0) {
      const prepared = await prepare(found[nth ?? 0]!);
      if (typeof prepared !== "string") return prepared;
      why = prepared;
    }
    const pause = pauses[Math.min(round, pauses.length - 1)]!;
    const last = why ?? reason;
    if (Date.now() + pause >= deadline) return last === undefined ? { status: "notFound" } : { status: "notActionable", reason: last };
    await new Promise((resolve) => setTimeout(resolve, pause));
    return attempt(round + 1, why ?? reason);
  };
  return attempt(0, undefined);
}
