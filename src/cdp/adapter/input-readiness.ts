/**
 * The readiness of the CDP engine's other input actions, as Playwright's
 * (`type`, `hover`, `check`/`uncheck`, `select`, `scroll`, `waitFor`): the
 * half of the engine's in-page script that the target script
 * (`target-script.ts`, which finds the element) hands each found element to,
 * in the same call. It runs in the engine's isolated world.
 *
 * {@link readyForInput} must be self-contained: its source is sent to the page.
 */
import type { ScriptAnswer, ScriptRequest } from "./target-script.js";

/** The actions readied by {@link readyForInput}. */
export type ReadinessAction = "type" | "hover" | "check" | "uncheck" | "select" | "scroll" | "waitFor";

/** What the target script lends the readiness script (its own element tests). */
export interface ReadinessKit {
  visible(element: Element): boolean;
  enabled(element: Element): boolean;
  /** In view, stable over a frame and hit at its centre: its point, or why not yet. */
  pointOf(element: Element): Promise<ScriptAnswer | string>;
  /** Whether text typed into `field` may sit in a password field (the field is one, or the page has one or an iframe). */
  sensitive(field: Element | null): boolean;
  deepActive(): Element | null;
  roleOf(element: Element): string | undefined;
  frame(): Promise<void>;
}

/** Readies an element for an action the target script does not know itself: an answer, why not yet (a string), or a refusal. */
export type ReadinessScript = (element: Element, request: ScriptRequest, kit: ReadinessKit) => Promise<ScriptAnswer | string> | ScriptAnswer | string;

/** The global of the isolated world a `check`'s readiness leaves its verification in (read with the click's answer). */
export const checkedProbe = "__stationChecked";

/**
 * Runs in the page (isolated world). Self-contained. Each action as
 * Playwright readies it:
 * - `type`: the element focused (an input newly focused gets its caret at the start);
 * - `hover`: visible, then the click point (stable, in view, receives events; enabled or not);
 * - `check`/`uncheck`: a checkbox or radio (or an ARIA checkbox-like role), through its label;
 *   already in the state asked for is done; else visible, enabled and its click point, and a
 *   probe left behind that reads the state after the click;
 * - `select`: a `<select>` (through its label), visible and enabled, every option found by value
 *   or label and enabled; then selected, with `input` and `change` fired;
 * - `scroll`: by a delta, scrolled at once; without, laid out and stable, then scrolled into view if needed;
 * - `waitFor`: the state (`visible`, `hidden`, `attached`; `detached` is never ready while it exists).
 */
