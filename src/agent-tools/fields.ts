import * as v from "valibot";
import { TargetSchema, type Target } from "../protocol/target.js";

/**
 * Field schemas the tools share. They are the protocol's own schemas (so a
 * bad value gets the protocol's message) with a description for the model.
 */

/** `schema` with a description for the model (kept optional if it was). */
export const described = <const Schema extends v.GenericSchema>(schema: Schema, description: string) =>
  v.pipe(schema, v.description(description));

/** A session alias (`s1`, `s2`, …). */
export const sessionAlias = () =>
  v.pipe(
    v.string("expected a session alias like s1 as a string"),
    v.regex(/^s\d{1,6}$/, "expected a session alias like s1, as returned by station_browser_open"),
  );

/** The session alias field: optional while exactly one session is open. */
export const sessionField = () =>
  v.optional(
    described(sessionAlias(), "The session alias from station_browser_open (s1, s2, …). May be left out while exactly one session is open."),
  );

/** The protocol's schema of a ref (`e12`, `f1e3`). */
export function refSchema() {
  const option = TargetSchema.options.find((candidate) => candidate.entries.by.literal === "ref");
  if (!option || !("ref" in option.entries)) throw new Error("the protocol's target has no ref form");
  return option.entries.ref;
}

/**
 * A target: a ref string from `observe` (`"e12"`), or a locator object of the
 * protocol (`{ by: "role", role: "button", name: "Sign in" }`). Parsed by the
 * protocol's schemas; see {@link toTarget}. Rendered in JSON Schema by
 * `targetJsonSchema` (the only lazy schema of the tools).
 */
export const targetField = (description: string) =>
  described(
    v.lazy((input: unknown) => (typeof input === "string" ? refSchema() : TargetSchema)) as v.GenericSchema<string | Target, string | Target>,
    description,
  );

/** The protocol target of a parsed target field. */
export const toTarget = (value: string | Target): Target => (typeof value === "string" ? { by: "ref", ref: value } : value);

/** Descriptions of the fields of a locator object, by field name (`value` by locator kind). */
const locatorFieldDescriptions: Record<string, string> = {
  by: 'How to find the element: "ref" (from observe; preferred), "role" (+ name), "text", "label", "placeholder", "testId" or "selector" (CSS).',
  ref: "A ref from the latest observe of the page, e.g. e12 or f1e3.",
  selector: "A CSS selector.",
  role: "The ARIA role, e.g. button, link, textbox, checkbox, combobox.",
  name: "The accessible name; a case-insensitive substring unless exact is true.",
  exact: "Match the name, text, label or test id exactly (case-sensitive, whole string).",
  frame: "CSS selectors of the iframes to enter, outermost first.",
  nth: "Zero-based index among the matches; without it, more than one match is an error.",
};
const locatorValueDescriptions: Record<string, string> = {
  text: "Visible text of the element.",
  label: "Text of the element's label.",
  placeholder: "The input's placeholder text.",
  testId: "The element's data-testid value.",
};

/** The JSON Schema of a target field: a ref string, or a locator object with every field described. */
export function targetJsonSchema(refJson: Record<string, unknown>, locatorJson: Record<string, unknown>): Record<string, unknown> {
  const options = (locatorJson.oneOf ?? locatorJson.anyOf ?? []) as Record<string, unknown>[];
  const locators = options.map((option) => {
    const properties = (option.properties ?? {}) as Record<string, Record<string, unknown>>;
    const kind = String((properties.by as { const?: unknown } | undefined)?.const ?? "");
    const describedProperties = Object.fromEntries(
      Object.entries(properties).map(([key, property]) => [
        key,
        { ...property, description: key === "value" ? locatorValueDescriptions[kind] ?? "The text to match." : locatorFieldDescriptions[key] ?? key },
      ]),
    );
    return { ...option, properties: describedProperties };
  });
  return {
    anyOf: [
      { ...refJson, description: "A ref from the latest observe, e.g. e12 (preferred)." },
      { anyOf: locators, description: "A locator object, when no ref fits." },
    ],
  };
}
