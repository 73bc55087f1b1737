/**
 * Accessible names, as the CDP engine's ARIA snapshot computes them (the
 * steps of the accname algorithm as Playwright's injected role utils apply
 * them, so both engines name elements alike): aria-labelledby, embedded
 * controls, aria-label, input values, label[for] and wrapping labels, legend,
 * figcaption, caption, alt, title, placeholder, text content for roles named
 * from content, and CSS ::before / ::after text. Each name also lists the
 * elements its text came from (the snapshot drops a name its content repeats).
 *
 * {@link createAriaNames} must be self-contained: its source is sent to the
 * page (isolated world) with the snapshot script.
 */
import type { AriaRoles } from "./aria-roles.js";

/** Runs in the page (isolated world). Self-contained but for `roles` (made by `createAriaRoles` in the same call). */
export function createAriaNames(roles: AriaRoles) {
  type Composite = { text: string; elements?: Set<Element> };
  type Embedded = { element: Element; hidden: boolean } | undefined;
  interface Options {
    visited: Set<Element>;
    outFromContent?: { value: boolean };
    target?: "self" | "descendant" | undefined;
    labelledBy?: Embedded;
    describedBy?: Embedded;
    label?: Embedded;
    nativeAlternative?: Embedded;
  }
  const { tagOf, styleOf, idRefs, hiddenForAria, textNotRendered, roleOf } = roles;
  const names = new Map<Element, { text: string; elements: Set<Element> }>();
  const pseudo = new Map<string, string | undefined>();
  const pseudoIds = new Map<Element, number>();

  const empty = (): Composite => ({ text: "", elements: new Set() });
  const single = (text: string | null | undefined, element: Element): Composite => ({ text: text ?? "", elements: text ? new Set([element]) : new Set() });
  const join = (parts: Composite[], separator: string): Composite => {
    const elements = new Set<Element>();
    for (const part of parts) for (const element of part.elements ?? []) elements.add(element);
    return { text: parts.map((part) => part.text).join(separator), elements };
  };
  const flat = (text: string) =>
    text
      .split("\u00a0")
      .map((chunk) => chunk.replace(/\r\n/g, "\n").replace(/[\u200b\u00ad]/g, "").replace(/\s\s*/g, " "))
      .join("\u00a0")
      .trim();

  /** The text of a CSS `content` value: strings and attr() (after a `/`, for the element itself). */
  const contentText = (element: Element, value: string, isPseudo: boolean): string | undefined => {
    const tokens: string[] = [...(value.match(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|attr\(\s*[\w-]+\s*\)|\/|[^\s"'/]+/g) ?? [])];
    const slash = tokens.indexOf("/");
    let parts = tokens;
    if (slash !== -1) parts = tokens.slice(slash + 1);
    else if (!isPseudo) return undefined;
    const out: string[] = [];
    for (const token of parts) {
      if (token.startsWith('"') || token.startsWith("'")) out.push(token.slice(1, -1).replace(/\\(.)/g, "$1"));
      else if (token.startsWith("attr(")) out.push(element.getAttribute(token.slice(5, -1).trim()) ?? "");
      else return undefined;
    }
    return out.join("");
  };
  const cssContent = (element: Element, which?: "::before" | "::after"): string | undefined => {
    let id = pseudoIds.get(element);
    if (id === undefined) pseudoIds.set(element, (id = pseudoIds.size));
    const key = `${id}${which ?? ""}`;
    if (pseudo.has(key)) return pseudo.get(key);
    const style = which ? element.ownerDocument.defaultView?.getComputedStyle(element, which) : styleOf(element);
    let text: string | undefined;
    const value = style?.content;
    if (style && value && value !== "none" && value !== "normal" && style.display !== "none" && style.visibility !== "hidden") text = contentText(element, value, !!which);
    if (which && text !== undefined && (style?.display || "inline") !== "inline") text = ` ${text} `;
    pseudo.set(key, text);
    return text;
  };

  const hiddenReference = (options: Options) => !!(options.labelledBy?.hidden || options.describedBy?.hidden || options.nativeAlternative?.hidden || options.label?.hidden);
  const insideTarget = (options: Options) => options.target === "self" || options.target === "descendant";
  const fromContentRoles = ["button", "cell", "checkbox", "columnheader", "gridcell", "heading", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "radio", "row", "rowheader", "switch", "tab", "tooltip", "treeitem"];
  const fromContentInside = ["", "caption", "code", "contentinfo", "definition", "deletion", "emphasis", "insertion", "list", "listitem", "mark", "none", "paragraph", "presentation", "region", "row", "rowgroup", "section", "strong", "subscript", "superscript", "table", "term", "time"];
  const labelsOf = (element: Element) => [...((element as HTMLInputElement).labels ?? [])];

  const fromLabels = (labels: Element[], options: Options) =>
    join(
      labels.map((label) => alternative(label, { visited: options.visited, outFromContent: options.outFromContent, label: { element: label, hidden: hiddenForAria(label) } })).filter((part) => !!part.text),
      " ",
    );
  const firstChildNamed = (element: Element, tag: string) => {
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) if (tagOf(child) === tag) return child;
    return undefined;
  };
  const childOptions = (options: Options): Options => ({ ...options, target: options.target === "self" ? "descendant" : options.target });
  const viaNative = (child: Element, options: Options) => alternative(child, { ...childOptions(options), nativeAlternative: { element: child, hidden: hiddenForAria(child) } });

  const innerText = (element: Element, options: Options): Composite => {
    const tokens: string[] = [];
    const skipNotRendered = !hiddenReference(options);
    const elements = new Set<Element>();
    const visit = (node: Node, skipSlotted: boolean) => {
      if (skipSlotted && (node as Element | Text).assignedSlot) return;
      if (node.nodeType === 1) {
        const display = styleOf(node as Element)?.display || "inline";
        const child = alternative(node as Element, options);
        for (const contributor of child.elements ?? []) elements.add(contributor);
        tokens.push(display !== "inline" || node.nodeName === "BR" ? ` ${child.text} ` : child.text);
      } else if (node.nodeType === 3) {
        if (skipNotRendered && textNotRendered(node)) return;
        tokens.push(node.textContent || "");
      }
    };
    tokens.push(cssContent(element, "::before") || "");
    const own = cssContent(element);
    if (own !== undefined) tokens.push(own);
    else {
      const assigned = element.nodeName === "SLOT" ? (element as HTMLSlotElement).assignedNodes() : [];
      if (assigned.length) for (const child of assigned) visit(child, false);
      else {
        for (let child = element.firstChild; child; child = child.nextSibling) visit(child, true);
        if (element.shadowRoot) for (let child = element.shadowRoot.firstChild; child; child = child.nextSibling) visit(child, true);
        for (const owned of idRefs(element, element.getAttribute("aria-owns"))) visit(owned, true);
      }
    }
    tokens.push(cssContent(element, "::after") || "");
    return { text: tokens.join(""), elements };
  };

  /** The value an embedded control contributes to a name (textbox, combobox, range), or undefined. */
  const embeddedControl = (element: Element, role: string, options: Options): Composite | undefined => {
    const tag = tagOf(element);
    if (role === "textbox" || role === "searchbox") {
      options.visited.add(element);
      return single(tag === "INPUT" || tag === "TEXTAREA" ? (element as HTMLInputElement).value : element.textContent, element);
    }
    if (role === "combobox" || role === "listbox") {
      options.visited.add(element);
      let chosen: Element[];
      if (tag === "SELECT") {
        const select = element as HTMLSelectElement;
        chosen = [...select.selectedOptions];
        if (!chosen.length && select.options.length) chosen.push(select.options[0]!);
      } else {
        const owned = (root: Element, css: string) => [...root.querySelectorAll(css), ...idRefs(root, root.getAttribute("aria-owns")).flatMap((found) => [...(found.matches(css) ? [found] : []), ...found.querySelectorAll(css)])];
        const list = role === "combobox" ? owned(element, "*").find((found) => roleOf(found) === "listbox") : element;
        chosen = list ? owned(list, '[aria-selected="true" i]').filter((found) => roleOf(found) === "option") : [];
      }
      if (!chosen.length && tag === "INPUT") return single((element as HTMLInputElement).value, element);
      return join(chosen.map((option) => alternative(option, childOptions(options))), " ");
    }
    if (["progressbar", "scrollbar", "slider", "spinbutton", "meter"].includes(role)) {
      options.visited.add(element);
      for (const name of ["aria-valuetext", "aria-valuenow"]) if (element.hasAttribute(name)) return single(element.getAttribute(name), element);
      return single(element.getAttribute("value"), element);
    }
    if (role === "menu") {
      options.visited.add(element);
      return empty();
    }
    return undefined;
  };

  /** The name an element's own markup gives it (input value, labels, legend, alt, …), or undefined to go on. */
  const nativeName = (element: Element, labelledBy: Element[] | null, options: Options): Composite | undefined => {
    const tag = tagOf(element);
    const type = (element as HTMLInputElement).type;
    const title = () => single(element.getAttribute("title") || "", element);
    const mark = () => options.visited.add(element);
    if (tag === "INPUT" && ["button", "submit", "reset"].includes(type)) {
      mark();
      const value = (element as HTMLInputElement).value || "";
      if (value.trim()) return single(value, element);
      return type === "submit" ? single("Submit", element) : type === "reset" ? single("Reset", element) : title();
    }
    if (tag === "INPUT" && (type === "file" || type === "image")) {
      mark();
      const labels = labelsOf(element);
      if (labels.length && !options.labelledBy) return fromLabels(labels, options);
      if (type === "file") return single("Choose File", element);
      for (const name of ["alt", "title"]) if ((element.getAttribute(name) || "").trim()) return single(element.getAttribute(name), element);
      return single("Submit", element);
    }
    if (!labelledBy && tag === "BUTTON") {
      mark();
      const labels = labelsOf(element);
      if (labels.length) return fromLabels(labels, options);
    }
    if (!labelledBy && tag === "OUTPUT") {
      mark();
      const labels = labelsOf(element);
      return labels.length ? fromLabels(labels, options) : title();
    }
    if (!labelledBy && ["TEXTAREA", "SELECT", "INPUT", "METER", "PROGRESS"].includes(tag)) {
      mark();
      const labels = labelsOf(element);
      if (labels.length) return fromLabels(labels, options);
      const usePlaceholder = (tag === "INPUT" && ["text", "password", "number", "search", "tel", "email", "url"].includes(type)) || tag === "TEXTAREA";
      const titleText = element.getAttribute("title") || "";
      if (!usePlaceholder || titleText) return single(titleText, element);
      return single(element.getAttribute("placeholder") || "", element);
    }
    for (const [container, caption] of [["FIELDSET", "LEGEND"], ["FIGURE", "FIGCAPTION"]] as const) {
      if (!labelledBy && tag === container) {
        mark();
        const child = firstChildNamed(element, caption);
        return child ? viaNative(child, options) : title();
      }
    }
    if (tag === "IMG" || tag === "AREA") {
      mark();
      const alt = element.getAttribute("alt") || "";
      return alt.trim() ? single(alt, element) : title();
    }
    if (tag === "TABLE") {
      mark();
      const child = firstChildNamed(element, "CAPTION");
      if (child) return viaNative(child, options);
      const summary = element.getAttribute("summary") || "";
      if (summary) return single(summary, element);
    }
    if (tag === "SVG" || (element as SVGElement).ownerSVGElement) {
      mark();
      for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
        if (tagOf(child) === "TITLE" && (child as SVGElement).ownerSVGElement) return alternative(child, { ...childOptions(options), labelledBy: { element: child, hidden: hiddenForAria(child) } });
      }
    }
    if ((element as SVGElement).ownerSVGElement && tag === "A") {
      const xlinkTitle = element.getAttribute("xlink:title") || "";
      if (xlinkTitle.trim()) {
        mark();
        return single(xlinkTitle, element);
      }
    }
    return undefined;
  };

  function alternative(element: Element, options: Options): Composite {
    if (options.visited.has(element)) return empty();
    if (["STYLE", "SCRIPT", "NOSCRIPT", "TEMPLATE"].includes(tagOf(element)) || (!hiddenReference(options) && hiddenForAria(element))) {
      options.visited.add(element);
      return empty();
    }
    const labelledByAttr = idRefs(element, element.getAttribute("aria-labelledby"));
    const labelledBy = labelledByAttr.length ? labelledByAttr : null;
    if (!options.labelledBy) {
      const name = join(
        (labelledBy ?? []).map((ref) => alternative(ref, { visited: options.visited, outFromContent: options.outFromContent, labelledBy: { element: ref, hidden: hiddenForAria(ref) } })),
        " ",
      );
      if (name.text) {
        if (options.outFromContent && insideTarget(options) && (labelledBy ?? []).some((ref) => ref === element || element.contains(ref))) options.outFromContent.value = true;
        return name;
      }
    }
    const role = roleOf(element) ?? "";
    const tag = tagOf(element);
    if (options.label || options.labelledBy || options.target === "descendant") {
      const ownLabel = labelsOf(element).includes(element as HTMLLabelElement);
      const ownLabelledBy = (labelledBy ?? []).includes(element);
      if (!ownLabel && !ownLabelledBy) {
        const control = embeddedControl(element, role, options);
        if (control) return control;
      }
    }
    const ariaLabel = element.getAttribute("aria-label") || "";
    if (ariaLabel.trim()) {
      options.visited.add(element);
      return single(ariaLabel, element);
    }
    if (role !== "presentation" && role !== "none") {
      const native = nativeName(element, labelledBy, options);
      if (native) return native;
    }
    const summary = tag === "SUMMARY" && role !== "presentation" && role !== "none";
    if (fromContentRoles.includes(role) || (options.target === "descendant" && fromContentInside.includes(role)) || summary || options.labelledBy || options.describedBy || options.label || options.nativeAlternative) {
      options.visited.add(element);
      const name = innerText(element, childOptions(options));
      const text = options.target === "self" ? name.text.trim() : name.text;
      if (text) {
        if (options.outFromContent && insideTarget(options) && name.text.trim()) options.outFromContent.value = true;
        if (name.text.trim()) name.elements?.add(element);
        return name;
      }
    }
    if ((role !== "presentation" && role !== "none") || tag === "IFRAME" || tag === "FRAME") {
      options.visited.add(element);
      const title = element.getAttribute("title") || "";
      if (title.trim()) return single(title, element);
    }
    options.visited.add(element);
    return empty();
  }

  const prohibited = ["caption", "code", "definition", "deletion", "emphasis", "generic", "insertion", "mark", "paragraph", "presentation", "strong", "subscript", "suggestion", "superscript", "term", "time"];
  /** The accessible name of `element` and the elements its text came from. */
  const nameOf = (element: Element): { text: string; elements: Set<Element> } => {
    const cached = names.get(element);
    if (cached) return cached;
    let name = { text: "", elements: new Set<Element>() };
    if (!prohibited.includes(roleOf(element) ?? "")) {
      const result = alternative(element, { visited: new Set(), outFromContent: { value: false }, target: "self" });
      name = { text: flat(result.text), elements: result.elements ?? new Set() };
    }
    names.set(element, name);
    return name;
  };

  return { nameOf, cssContent };
}