export async function readyForInput(element: Element, request: ScriptRequest, kit: ReadinessKit): Promise<ScriptAnswer | string> {
  const ok = (extra: Partial<Extract<ScriptAnswer, { status: "ok" }>> = {}): ScriptAnswer => ({ status: "ok", title: document.title, ...extra });
  const normalize = (text: string) => text.replace(/\u200b/g, "").trim().replace(/\s+/g, " ");
  /** Playwright's retargeting: an element inside a button or checkbox acts as it; a label as its control. */
  const retarget = (from: Element): Element => {
    let found = from;
    if (!found.matches("input, textarea, select") && !(found as HTMLElement).isContentEditable) {
      found = found.closest("button, [role=button], [role=checkbox], [role=radio]") ?? found;
    }
    if (!found.matches("a, input, textarea, button, select, option, optgroup, [role=link], [role=button], [role=checkbox], [role=radio]") && !(found as HTMLElement).isContentEditable) {
      const label = found.closest("label");
      if (label?.control) found = label.control;
    }
    return found;
  };
  const checkedRoles = ["checkbox", "menuitemcheckbox", "option", "radio", "switch", "menuitemradio", "treeitem"];
  const checkedOf = (control: Element): boolean | "error" => {
    if (control.localName === "input" && ["checkbox", "radio"].includes((control as HTMLInputElement).type)) return (control as HTMLInputElement).checked;
    if (checkedRoles.includes(kit.roleOf(control) ?? "")) return control.getAttribute("aria-checked")?.toLowerCase() === "true";
    return "error";
  };

  switch (request.action) {
    case "type": {
      const active = kit.deepActive();
      const wasFocused = active === element;
      if ((element as HTMLElement).isContentEditable && !wasFocused) (active as HTMLElement | null)?.blur?.();
      (element as HTMLElement).focus?.();
      if (!wasFocused && element.localName === "input") {
        try {
          (element as HTMLInputElement).setSelectionRange(0, 0);
        } catch {
          // Types such as email have no selection.
        }
      }
      return ok({ sensitive: kit.sensitive(element) });
    }
    case "hover":
      if (!kit.visible(element)) return "element is not visible";
      return kit.pointOf(element);
    case "check":
    case "uncheck": {
      const control = retarget(element);
      const state = checkedOf(control);
      if (state === "error") return { status: "refused", reason: "Not a checkbox or radio button" };
      const wanted = request.action === "check";
      if (state === wanted) return ok({ done: true });
      if (!wanted && control.localName === "input" && (control as HTMLInputElement).type === "radio") {
        return { status: "refused", reason: "Cannot uncheck radio button. Radio buttons can only be unchecked by selecting another radio button in the same group." };
      }
      if (!kit.visible(element)) return "element is not visible";
      if (!kit.enabled(control)) return "element is not enabled";
      const point = await kit.pointOf(element);
      if (typeof point === "string" || point.status !== "ok") return point;
      (globalThis as Record<string, unknown>)["__stationChecked"] = () => checkedOf(control) === true;
      return point;
    }
    case "select": {
      const select = retarget(element);
      if (select.localName !== "select") return { status: "refused", reason: "Element is not a <select> element" };
      if (!kit.visible(element)) return "element is not visible";
      if (!kit.enabled(select)) return "element is not enabled";
      const list = select as HTMLSelectElement;
      const wanted = (option: HTMLOptionElement) => (entry: string) => entry === option.value || entry === option.label || normalize(entry) === normalize(option.label);
      let remaining = (request.options ?? []).slice();
      const chosen: HTMLOptionElement[] = [];
      for (const option of Array.from(list.options)) {
        const matches = wanted(option);
        if (!remaining.some(matches)) continue;
        if (option.matches(":disabled")) return "option being selected is not enabled";
        chosen.push(option);
        if (!list.multiple) {
          remaining = [];
          break;
        }
        remaining = remaining.filter((entry) => !matches(entry));
      }
      if (remaining.length > 0) return `did not find some options (${remaining.slice(0, 3).map((entry) => JSON.stringify(entry)).join(", ")})`;
      list.value = undefined as unknown as string;
      for (const option of chosen) option.selected = true;
      list.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
      list.dispatchEvent(new Event("change", { bubbles: true }));
      return ok({ selected: chosen.map((option) => option.value) });
    }
    case "scroll": {
      const deltaX = request.deltaX ?? 0;
      const deltaY = request.deltaY ?? 0;
      if (deltaX !== 0 || deltaY !== 0) {
        element.scrollBy(deltaX, deltaY);
        await kit.frame();
        return ok();
      }
      if (element.getClientRects().length === 0) return "element is not visible";
      const before = element.getBoundingClientRect();
      await kit.frame();
      const after = element.getBoundingClientRect();
      if (after.x !== before.x || after.y !== before.y || after.width !== before.width || after.height !== before.height) return "element is not stable";
      const ifNeeded = (element as Element & { scrollIntoViewIfNeeded?: (center: boolean) => void }).scrollIntoViewIfNeeded;
      if (ifNeeded) ifNeeded.call(element, true);
      else element.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      await kit.frame();
      return ok();
    }
    case "waitFor": {
      const state = request.state ?? "visible";
      if (state === "attached") return ok();
      if (state === "detached") return "element is still attached";
      const shown = kit.visible(element);
      if (state === "visible") return shown ? ok() : "element is not visible";
      return shown ? "element is visible" : ok();
    }
    default:
      return { status: "refused", reason: `no readiness for ${request.action}` };
  }
}

/**
 * Runs in the page (isolated world). Self-contained. Whether text typed at
 * the focused element may sit in a password field: it is one, or the page
 * has one (open shadow roots too) or an iframe, which is not read.
 */
export function focusedMaySeePassword(): boolean {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  if (active?.localName === "input" && (active as HTMLInputElement).type === "password") return true;
  const holds = (root: Document | ShadowRoot): boolean =>
    root.querySelector("iframe, input[type=password i]") !== null || Array.from(root.querySelectorAll("*")).some((element) => element.shadowRoot !== null && holds(element.shadowRoot));
  return holds(document);
}
