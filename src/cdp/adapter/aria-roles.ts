/**
 * Roles, hidden-ness, states and boxes of elements, as the CDP engine's ARIA
 * snapshot computes them (the facts follow Playwright's injected role utils,
 * so that both engines see the same tree): implicit HTML roles and explicit
 * valid roles, presentation inheritance, hidden for ARIA (display, visibility,
 * aria-hidden, non-slotted shadow children), visible boxes, pointer events,
 * and the checked / disabled / expanded / level / pressed / selected states.
 *
 * {@link createAriaRoles} must be self-contained: its source is sent to the
 * page (isolated world) with the snapshot script. Each call makes fresh caches.
 */

/** What {@link createAriaRoles} returns (the helpers of one snapshot). */
export type AriaRoles = ReturnType<typeof createAriaRoles>;

/** Runs in the page (isolated world). Self-contained. */
export function createAriaRoles() {
  const styles = new Map<Element, CSSStyleDeclaration | undefined>();
  const roles = new Map<Element, string | null>();
  const hiddenChain = new Map<Element, boolean>();
  const pointer = new Map<Element, boolean>();
  const disabledChain = new Map<Element, boolean>();
  let textRange: Range | undefined;

  const tagOf = (element: Element) => element.tagName.toUpperCase();
  const styleOf = (element: Element): CSSStyleDeclaration | undefined => {
    if (styles.has(element)) return styles.get(element);
    const style = element.ownerDocument.defaultView?.getComputedStyle(element);
    styles.set(element, style);
    return style;
  };
  const parentOf = (element: Element): Element | undefined => {
    if (element.parentElement) return element.parentElement;
    const parent = element.parentNode;
    return parent && parent.nodeType === 11 && (parent as ShadowRoot).host ? (parent as ShadowRoot).host : undefined;
  };
  const closestAcross = (element: Element, css: string): Element | undefined => {
    for (let current: Element | undefined = element; current; ) {
      const found = current.closest(css);
      if (found) return found;
      let top: Element = current;
      while (top.parentElement) top = top.parentElement;
      current = parentOf(top);
    }
    return undefined;
  };
  const idRefs = (element: Element, ids: string | null): Element[] => {
    if (!ids) return [];
    let root: Node = element;
    while (root.parentNode) root = root.parentNode;
    if (root.nodeType !== 9 && root.nodeType !== 11) return [];
    const found: Element[] = [];
    for (const id of ids.split(/[ \t\n\f\r]+/).filter(Boolean)) {
      const match = (root as Document | ShadowRoot).querySelector(`#${CSS.escape(id)}`);
      if (match && !found.includes(match)) found.push(match);
    }
    return found;
  };

  // Styles and visibility.
  const styleVisible = (element: Element, style = styleOf(element)) => !style || (element.checkVisibility() && style.visibility === "visible");
  const visibleText = (node: Text) => {
    textRange ??= node.ownerDocument.createRange();
    textRange.selectNode(node);
    const rect = textRange.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  };
  const box = (element: Element): { visible: boolean; inline: boolean; cursor?: string } => {
    const style = styleOf(element);
    if (!style) return { visible: true, inline: false };
    const cursor = style.cursor;
    if (style.display === "contents") {
      for (let child = element.firstChild; child; child = child.nextSibling) {
        if (child.nodeType === 1 && box(child as Element).visible) return { visible: true, inline: false, cursor };
        if (child.nodeType === 3 && visibleText(child as Text)) return { visible: true, inline: true, cursor };
      }
      return { visible: false, inline: false, cursor };
    }
    if (!styleVisible(element, style)) return { visible: false, inline: false, cursor };
    const rect = element.getBoundingClientRect();
    return { visible: rect.width > 0 && rect.height > 0, inline: style.display === "inline", cursor };
  };
  const inDisplayNoneOrAriaHidden = (element: Element): boolean => {
    const cached = hiddenChain.get(element);
    if (cached !== undefined) return cached;
    let hidden = !!element.parentElement?.shadowRoot && !(element as HTMLElement).assignedSlot;
    if (!hidden) {
      const style = styleOf(element);
      hidden = !style || style.display === "none" || (element.getAttribute("aria-hidden") ?? "").toLowerCase() === "true";
    }
    if (!hidden) {
      const parent = parentOf(element);
      if (parent) hidden = inDisplayNoneOrAriaHidden(parent);
    }
    hiddenChain.set(element, hidden);
    return hidden;
  };
  const ignored = (element: Element) => ["STYLE", "SCRIPT", "NOSCRIPT", "TEMPLATE"].includes(tagOf(element));
  const hiddenForAria = (element: Element): boolean => {
    if (ignored(element)) return true;
    const style = styleOf(element);
    const slot = element.nodeName === "SLOT";
    if (style?.display === "contents" && !slot) {
      for (let child = element.firstChild; child; child = child.nextSibling) {
        if (child.nodeType === 1 && !hiddenForAria(child as Element)) return false;
        if (child.nodeType === 3 && visibleText(child as Text)) return false;
      }
      return true;
    }
    const optionInSelect = element.nodeName === "OPTION" && !!element.closest("select");
    if (!optionInSelect && !slot && !styleVisible(element, style)) return true;
    return inDisplayNoneOrAriaHidden(element);
  };
  const textNotRendered = (text: Node) => {
    const parent = text.parentElement;
    if (!parent) return false;
    if (parent.shadowRoot && !(text as Text).assignedSlot) return true;
    return tagOf(parent) === "DETAILS" && !(parent as HTMLDetailsElement).open;
  };
  const receivesPointerEvents = (element: Element): boolean => {
    const chain: Element[] = [];
    let result: boolean | undefined;
    for (let current: Element | undefined = element; current; current = parentOf(current)) {
      const cached = pointer.get(current);
      if (cached !== undefined) {
        result = cached;
        break;
      }
      chain.push(current);
      const value = styleOf(current)?.pointerEvents;
      if (value === undefined) {
        result = true;
        break;
      }
      if (value) {
        result = value !== "none";
        break;
      }
    }
    for (const each of chain) pointer.set(each, result ?? true);
    return result ?? true;
  };

  // Roles.
  const validRoles = new Set(
    ("alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic grid gridcell group heading img insertion link list listbox listitem log main mark marquee math meter menu menubar menuitem menuitemcheckbox menuitemradio navigation none note option paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem").split(" "),
  );
  const namingProhibited = ["caption", "code", "deletion", "emphasis", "generic", "insertion", "paragraph", "presentation", "strong", "subscript", "superscript"];
  const globalAttributes: Array<[string, string[] | undefined]> = [
    ...["aria-atomic", "aria-busy", "aria-controls", "aria-current", "aria-describedby", "aria-details", "aria-dropeffect", "aria-flowto", "aria-grabbed", "aria-hidden", "aria-keyshortcuts", "aria-live", "aria-owns", "aria-relevant"].map(
      (name): [string, undefined] => [name, undefined],
    ),
    ["aria-label", namingProhibited],
    ["aria-labelledby", namingProhibited],
    ["aria-roledescription", ["generic"]],
  ];
  const hasGlobalAttribute = (element: Element, role?: string | null) => globalAttributes.some(([name, prohibited]) => !prohibited?.includes(role ?? "") && element.hasAttribute(name));
  const hasTabIndex = (element: Element) => !Number.isNaN(Number(String(element.getAttribute("tabindex"))));
  const nativelyDisabled = (element: Element): boolean => {
    if (!["BUTTON", "INPUT", "SELECT", "TEXTAREA", "OPTION", "OPTGROUP"].includes(tagOf(element))) return false;
    if (element.hasAttribute("disabled")) return true;
    if (tagOf(element) === "OPTION" && element.closest("OPTGROUP[DISABLED]")) return true;
    const fieldset = element.closest("FIELDSET[DISABLED]");
    if (!fieldset) return false;
    const legend = fieldset.querySelector(":scope > LEGEND");
    return !legend || !legend.contains(element);
  };
  const focusable = (element: Element) => {
    if (nativelyDisabled(element)) return false;
    const tag = tagOf(element);
    if (["BUTTON", "DETAILS", "SELECT", "TEXTAREA"].includes(tag)) return true;
    if (tag === "A" || tag === "AREA") return element.hasAttribute("href") || hasTabIndex(element);
    if (tag === "INPUT") return !(element as HTMLInputElement).hidden || hasTabIndex(element);
    return hasTabIndex(element);
  };
  const explicitRole = (element: Element): string | null => {
    const names = (element.getAttribute("role") ?? "").toLowerCase().split(" ").map((name) => name.trim());
    return names.find((name) => validRoles.has(name)) ?? null;
  };
  const landmarkBlockers = "article:not([role]), aside:not([role]), main:not([role]), nav:not([role]), section:not([role]), [role=article], [role=complementary], [role=main], [role=navigation], [role=region]";
  const named = (element: Element) => element.hasAttribute("aria-label") || element.hasAttribute("aria-labelledby");
  const listBox = (select: HTMLSelectElement) => select.multiple || select.size > 1;
  const headerCell = (element: Element | null) => !!element && tagOf(element) === "TH";
  const filledDataCell = (element: Element | null) => !!element && tagOf(element) === "TD" && !!(element.textContent?.trim() || element.children.length > 0);
  const inputRoles: Record<string, string> = { button: "button", checkbox: "checkbox", image: "button", number: "spinbutton", radio: "radio", range: "slider", reset: "button", submit: "button" };
  const simpleRoles: Record<string, string> = {
    ARTICLE: "article", ASIDE: "complementary", BLOCKQUOTE: "blockquote", BUTTON: "button", CAPTION: "caption", CODE: "code", DATALIST: "listbox", DD: "definition", DEL: "deletion",
    DETAILS: "group", DFN: "term", DIALOG: "dialog", DT: "term", EM: "emphasis", FIELDSET: "group", FIGURE: "figure", H1: "heading", H2: "heading", H3: "heading", H4: "heading",
    H5: "heading", H6: "heading", HR: "separator", HTML: "document", INS: "insertion", LI: "listitem", MAIN: "main", MARK: "mark", MATH: "math", MENU: "list", METER: "meter",
    NAV: "navigation", OL: "list", OPTGROUP: "group", OPTION: "option", OUTPUT: "status", P: "paragraph", PROGRESS: "progressbar", SEARCH: "search", STRONG: "strong", SUB: "subscript",
    SUP: "superscript", SVG: "img", TABLE: "table", TBODY: "rowgroup", TEXTAREA: "textbox", TFOOT: "rowgroup", THEAD: "rowgroup", TIME: "time", TR: "row", UL: "list",
  };
  const tagRole = (element: Element): string | null => {
    const tag = tagOf(element);
    if (simpleRoles[tag]) return simpleRoles[tag]!;
    switch (tag) {
      case "A":
      case "AREA":
        return element.hasAttribute("href") ? "link" : null;
      case "FOOTER":
        return closestAcross(element, landmarkBlockers) ? null : "contentinfo";
      case "HEADER":
        return closestAcross(element, landmarkBlockers) ? null : "banner";
      case "FORM":
        return named(element) ? "form" : null;
      case "SECTION":
        return named(element) ? "region" : null;
      case "IMG":
        return element.getAttribute("alt") === "" && !element.getAttribute("title") && !hasGlobalAttribute(element) && !hasTabIndex(element) ? "presentation" : "img";
      case "SELECT":
        return listBox(element as HTMLSelectElement) ? "listbox" : "combobox";
      case "INPUT": {
        const type = (element as HTMLInputElement).type.toLowerCase();
        if (["email", "search", "tel", "text", "url", ""].includes(type)) {
          const list = idRefs(element, element.getAttribute("list"))[0];
          if (list && tagOf(list) === "DATALIST") return "combobox";
          return type === "search" ? "searchbox" : "textbox";
        }
        if (type === "hidden") return null;
        if (type === "file") return "button";
        return inputRoles[type] ?? "textbox";
      }
      case "TD": {
        const table = closestAcross(element, "table");
        const role = table ? explicitRole(table) : "";
        return role === "grid" || role === "treegrid" ? "gridcell" : "cell";
      }
      case "TH": {
        const scope = element.getAttribute("scope");
        if (scope === "col" || scope === "colgroup") return "columnheader";
        if (scope === "row" || scope === "rowgroup") return "rowheader";
        const next = element.nextElementSibling;
        const previous = element.previousElementSibling;
        const row = element.parentElement && tagOf(element.parentElement) === "TR" ? element.parentElement : undefined;
        if (!next && !previous) {
          const table = row ? closestAcross(row, "table") : undefined;
          if (table && (table as HTMLTableElement).rows.length <= 1) return null;
          return "columnheader";
        }
        if (headerCell(next) && headerCell(previous)) return "columnheader";
        if (filledDataCell(next) || filledDataCell(previous)) return "rowheader";
        return "columnheader";
      }
      default:
        return null;
    }
  };
  const inheritsPresentation: Record<string, string[]> = { DD: ["DL", "DIV"], DIV: ["DL"], DT: ["DL", "DIV"], LI: ["OL", "UL"], TBODY: ["TABLE"], TD: ["TR"], TFOOT: ["TABLE"], TH: ["TR"], THEAD: ["TABLE"], TR: ["THEAD", "TBODY", "TFOOT", "TABLE"] };
  const presentationKept = (element: Element, role: string | null) => hasGlobalAttribute(element, role) || focusable(element);
  const implicitRole = (element: Element): string | null => {
    const role = tagRole(element);
    if (!role) return null;
    for (let current: Element | undefined = element; current; ) {
      const parent = parentOf(current);
      const parents = inheritsPresentation[tagOf(current)];
      if (!parents || !parent || !parents.includes(tagOf(parent))) break;
      const parentRole = explicitRole(parent);
      if ((parentRole === "none" || parentRole === "presentation") && !presentationKept(parent, parentRole)) return parentRole;
      current = parent;
    }
    return role;
  };
  const roleOf = (element: Element): string | null => {
    if (roles.has(element)) return roles.get(element)!;
    let role = explicitRole(element);
    if (!role) role = implicitRole(element);
    else if (role === "none" || role === "presentation") {
      const implicit = implicitRole(element);
      if (presentationKept(element, implicit)) role = implicit;
    }
    roles.set(element, role);
    return role;
  };

  // States.
  const ariaTrue = (element: Element, name: string) => (element.getAttribute(name) ?? "").toLowerCase() === "true";
  const checked = (element: Element): boolean | "mixed" => {
    const tag = tagOf(element);
    if (tag === "INPUT" && (element as HTMLInputElement).indeterminate) return "mixed";
    if (tag === "INPUT" && ["checkbox", "radio"].includes((element as HTMLInputElement).type)) return (element as HTMLInputElement).checked;
    if (["checkbox", "menuitemcheckbox", "option", "radio", "switch", "menuitemradio", "treeitem"].includes(roleOf(element) ?? "")) {
      const value = (element.getAttribute("aria-checked") ?? "").toLowerCase();
      return value === "true" ? true : value === "mixed" ? "mixed" : false;
    }
    return false;
  };
  const ariaDisabledChain = (element: Element): boolean => {
    const cached = disabledChain.get(element);
    if (cached !== undefined) return cached;
    const value = (element.getAttribute("aria-disabled") ?? "").toLowerCase();
    const parent = parentOf(element);
    const result = value === "true" ? true : value === "false" ? false : parent ? ariaDisabledChain(parent) : false;
    disabledChain.set(element, result);
    return result;
  };
  const disabledRoles = "application button composite gridcell group input link menuitem scrollbar separator tab checkbox columnheader combobox grid listbox menu menubar menuitemcheckbox menuitemradio option radio radiogroup row rowheader searchbox select slider spinbutton switch tablist textbox toolbar tree treegrid treeitem".split(" ");
  const disabled = (element: Element) => nativelyDisabled(element) || (disabledRoles.includes(roleOf(element) ?? "") && ariaDisabledChain(element));
  const expandedRoles = "application button checkbox combobox gridcell link listbox menuitem row rowheader tab treeitem columnheader menuitemcheckbox menuitemradio switch".split(" ");
  const expanded = (element: Element): boolean => {
    if (tagOf(element) === "DETAILS") return (element as HTMLDetailsElement).open;
    return expandedRoles.includes(roleOf(element) ?? "") && ariaTrue(element, "aria-expanded");
  };
  const level = (element: Element): number => {
    const native = ({ H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6 } as Record<string, number>)[tagOf(element)];
    if (native) return native;
    const value = element.getAttribute("aria-level") === null ? Number.NaN : Number(element.getAttribute("aria-level"));
    return Number.isInteger(value) && value >= 1 ? value : 0;
  };
  const pressed = (element: Element): boolean | "mixed" => {
    const value = (element.getAttribute("aria-pressed") ?? "").toLowerCase();
    return value === "true" ? true : value === "mixed" ? "mixed" : false;
  };
  const selected = (element: Element): boolean => {
    if (tagOf(element) === "OPTION") return (element as HTMLOptionElement).selected;
    return ["gridcell", "option", "row", "tab", "rowheader", "columnheader", "treeitem"].includes(roleOf(element) ?? "") && ariaTrue(element, "aria-selected");
  };
  const invalid = (element: Element): boolean | string => {
    const value = (element.getAttribute("aria-invalid") ?? "").toLowerCase();
    if (!value.trim() || value === "false") return false;
    return value === "grammar" || value === "spelling" ? value : true;
  };

  return { tagOf, styleOf, parentOf, idRefs, box, hiddenForAria, textNotRendered, receivesPointerEvents, roleOf, checked, disabled, expanded, level, pressed, selected, invalid };
}
