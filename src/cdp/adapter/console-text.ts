/**
 * The text of a console message and of a page error from their CDP events,
 * as Playwright composes them (`ConsoleMessage.text()`, `pageerror`'s
 * `error.message`), so both engines' diagnostics read the same.
 */
import type { ExceptionDetails, RemoteObject } from "../protocol.js";

/** One argument of a console call, as Playwright previews it. */
function previewOf(arg: RemoteObject): string {
  if (!arg.objectId) {
    if (arg.type === "undefined") return "undefined";
    return arg.unserializableValue ?? String(arg.value);
  }
  const preview = arg.preview;
  if (arg.description === "Object" && preview) return `{${preview.properties.map(({ name, value }) => `${name}: ${value}`).join(", ")}}`;
  if (arg.subtype === "array" && preview) return arrayPreview(preview.properties);
  return arg.description || `JSHandle@${arg.subtype ?? arg.type}`;
}

/** An array's preview: its entries in index order, holes as `empty` or `empty x n`. */
function arrayPreview(properties: Array<{ name: string; value?: string }>): string {
  const entries = properties.flatMap(({ name, value }) => (Number.isInteger(+name) && +name >= 0 ? [{ index: +name, value }] : [])).sort((a, b) => a.index - b.index);
  const tokens: string[] = [];
  let last = -1;
  for (const { index, value } of entries) {
    const holes = index - last - 1;
    if (holes === 1) tokens.push("empty");
    else if (holes > 1) tokens.push(`empty x ${holes}`);
    tokens.push(String(value));
    last = index;
  }
  return `[${tokens.join(", ")}]`;
}

/** The text of a `Runtime.consoleAPICalled` message: its arguments' previews joined by spaces. */
export function consoleTextOf(args: RemoteObject[]): string {
  return args.map(previewOf).join(" ");
}

/** The message of an uncaught exception: its description up to the stack, without the error's name. */
export function pageErrorMessageOf(details: ExceptionDetails): string {
  const described = details.exception ? details.exception.description || String(details.exception.value) : details.text;
  const lines = described.split("\n");
  const stackAt = lines.findIndex((line) => line.startsWith("    at"));
  const withName = stackAt === -1 ? described : lines.slice(0, stackAt).join("\n");
  const colon = withName.indexOf(":");
  return colon !== -1 && colon + 2 <= withName.length ? withName.substring(colon + 2) : withName;
}
