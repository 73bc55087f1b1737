import * as v from "valibot";
import { callerLimits } from "./limits.js";

/** Every ARIA role that `{ by: "role" }` accepts (the set Playwright's getByRole knows). */
export const ariaRoles = [
  "alert", "alertdialog", "application", "article", "banner", "blockquote", "button", "caption", "cell",
  "checkbox", "code", "columnheader", "combobox", "complementary", "contentinfo", "definition", "deletion",
  "dialog", "directory", "document", "emphasis", "feed", "figure", "form", "generic", "grid", "gridcell",
  "group", "heading", "img", "insertion", "link", "list", "listbox", "listitem", "log", "main",
  "marquee", "math", "meter", "menu", "menubar", "menuitem", "menuitemcheckbox", "menuitemradio",
  "navigation", "none", "note", "option", "paragraph", "presentation", "progressbar", "radio",
  "radiogroup", "region", "row", "rowgroup", "rowheader", "scrollbar", "search", "searchbox",
  "separator", "slider", "spinbutton", "status", "strong", "subscript", "superscript", "switch", "tab",
  "table", "tablist", "tabpanel", "term", "textbox", "time", "timer", "toolbar", "tooltip", "tree",
  "treegrid", "treeitem",
] as const;

/** A non-empty bounded string, for selectors, names and other target text. */
export const targetText = (what: string) =>
  v.pipe(
    v.string(`expected ${what} as a string`),
    v.minLength(1, `expected a non-empty ${what}`),
    v.maxLength(callerLimits.targetText, `${what} longer than ${callerLimits.targetText} characters`),
  );

/** Fields every target may carry: exact matching, an iframe chain and an explicit index. */
const targetCommon = {
  /** Exact, case-sensitive whole-string match for role name, text, label and test id. */
  exact: v.optional(v.boolean("expected a boolean")),
  /** Selectors of the iframes to enter, outermost first. */
  frame: v.optional(
    v.pipe(
      v.array(targetText("iframe selector"), "expected an array of iframe selectors"),
      v.maxLength(callerLimits.frameChain, `at most ${callerLimits.frameChain} nested frames`),
    ),
  ),
  /** Zero-based index among the matches; without it more than one match is an error. */
  nth: v.optional(
    v.pipe(
      v.number("expected a number"),
      v.integer("expected an integer"),
      v.minValue(0, "expected a zero-based index ≥ 0"),
      v.maxValue(callerLimits.nthMax, `expected an index ≤ ${callerLimits.nthMax}`),
    ),
  ),
};

/**
 * The ways of finding an element, one strict object per `by`, with `role`
 * checked by `role`. Pure: the `/agent` tools build their own with a plain
 * string role (the backend parses the whole command again and refuses an
 * unknown role naming the field), so the role list stays out of that bundle.
 */
/* @__NO_SIDE_EFFECTS__ */
export function createTargetOptions<const Role extends v.GenericSchema<string, string>>(role: Role) {
  return [
    v.strictObject({ by: v.literal("selector"), selector: targetText("selector"), ...targetCommon }),
    v.strictObject({ by: v.literal("role"), role, name: v.optional(targetText("accessible name")), ...targetCommon }),
    v.strictObject({ by: v.literal("text"), value: targetText("text"), ...targetCommon }),
    v.strictObject({ by: v.literal("label"), value: targetText("label"), ...targetCommon }),
    v.strictObject({ by: v.literal("placeholder"), value: targetText("placeholder"), ...targetCommon }),
    v.strictObject({ by: v.literal("testId"), value: targetText("test id"), ...targetCommon }),
    v.strictObject({
      by: v.literal("ref"),
      ref: v.pipe(
        targetText("ref"),
        v.regex(/^(?:f\d+)?e\d+$/, "expected a ref from an accessibility snapshot, like e12 or f1e3"),
      ),
    }),
  ] as const;
}

/** The ways of finding an element: one strict object per `by` (the options of {@link TargetSchema}). */
export const targetOptions = /* @__PURE__ */ createTargetOptions(
  /* @__PURE__ */ v.picklist(ariaRoles, "expected an ARIA role such as button, link, textbox, checkbox"),
);

/** What a target with an unknown `by` is told. */
export const targetKindMessage = 'expected "by" to be one of "selector", "role", "text", "label", "placeholder", "testId", "ref"';

/**
 * A target: which element a command acts on. Exactly one way of finding it.
 * Pure: a bundle that only needs the options (the `/agent` tools) drops it,
 * and with it valibot's `variant`.
 */
export const TargetSchema = /* @__PURE__ */ v.variant("by", targetOptions, targetKindMessage);

/** A parsed target. */
export type Target = v.InferOutput<typeof TargetSchema>;

/** A target as error messages name it: `role button named "Save"`, `selector "#q"`, `ref e12`. */
export function describeTarget(target: Target): string {
  switch (target.by) {
    case "selector":
      return `selector ${JSON.stringify(target.selector)}`;
    case "role":
      return `role ${target.role}${target.name === undefined ? "" : ` named ${JSON.stringify(target.name)}`}`;
    case "ref":
      return `ref ${target.ref}`;
    default:
      return `${target.by} ${JSON.stringify(target.value)}`;
  }
}
