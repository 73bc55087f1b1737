/**
 * Targets inside iframes on the CDP engine, in the same ONE call as a
 * main-frame target: run in the top document's isolated world, the script
 * ({@link enterFrames}) walks the frame chain (iframe selectors from the top,
 * open shadow roots pierced; or the frames of a frame-qualified ref of the
 * latest snapshot, which the snapshot keeps as `__stationAriaFrames`), waits for each frame's document, then runs the target
 * script in the innermost frame's own realm of the same isolated world (its
 * `eval`, so `document`, `getComputedStyle` and the DOM classes are that
 * frame's). A point it answers is moved into the main viewport through each
 * iframe's content box, and checked to hit that iframe in every parent (an
 * iframe out of its parent's view is scrolled into it first).
 *
 * Only same-origin frames can be walked so: a cross-origin iframe (in the
 * page's process or out of it) is answered as such, and the engine goes on
 * in that frame's own world (cross-frames.ts).
 *
 * {@link enterFrames} must be self-contained: its source is sent to the page.
 */
import type { ScriptAnswer } from "./target-script.js";

/** What {@link enterFrames} is asked. */
export interface FrameEntry {
  /** The iframe selectors, outermost first. */
  chain?: string[];
  /** Or the world's frame-qualified ref of the latest snapshot (`f3e7`). */
  ref?: string;
  /** No frame (so no element) answers ok: `waitFor` hidden or detached. */
  absentOk?: boolean;
  timeoutMs: number;
  /** Globals the frame's script leaves for the answers that follow the input (the input watch, the checked probe): reached from the top world too. */
  delegates: string[];
}

/** What it answers besides the target script's own answers. */
export type FrameAnswer =
  | ScriptAnswer
  | { status: "frameAmbiguous"; index: number; count: number }
  /** The chain's iframe at `index` shows another origin's document: kept as `__stationCrossFrame` for the engine to go on in the frame's own world (cross-frames.ts). */
  | { status: "crossOrigin"; index: number; title: string; frameId?: string }
  | { status: "badFrameSelector"; index: number; reason: string };

