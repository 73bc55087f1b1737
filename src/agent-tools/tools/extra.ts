import * as v from "valibot";
import { diagnosticsSince, downloadOffset } from "../../protocol/command-fields.js";
import type { BrowserCommand } from "../../protocol/commands.js";
import { ValidationError } from "../../errors.js";
import { PointSchema, choice, clickCount, downloadId, mouseButton } from "../../protocol/fields.js";
import { callerLimits } from "../../protocol/limits.js";
import type { CommandResult, DiagnosticsEvent } from "../../protocol/results.js";
import { defineBrowserTool, hints } from "../define-tool.js";
import { definedOnly, described, sessionInput } from "../fields.js";
import { addPage, outcomeReply, textReply, type ToolReply } from "../reply.js";
import type { ActionCommand } from "../run-action.js";
import { runAction, runCommand } from "../run-command.js";

/** Groups enabled by option: coordinates (mouse), diagnostics, downloads. */

const mouseActions = ["click", "move", "drag"] as const;
const coordinate = (what: string) => described(PointSchema.entries.x, what);

export const mouseTool = defineBrowserTool({
  name: "station_browser_mouse",
  group: "coordinates",
  description:
    "Clicks, moves or drags the mouse at viewport CSS-pixel coordinates (from observe mode dom boxes, or screenshot pixels " +
    "divided by its scale). Only for canvases, maps and widgets without usable elements; otherwise click a ref (more reliable).",
  input: sessionInput({
    action: described(choice(mouseActions), "click or move at x,y, or drag from x,y to toX,toY."),
    x: coordinate("X from the viewport's left edge."),
    y: coordinate("Y from the viewport's top edge."),
    toX: v.optional(coordinate("For drag: the X to drag to.")),
    toY: v.optional(coordinate("For drag: the Y to drag to.")),
    button: v.optional(described(mouseButton.wrapped, 'For click (default "left").')),
    clickCount: v.optional(described(clickCount.wrapped, "For click: 2 for a double click.")),
  }),
  annotations: hints("Mouse at coordinates", { destructiveHint: true, openWorldHint: true }),
  async run(input, context) {
    const { x, y } = input;
    if (input.action === "drag" && (input.toX === undefined || input.toY === undefined)) {
      throw new ValidationError(input.toX === undefined ? "input.toX" : "input.toY", 'required with action "drag"');
    }
    if (input.action !== "drag" && (input.toX !== undefined || input.toY !== undefined)) {
      throw new ValidationError(input.toX === undefined ? "input.toY" : "input.toX", 'only allowed with action "drag"');
    }
    const command: ActionCommand =
      input.action === "click"
        ? { op: "mouseClick", x, y, ...(input.button ? { button: input.button } : {}), ...(input.clickCount ? { clickCount: input.clickCount } : {}) }
        : input.action === "move"
          ? { op: "mouseMove", x, y }
          : { op: "dragCoordinates", from: { x, y }, to: { x: input.toX!, y: input.toY! } };
    return runAction(context, input.session, command, `mouse ${input.action}`);
  },
});

export const diagnosticsTool = defineBrowserTool({
  name: "station_browser_diagnostics",
  group: "diagnostics",
  description:
    "Lists recent console messages, page errors, failed requests and HTTP errors of a session (URLs without query strings). Use it " +
    "when a page misbehaves or an action seems to do nothing.",
  input: sessionInput({
    since: described(diagnosticsSince, "Only events after this number: the next since of an earlier call."),
  }),
  annotations: hints("Diagnostics", { readOnlyHint: true, idempotentHint: true }),
  async run(input, context) {
    return runCommand(context, input.session, { op: "diagnostics", ...definedOnly({ since: input.since }) }, "diagnostics", (result, entry) => {
      const reply = textReply([
        `${entry.alias}: ${result.events.length} events${result.dropped ? `, ${result.dropped} dropped before they were read` : ""}; next since: ${result.nextSeq}`,
      ]);
      return addPage(reply, result.events.map(describeEvent).join("\n"));
    });
  },
});

function describeEvent(event: DiagnosticsEvent): string {
  return [
    `#${event.seq} ${event.kind}`,
    event.level ? ` ${event.level}` : "",
    event.status === undefined ? "" : ` ${event.status}`,
    event.pageId ? ` ${event.pageId}` : "",
    event.url ? ` ${event.url}` : "",
    event.text ? ` ${JSON.stringify(event.text)}` : "",
  ].join("");
}

const downloadActions = ["list", "read", "delete"] as const;

export const downloadsTool = defineBrowserTool({
  name: "station_browser_downloads",
  group: "downloads",
  description:
    "Lists the files a session downloaded, reads one as text (UTF-8 only; binary files are reported by size) or deletes one. Use " +
    "it after a click started a download. It cannot save files anywhere.",
  input: sessionInput({
    action: described(choice(downloadActions), "What to do."),
    download: v.optional(described(downloadId, "The download id (d1, …) to read or delete.")),
    offset: described(downloadOffset, "For read: the byte offset to start at (default 0)."),
  }),
  annotations: hints("Downloads"),
  async run(input, context) {
    if (input.action !== "list" && input.download === undefined) throw new ValidationError("input.download", `required with action "${input.action}"`);
    const length = Math.min(context.options.maxTextBytes, callerLimits.downloads.readBytesMax);
    const command: BrowserCommand =
      input.action === "list"
        ? { op: "downloads" }
        : input.action === "read"
          ? { op: "downloadRead", downloadId: input.download!, length, ...(input.offset === undefined ? {} : { offset: input.offset }) }
          : { op: "downloadDelete", downloadId: input.download! };
    return runCommand(context, input.session, command, `downloads ${input.action}`, (result, entry) => describeDownloads(result as DownloadsResult, entry.alias), input.action === "delete");
  },
});

type DownloadsResult = CommandResult<"downloads"> | CommandResult<"downloadRead"> | CommandResult<"downloadDelete">;

function describeDownloads(result: DownloadsResult, alias: string): ToolReply {
  if ("downloads" in result) {
    const lines = result.downloads.map((download) => `${download.downloadId} ${download.state}${download.bytes === undefined ? "" : ` ${download.bytes} bytes`} ${JSON.stringify(download.fileName)} from ${download.url}`);
    return addPage(textReply([`${alias}: ${result.downloads.length} downloads`]), lines.join("\n"));
  }
  if ("base64" in result) {
    const text = decodeUtf8(result.base64);
    const range = `bytes ${result.offset}–${result.offset + result.bytes} of ${result.totalBytes}${result.more ? `; more from offset ${result.offset + result.bytes}` : ""}`;
    if (text === undefined) return textReply([`${result.downloadId}: binary content (${range}); it cannot be shown as text`]);
    return addPage(textReply([`${result.downloadId} (${range}):`]), text);
  }
  return outcomeReply("ok", `${result.downloadId} deleted`);
}

/** UTF-8 text of base64 bytes, or undefined when they are not UTF-8 text. */
function decodeUtf8(base64: string): string | undefined {
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
  try {
    // Streaming: a character cut at the end of the chunk is not an error.
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    // Control characters other than whitespace mean binary.
    return /[\u0000-\u0008\u000e-\u001f]/.test(text) ? undefined : text;
  } catch {
    return undefined;
  }
}
