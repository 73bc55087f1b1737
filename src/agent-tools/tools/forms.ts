import * as v from "valibot";
import { fillValue, pressKey, selectValue, typeText, uploadFileEntries } from "../../protocol/command-fields.js";
import { ValidationError } from "../../errors.js";
import { defineBrowserTool, hints, type ToolContext } from "../define-tool.js";
import { described, sessionInput, targetField, toTarget } from "../fields.js";
import { agentToolLimits } from "../limits.js";
import { onSession, runSteps, type Step } from "../run-action.js";
import { runAction } from "../run-command.js";

/** fill · type · upload: putting values into the page. */

const secretName = () =>
  v.pipe(
    v.string("expected a secret name as a string"),
    v.minLength(1, "expected a non-empty secret name"),
    v.maxLength(agentToolLimits.secretNameLength, `longer than ${agentToolLimits.secretNameLength} characters`),
  );

/** The value of a host secret, or a ValidationError naming `field` (never the value). */
function secretValue(context: ToolContext, name: string, field: string): string {
  const value = context.options.secrets.get(name);
  if (value !== undefined) return value;
  const names = [...context.options.secrets.keys()];
  throw new ValidationError(field, names.length ? `unknown secret; the host provides: ${names.join(", ")}` : "the host provides no secrets");
}

const FieldSchema = v.strictObject(
  {
    target: targetField("The field."),
    value: v.optional(described(fillValue, "Text for a text field (replaces its content).")),
    secret: v.optional(described(secretName(), "Instead of value: the name of a host secret (you never see its value).")),
    checked: v.optional(described(v.boolean("expected a boolean"), "For a checkbox, radio or switch: check (true) or uncheck (false).")),
    option: v.optional(described(selectValue, "For a select box: the option's value or label (an array for a multi-select).")),
  },
  "expected a field object",
);

const fieldKinds = ["value", "secret", "checked", "option"] as const;

export const fillTool = defineBrowserTool({
  name: "station_browser_fill",
  description:
    "Sets form fields in order, stopping at the first failure: text fields (value or secret), checkboxes and radios (checked), " +
    "selects (option). It does not submit: click the submit button or press Enter with station_browser_type, which also suits " +
    "fields that react to each keystroke (autocomplete).",
  input: sessionInput({
      fields: described(
        v.pipe(
          v.array(FieldSchema, "expected an array of fields"),
          v.minLength(1, "expected at least one field"),
          v.maxLength(agentToolLimits.formFields, `at most ${agentToolLimits.formFields} fields per call`),
        ),
        "The fields to set, in order; each has a target and one of value, secret, checked or option.",
      ),
  }),
  annotations: hints("Fill form fields", { idempotentHint: true, openWorldHint: true }),
  async run(input, context) {
    const steps = input.fields.map((field, index): Step => {
      const fieldRoot = `input.fields[${index}]`;
      const given = fieldKinds.filter((kind) => field[kind] !== undefined);
      if (given.length !== 1) throw new ValidationError(fieldRoot, `give exactly one of value, secret, checked or option${given.length ? ` (got ${given.join(", ")})` : ""}`);
      const target = toTarget(field.target);
      const label = `field ${index + 1}`;
      if (field.checked !== undefined) return { command: { op: field.checked ? "check" : "uncheck", target }, label, fieldRoot };
      if (field.option !== undefined) return { command: { op: "select", target, value: field.option }, label, fieldRoot };
      const value = field.secret === undefined ? (field.value ?? "") : secretValue(context, field.secret, `${fieldRoot}.secret`);
      return { command: { op: "fill", target, value }, label, fieldRoot, typed: value };
    });
    const what = steps.length === 1 ? "fill" : `fill of ${steps.length} fields`;
    return onSession(context, input.session, (entry) => runSteps(context, entry, steps, what));
  },
});

export const typeTool = defineBrowserTool({
  name: "station_browser_type",
  description:
    "Types text key by key into target (or the focused element), then presses key if given (Enter, Tab, Escape, ArrowDown, " +
    "Control+A…). For search-as-you-type, Enter and shortcuts; station_browser_fill sets plain fields faster.",
  input: sessionInput({
    target: v.optional(targetField("The element to type into; leave out for the focused element.")),
    text: v.optional(described(typeText, "Text to type.")),
    secret: v.optional(described(secretName(), "Instead of text: the name of a host secret (you never see its value).")),
    key: v.optional(described(pressKey, "A key or combination to press after typing.")),
  }),
  annotations: hints("Type and press keys", { destructiveHint: true, openWorldHint: true }),
  async run(input, context) {
    if (input.text !== undefined && input.secret !== undefined) throw new ValidationError("input.secret", "give text or secret, not both");
    if (input.text === undefined && input.secret === undefined && input.key === undefined) throw new ValidationError("input.text", "give text, secret or key");
    const target = input.target === undefined ? {} : { target: toTarget(input.target) };
    const steps: Step[] = [];
    const typed = input.secret === undefined ? input.text : secretValue(context, input.secret, "input.secret");
    if (typed !== undefined) steps.push({ command: { op: "type", ...target, text: typed }, label: "typing", fieldRoot: "input", typed });
    if (input.key !== undefined) {
      // After typing, the key goes to the element that now has focus.
      steps.push({ command: { op: "press", ...(typed === undefined ? target : {}), key: input.key }, label: `pressing ${input.key}`, fieldRoot: "input" });
    }
    const what = [typed === undefined ? undefined : "type", input.key === undefined ? undefined : `press ${input.key}`].filter(Boolean).join(" and ");
    return onSession(context, input.session, (entry) => runSteps(context, entry, steps, what));
  },
});

const UploadFileSchema = v.strictObject(
  {
    name: described(uploadFileEntries.name, "The file name, without slashes."),
    mimeType: v.optional(described(uploadFileEntries.mimeType.wrapped, "The MIME type, e.g. application/pdf.")),
    base64: described(uploadFileEntries.base64, "The file's bytes in standard base64."),
  },
  "expected a file object",
);

export const uploadTool = defineBrowserTool({
  name: "station_browser_upload",
  description:
    "Sets the files of a file input (1-16 files, 4 MiB in total, as base64). It does not submit the form. Only upload files the " +
    "user gave you for this purpose.",
  input: sessionInput({
    target: targetField("The file input."),
    files: described(v.array(UploadFileSchema, "expected an array of files"), "The files, each with name, optional mimeType and base64 bytes."),
  }),
  annotations: hints("Upload files", { destructiveHint: true, idempotentHint: true, openWorldHint: true }),
  async run(input, context) {
    const names = (result: unknown) => ((result as { files?: { name: string; bytes: number }[] }).files ?? []).map((file) => `${file.name} (${file.bytes} bytes)`);
    return runAction(context, input.session, { op: "upload", target: toTarget(input.target), files: input.files }, "upload", { note: (result) => `files set: ${names(result).join(", ")}` });
  },
});
