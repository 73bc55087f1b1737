import * as v from "valibot";
import { scrollDelta } from "../../protocol/command-fields.js";
import { clickCount, modifiers, mouseButton } from "../../protocol/fields.js";
import { defineBrowserTool, hints } from "../define-tool.js";
import { definedOnly, described, sessionInput, targetField, toTarget } from "../fields.js";
import { runAction } from "../run-command.js";

/** click · hover · scroll · drag: acting on elements with the pointer. */

export const clickTool = defineBrowserTool({
  name: "station_browser_click",
  description:
    "Clicks an element (button, link, tab, menu item); reports whether the page navigated or opened pages or a dialog, and what " +
    "text changed. For text fields, checkboxes and selects use station_browser_fill; for keys, station_browser_type.",
  input: sessionInput({
    target: targetField("The element to click."),
    button: v.optional(described(mouseButton.wrapped, 'Mouse button (default "left").')),
    clickCount: v.optional(described(clickCount.wrapped, "2 for a double click.")),
    modifiers: v.optional(described(modifiers.wrapped, "Keys held during the click.")),
  }),
  annotations: hints("Click", { destructiveHint: true, openWorldHint: true }),
  async run(input, context) {
    const { session, target, ...rest } = input;
    return runAction(context, session, { op: "click", target: toTarget(target), ...definedOnly(rest) });
  },
});

export const hoverTool = defineBrowserTool({
  name: "station_browser_hover",
  description: "Moves the mouse over an element (to open a hover menu or show a tooltip) and reports what changed. Not needed before a click.",
  input: sessionInput({ target: targetField("The element to hover.") }),
  annotations: hints("Hover", { idempotentHint: true, openWorldHint: true }),
  async run(input, context) {
    return runAction(context, input.session, { op: "hover", target: toTarget(input.target) });
  },
});

export const scrollTool = defineBrowserTool({
  name: "station_browser_scroll",
  description:
    "Scrolls an element into view (target only), an element's scroll area (target and deltas) or the page (deltas only), e.g. to " +
    "load more of an endless list. No need to scroll before a click: refs work outside the viewport.",
  input: sessionInput({
    target: v.optional(targetField("The element to scroll into view or to scroll in; leave out for the page.")),
    deltaX: described(scrollDelta, "CSS pixels to the right (negative: left)."),
    deltaY: described(scrollDelta, "CSS pixels down (negative: up)."),
  }),
  annotations: hints("Scroll", { openWorldHint: true }),
  async run(input, context) {
    const { session, target, ...rest } = input;
    return runAction(context, session, { op: "scroll", ...(target === undefined ? {} : { target: toTarget(target) }), ...definedOnly(rest) });
  },
});

export const dragTool = defineBrowserTool({
  name: "station_browser_drag",
  description: "Drags one element and drops it on another, e.g. to reorder a list or move a card to another column.",
  input: sessionInput({ from: targetField("The element to drag."), to: targetField("The element to drop it on.") }),
  annotations: hints("Drag and drop", { destructiveHint: true, openWorldHint: true }),
  async run(input, context) {
    return runAction(context, input.session, { op: "drag", from: toTarget(input.from), to: toTarget(input.to) });
  },
});
