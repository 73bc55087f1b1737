import * as v from "valibot";
import { createTargetOptions, targetKindMessage, targetText, type Target } from "../protocol/target.js";

/**
 * Field schemas the tools share. They are the protocol's own schemas (so a
 * bad value gets the protocol's message) with a description for the model.
 */

/** `schema` with a description for the model (kept optional if it was). */
export const described = <const Schema extends v.GenericSchema>(schema: Schema, description: string) =>
  v.pipe(schema, v.description(description));

/** A tool's input: a strict object of `entries` (an unknown field is refused naming it). */
export const toolInput = <const Entries extends v.ObjectEntries>(entries: Entries) => v.strictObject(entries, "expected an object of arguments");

/** A tool's input on one session: the `session` field, then `entries`. */
export const sessionInput = <const Entries extends v.ObjectEntries>(entries: Entries) => toolInput({ session: sessionField(), ...entries });

/** A session alias (`s1`, `s2`, …). */
export const sessionAlias = () =>
  v.pipe(
    v.string("expected a session alias like s1 as a string"),
    v.regex(/^s\d{1,6}$/, "expected a session alias like s1, as returned by station_browser_open"),
  );

/** The session alias field: optional while exactly one session is open. */
export const sessionField = () =>
  v.optional(
    described(sessionAlias(), "The session alias (s1, …); may be left out while only one session is open."),
  );

/**
 * How refs look and behave, for the model: the one place that spells the
 * notation of observations (`[e12]`), used by the observe description and
 * the target field.
 */
export const refExample = "e12";
export const refsExplained = `each interactive element has a ref (e.g. [${refExample}]) to pass as target; each observe makes the page's older refs stale`;

/**
 * The protocol's locator options, with the role checked as a non-empty
 * string: the backend (worker or manager) parses the whole command again
 * and refuses an unknown role with the protocol's message, which the tools
 * name as `input.….role`. The role list stays out of the `/agent` bundle.
 */
export const toolTargetOptions = createTargetOptions(targetText("role"));

/** The protocol's schema of a ref (`e12`, `f1e3`). */
export function refSchema() {
  const option = toolTargetOptions.find((candidate) => candidate.entries.by.literal === "ref");
  if (!option || !("ref" in option.entries)) throw new Error("the protocol's target has no ref form");
  return option.entries.ref;
}

/**
 * The protocol's locator schema for `input`: the target option its `by`
 * names, as the protocol's `TargetSchema` (a variant on `by`) picks it, or one
 * that refuses the kind with the protocol's message. Picking here keeps
 * valibot's `variant` out of the `/agent` bundle.
 */
function locatorSchema(input: unknown): v.GenericSchema {
  const by = typeof input === "object" && input !== null ? (input as { by?: unknown }).by : undefined;
  const kinds = toolTargetOptions.map((option) => option.entries.by.literal);
  return toolTargetOptions.find((option) => option.entries.by.literal === by) ?? v.looseObject({ by: v.picklist(kinds, targetKindMessage) }, targetKindMessage);
}

/**
 * A target: a ref string from `observe` (`"e12"`), or a locator object of the
 * protocol (`{ by: "role", role: "button", name: "Sign in" }`). Parsed by the
 * protocol's schemas; see {@link toTarget}. Rendered in JSON Schema by
 * `targetJsonSchema` (the only lazy schema of the tools).
 */
export const targetField = (description: string) =>
  described(
    v.lazy((input: unknown) => (typeof input === "string" ? refSchema() : locatorSchema(input))) as v.GenericSchema<string | ToolTarget, string | ToolTarget>,
    description,
  );

/** `record` without its undefined entries (protocol commands are strict about what they carry): optional tool fields pass on as command fields. */
export function definedOnly<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** The protocol target of a parsed target field. */
export const toTarget = (value: string | ToolTarget): Target => (typeof value === "string" ? { by: "ref", ref: value } : (value as Target));

/** A locator as the tools parse it (any non-empty role: the backend checks it). */
export type ToolTarget = v.InferOutput<(typeof toolTargetOptions)[number]>;

/** Descriptions of the fields of a locator object, by field name (`value` by locator kind). */
const locatorFieldDescriptions: Record<string, string> = {
  by: "How to find it: ref, role (+ name), selector (CSS), or text, label, placeholder, testId (+ value).",
  ref: `A ref from the latest observe, e.g. ${refExample}.`,
  selector: "A CSS selector.",
  name: "The accessible name (case-insensitive substring unless exact).",
  exact: "Match case and the whole string.",
  frame: "CSS selectors of the iframes to enter, outermost first.",
  nth: "Zero-based index among the matches (more than one match is an error without it).",
};
/**
 * The JSON Schema of a target field: a ref string, or one locator object
 * whose `by` names the kind. The protocol's locator variants are merged into
 * that one object (each field keeps its generated type), and the role is a
 * described string rather than the 80-value enum: repeated in every variant
 * of every tool, those made the tool list several times larger. Input is
 * still parsed by the protocol's schemas, so an unknown role or a missing
 * field is refused naming it.
 */
export function targetJsonSchema(refJson: Record<string, unknown>, locatorJson: Record<string, unknown>): Record<string, unknown> {
  const options = (locatorJson.oneOf ?? locatorJson.anyOf ?? []) as Record<string, unknown>[];
  const kinds: string[] = [];
  const merged: Record<string, Record<string, unknown>> = {};
  for (const option of options) {
    const properties = (option.properties ?? {}) as Record<string, Record<string, unknown>>;
    const kind = String((properties.by as { const?: unknown } | undefined)?.const ?? "");
    if (kind) kinds.push(kind);
    for (const [key, property] of Object.entries(properties)) {
      if (key === "by" || key in merged) continue;
      merged[key] = { ...property, description: key === "value" ? valueDescription : locatorFieldDescriptions[key] ?? key };
    }
  }
  if (merged.role) merged.role = { type: "string", description: roleDescription };
  return {
    anyOf: [
      { ...refJson, description: `A ref from the latest observe, e.g. ${refExample} (preferred).` },
      {
        type: "object",
        description: "A locator, when no ref fits.",
        properties: { by: { enum: kinds, description: locatorFieldDescriptions.by }, ...merged },
        required: ["by"],
        additionalProperties: false,
      },
    ],
  };
}

const valueDescription = "The text, label, placeholder or data-testid to match.";
const roleDescription = "The ARIA role, e.g. button, link, textbox, checkbox, combobox, heading, tab, option.";