/** Runs in the top document (isolated world). Self-contained. `source` is `(timeoutMs) => Promise<ScriptAnswer>`, compiled in the innermost frame. */
export async function enterFrames(entry: FrameEntry, source: string): Promise<FrameAnswer> {
  type Realm = Window & typeof globalThis & Record<string, unknown>;
  const top = globalThis as unknown as Record<string, unknown>;
  const deadline = Date.now() + entry.timeoutMs;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const describe = (element: Element | null) => (element ? `<${element.localName}${element.id ? `#${element.id}` : ""}>` : "nothing");

  /** Every element matching `selector` in `doc` and its open shadow roots, in tree order. */
  const deepAll = (doc: Document, selector: string): Element[] => {
    const found: Element[] = [];
    const walk = (root: Document | ShadowRoot | Element) => {
      for (let child = root.firstElementChild; child; child = child.nextElementSibling) {
        if (child.matches(selector)) found.push(child);
        if (child.shadowRoot) walk(child.shadowRoot);
        walk(child);
      }
    };
    walk(doc);
    return found;
  };

  /** The frame's document once it is there (not the initial empty one of a frame still loading its source); null while not; "cross" when another origin's. */
  const documentOf = (frame: HTMLIFrameElement): Document | null | "cross" => {
    if (!frame.isConnected || !frame.contentWindow) return null;
    let inner: Document | null;
    try {
      inner = frame.contentDocument;
    } catch {
      return "cross";
    }
    if (!inner) return "cross";
    const src = frame.getAttribute("src");
    if (inner.location.href === "about:blank" && src && src !== "about:blank" && !frame.hasAttribute("srcdoc")) return null;
    return inner.body ? inner : null;
  };

  const resolve = (): HTMLIFrameElement[] | FrameAnswer | undefined => {
    if (entry.ref !== undefined) {
      const prefix = /^(f\d+)e\d+$/.exec(entry.ref)?.[1] ?? "";
      const frames = (top["__stationAriaFrames"] as Map<string, HTMLIFrameElement[]> | undefined)?.get(prefix);
      if (!frames || frames.some((frame) => documentOf(frame) === null || documentOf(frame) === "cross")) return { status: "staleRef" };
      return frames;
    }
    let doc = document;
    const frames: HTMLIFrameElement[] = [];
    for (const [index, selector] of (entry.chain ?? []).entries()) {
      let found: Element[];
      try {
        found = deepAll(doc, selector);
      } catch (error) {
        return { status: "badFrameSelector", index, reason: String((error as Error)?.message ?? error) };
      }
      if (found.length > 1) return { status: "frameAmbiguous", index, count: found.length };
      const frame = found[0];
      if (!frame || (frame.localName !== "iframe" && frame.localName !== "frame")) return undefined;
      const inner = documentOf(frame as HTMLIFrameElement);
      if (inner === "cross") {
        top["__stationCrossFrame"] = frame;
        const frameId = (top["__stationFrameIds"] as WeakMap<Element, string> | undefined)?.get(frame);
        return { status: "crossOrigin", index, title: document.title, ...(frameId ? { frameId } : {}) };
      }
      if (!inner) return undefined;
      frames.push(frame as HTMLIFrameElement);
      doc = inner;
    }
    return frames;
  };

  for (;;) {
    const resolved = resolve();
    if (resolved === undefined) {
      if (Date.now() + 50 >= deadline) return entry.absentOk ? { status: "ok", title: document.title } : { status: "notFound" };
      await pause(50);
      continue;
    }
    if (!Array.isArray(resolved)) return resolved;
    const inner = resolved[resolved.length - 1]!.contentWindow as Realm;
    const run = inner.eval(source) as (timeoutMs: number) => Promise<ScriptAnswer>;
    const answer = await run(Math.max(0, deadline - Date.now()));
    if (answer.status !== "ok") return answer;
    // What the input's answer asks the top world for is the frame's: it is handed on, and the title is the page's.
    for (const name of entry.delegates) {
      const own = inner[name];
      if (typeof own !== "function") delete top[name];
      else if (name === "__stationInputSeen") top[name] = () => Promise.resolve((own as () => unknown)()).then(() => document.title);
      else top[name] = (...args: unknown[]) => (own as (...args: unknown[]) => unknown)(...args);
    }
    // A field in a frame: the engine reads no other frame for password fields.
    const ready: ScriptAnswer = { ...answer, title: document.title, ...(answer.fill ? { sensitive: true } : {}) };
    if (ready.status !== "ok" || ready.x === undefined || ready.y === undefined) return ready;
    let { x, y } = ready;
    let blocked: string | undefined;
    for (let index = resolved.length - 1; index >= 0 && !blocked; index--) {
      const frame = resolved[index]!;
      const parent = frame.ownerDocument;
      const view = parent.defaultView as Realm;
      const rect = frame.getBoundingClientRect();
      const style = view.getComputedStyle(frame);
      x += rect.left + frame.clientLeft + (parseFloat(style.paddingLeft) || 0);
      y += rect.top + frame.clientTop + (parseFloat(style.paddingTop) || 0);
      if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) {
        // Out of its parent's view: the iframe is scrolled into it, and the element readied again.
        blocked = "element is outside of the viewport";
        frame.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      } else {
        let hit = parent.elementFromPoint(x, y);
        while (hit?.shadowRoot) {
          const deeper = hit.shadowRoot.elementFromPoint(x, y);
          if (!deeper || deeper === hit) break;
          hit = deeper;
        }
        if (hit !== frame) blocked = `${describe(hit)} intercepts pointer events`;
      }
    }
    if (!blocked) return { ...ready, x, y };
    if (Date.now() + 100 >= deadline) return { status: "notActionable", reason: blocked };
    await pause(100);
  }
}
