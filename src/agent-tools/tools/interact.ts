import * as v from "valibot";
import { commandSchemas } from "../../protocol/commands.js";
import { defineBrowserTool } from "../define-tool.js";
import { described, sessionField, targetField, toTarget } from "../fields.js";
import { onSession, parseStep, runSteps } from "../run-action.js";

/** click · hover · scroll · drag: acting on elements with the pointer. */

const targetHelp = "The element: a ref from station_browser_observe (e.g. e12; preferred), or a locator object.";

export const clickTool = defineBrowserTool({
  name: "station_browser_click",
  group: "default",
  description:
    "Clicks an element of the selected page (a ref from station_browser_observe, or a locator). Use it for buttons, links, tabs, menu items, " +
    "and to submit forms. For text fields, checkboxes and selects use station_browser_fill; for keys use station_browser_type. " +
    "The result says whether the page navigated, opened pages or a dialog, and what text changed.",
  input: v.strictObject(
    {
      session: sessionField(),
      target: targetField(targetHelp),
      button: v.optional(described(commandSchemas.click.entries.button.wrapped, 'Mouse button: "left" (default), "right" or "middle".')),
      clickCount: v.optional(described(commandSchemas.click.entries.clickCount.wrapped, "2 for a double click, 3 for a triple click.")),
      modifiers: v.optional(described(commandSchemas.click.entries.modifiers.wrapped, "Keys held during the click: Alt, Control, ControlOrMeta, Meta, Shift.")),
    },
    "expected an object of arguments",
  ),
  annotations: { title: "Click", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async run(input, context) {
    const { session, target, ...rest } = input;
    const command = parseStep({ op: "click", target: toTarget(target), ...definedOnly(rest) }, "input");
    return onSession(context, session, (entry) => runSteps(context, entry, [{ command, label: "click", fieldRoot: "input" }], "click"));
  },
});

export const hoverTool = defineBrowserTool({
  name: "station_browser_hover",
  group: "default",
  description:
    "Moves the mouse over an element, e.g. to open a hover menu or show a tooltip, then reports what changed. Do not use it before a click (click moves the mouse itself).",
  input: v.strictObject({ session: sessionField(), target: targetField(targetHelp) }, "expected an object of arguments"),
  annotations: { title: "Hover", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run(input, context) {
    const command = parseStep({ op: "hover", target: toTarget(input.target) }, "input");
    return onSession(context, input.session, (entry) => runSteps(context, entry, [{ command, label: "hover", fieldRoot: "input" }], "hover"));
  },
});

export const scrollTool = defineBrowserTool({
  name: "station_browser_scroll",
  group: "default",
  description:
    "Scrolls: an element into view (target only), an element's own scroll area (target and deltas), or the page under the mouse (deltas only). " +
    "Use it to load more content on infinite lists or to reach elements outside the viewport. Observe already lists off-screen elements: " +
    "you can click a ref without scrolling first.",
  input: v.strictObject(
    {
      session: sessionField(),
      target: v.optional(targetField("The element to scroll into view, or whose scroll area to scroll. Leave out to scroll the page.")),
      deltaX: v.optional(described(commandSchemas.scroll.entries.deltaX.wrapped, "Horizontal scroll in CSS pixels (positive: right).")),
      deltaY: v.optional(described(commandSchemas.scroll.entries.deltaY.wrapped, "Vertical scroll in CSS pixels (positive: down).")),
    },
    "expected an object of arguments",
  ),
  annotations: { title: "Scroll", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(input, context) {
    const { session, target, ...rest } = input;
    const command = parseStep({ op: "scroll", ...(target === undefined ? {} : { target: toTarget(target) }), ...definedOnly(rest) }, "input");
    return onSession(context, session, (entry) => runSteps(context, entry, [{ command, label: "scroll", fieldRoot: "input" }], "scroll"));
  },
});

export const dragTool = defineBrowserTool({
  name: "station_browser_drag",
  group: "default",
  description: "Drags one element onto another (drag and drop), e.g. to reorder a list or drop a card into a column. Both are refs or locators.",
  input: v.strictObject(
    {
      session: sessionField(),
      from: targetField("The element to drag: a ref from observe, or a locator object."),
      to: targetField("The element to drop it on: a ref from observe, or a locator object."),
    },
    "expected an object of arguments",
  ),
  annotations: { title: "Drag and drop", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async run(input, context) {
    const command = parseStep({ op: "drag", from: toTarget(input.from), to: toTarget(input.to) }, "input");
    return onSession(context, input.session, (entry) => runSteps(context, entry, [{ command, label: "drag", fieldRoot: "input" }], "drag"));
  },
});

/** `record` without its undefined entries (protocol commands are strict about what they carry). */
export function definedOnly<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<T>;
}
