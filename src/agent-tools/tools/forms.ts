import * as v from "valibot";
import { commandSchemas, type BrowserCommandInput } from "../../protocol/commands.js";
import { ValidationError } from "../../errors.js";
import { defineBrowserTool, type ToolContext } from "../define-tool.js";
import { described, sessionField, targetField, toTarget } from "../fields.js";
import { agentToolLimits } from "../limits.js";
import { onSession, parseStep, runSteps, type Step } from "../run-action.js";

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
    target: targetField("The field: a ref from station_browser_observe (e.g. e12; preferred), or a locator object."),
    value: v.optional(described(commandSchemas.fill.entries.value, "Text for a text field; replaces what it holds.")),
    secret: v.optional(described(secretName(), "The name of a host secret to put into the field instead of value; you never see the value.")),
    checked: v.optional(described(v.boolean("expected a boolean"), "For a checkbox, radio button or switch: true checks it, false unchecks it.")),
    option: v.optional(described(commandSchemas.select.entries.value, "For a select box: the option's value or label, or an array of them for a multi-select.")),
  },
  "expected a field object",
);

const fieldKinds = ["value", "secret", "checked", "option"] as const;

export const fillTool = defineBrowserTool({
  name: "station_browser_fill",
  group: "default",
  description:
    "Sets form fields in one call: text fields (value, or secret to use a host secret you cannot see), checkboxes and radios (checked), " +
    "select boxes (option). Give one field or a whole form; fields are set in order and the call stops at the first failure. It does not " +
    "submit: click the submit button (or press Enter with station_browser_type) afterwards. Use station_browser_type instead for fields " +
    "that react to each keystroke (autocomplete, search-as-you-type). Values typed into password fields are redacted from results.",
  input: v.strictObject(
    {
      session: sessionField(),
      fields: described(
        v.pipe(
          v.array(FieldSchema, "expected an array of fields"),
          v.minLength(1, "expected at least one field"),
          v.maxLength(agentToolLimits.formFields, `at most ${agentToolLimits.formFields} fields per call`),
        ),
        "The fields to set, in order. Each has a target and exactly one of value, secret, checked or option.",
      ),
    },
    "expected an object of arguments",
  ),
  annotations: { title: "Fill form fields", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run(input, context) {
    const steps = input.fields.map((field, index): Step => {
      const fieldRoot = `input.fields[${index}]`;
      const given = fieldKinds.filter((kind) => field[kind] !== undefined);
      if (given.length !== 1) throw new ValidationError(fieldRoot, `give exactly one of value, secret, checked or option${given.length ? ` (got ${given.join(", ")})` : ""}`);
      const target = toTarget(field.target);
      const label = `field ${index + 1}`;
      if (field.checked !== undefined) return { command: parseStep({ op: field.checked ? "check" : "uncheck", target }, fieldRoot), label, fieldRoot };
      if (field.option !== undefined) return { command: parseStep({ op: "select", target, value: field.option }, fieldRoot), label, fieldRoot };
      const value = field.secret === undefined ? (field.value ?? "") : secretValue(context, field.secret, `${fieldRoot}.secret`);
      return { command: parseStep({ op: "fill", target, value }, fieldRoot), label, fieldRoot, typed: value };
    });
    const what = steps.length === 1 ? "fill" : `fill of ${steps.length} fields`;
    return onSession(context, input.session, (entry) => runSteps(context, entry, steps, what));
  },
});

export const typeTool = defineBrowserTool({
  name: "station_browser_type",
  group: "default",
  description:
    "Types text key by key (into target, or into the focused element) and/or presses a key or combination such as Enter, Tab, Escape, " +
    "ArrowDown or Control+A. Use it for search-as-you-type fields, to press Enter to submit, or for keyboard shortcuts. To set a field's " +
    "value in one go, station_browser_fill is faster. Use secret instead of text to type a host secret you cannot see.",
  input: v.strictObject(
    {
      session: sessionField(),
      target: v.optional(targetField("The element to type into or press the key on (a ref or locator); leave out to use the focused element.")),
      text: v.optional(described(commandSchemas.type.entries.text, "Text to type.")),
      secret: v.optional(described(secretName(), "The name of a host secret to type instead of text; you never see the value.")),
      key: v.optional(described(commandSchemas.press.entries.key, "A key or combination to press after typing: Enter, Tab, Escape, ArrowDown, Control+A, …")),
    },
    "expected an object of arguments",
  ),
  annotations: { title: "Type and press keys", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async run(input, context) {
    if (input.text !== undefined && input.secret !== undefined) throw new ValidationError("input.secret", "give text or secret, not both");
    if (input.text === undefined && input.secret === undefined && input.key === undefined) throw new ValidationError("input.text", "give text, secret or key");
    const target = input.target === undefined ? {} : { target: toTarget(input.target) };
    const steps: Step[] = [];
    const typed = input.secret === undefined ? input.text : secretValue(context, input.secret, "input.secret");
    if (typed !== undefined) steps.push({ command: parseStep({ op: "type", ...target, text: typed }, "input"), label: "typing", fieldRoot: "input", typed });
    if (input.key !== undefined) {
      // After typing, the key goes to the element that now has focus.
      const press: BrowserCommandInput = { op: "press", ...(typed === undefined ? target : {}), key: input.key };
      steps.push({ command: parseStep(press, "input"), label: `pressing ${input.key}`, fieldRoot: "input" });
    }
    const what = [typed === undefined ? undefined : "type", input.key === undefined ? undefined : `press ${input.key}`].filter(Boolean).join(" and ");
    return onSession(context, input.session, (entry) => runSteps(context, entry, steps, what));
  },
});

/** The protocol's upload file, every field described; counts and sizes are checked by the protocol's parser. */
const protocolFile = commandSchemas.upload.entries.files.pipe[0].item;
const UploadFileSchema = v.strictObject(
  {
    name: described(protocolFile.entries.name, "The file name, without slashes."),
    mimeType: v.optional(described(protocolFile.entries.mimeType.wrapped, "The MIME type, e.g. application/pdf.")),
    base64: described(protocolFile.entries.base64, "The file's bytes, standard base64."),
  },
  "expected a file object",
);

export const uploadTool = defineBrowserTool({
  name: "station_browser_upload",
  group: "default",
  description:
    "Sets the files of a file input (at most 16 files, 4 MiB in total), given as base64 bytes. Use it only for file inputs; it does not " +
    "submit the form. Only upload files the user gave you for this purpose.",
  input: v.strictObject(
    {
      session: sessionField(),
      target: targetField("The file input: a ref from observe, or a locator object."),
      files: described(
        v.array(UploadFileSchema, "expected an array of files"),
        "The files (1–16, at most 4 MiB decoded in total), each with name, optional mimeType and base64 bytes.",
      ),
    },
    "expected an object of arguments",
  ),
  annotations: { title: "Upload files", readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run(input, context) {
    const command = parseStep({ op: "upload", target: toTarget(input.target), files: input.files }, "input");
    const names = (result: unknown) => ((result as { files?: { name: string; bytes: number }[] }).files ?? []).map((file) => `${file.name} (${file.bytes} bytes)`);
    return onSession(context, input.session, (entry) =>
      runSteps(context, entry, [{ command, label: "upload", fieldRoot: "input" }], "upload", { note: (result) => `files set: ${names(result).join(", ")}` }),
    );
  },
});
