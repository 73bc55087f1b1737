import * as v from "valibot";
import { commandSchemas, type BrowserCommandInput } from "../../protocol/commands.js";
import { ValidationError } from "../../errors.js";
import { PointSchema } from "../../protocol/fields.js";
import { limits } from "../../protocol/limits.js";
import type { DiagnosticsEvent } from "../../protocol/results.js";
import { defineBrowserTool } from "../define-tool.js";
import { failureReply } from "../failure.js";
import { described, sessionField } from "../fields.js";
import { addPage, textReply } from "../reply.js";
import { onSession, parseStep, runSteps } from "../run-action.js";

/** Groups enabled by option: coordinates (mouse), diagnostics, downloads. */

const mouseActions = ["click", "move", "drag"] as const;
const coordinate = (what: string) => described(PointSchema.entries.x, what);

export const mouseTool = defineBrowserTool({
  name: "station_browser_mouse",
  group: "coordinates",
  description:
    "Clicks, moves or drags the mouse at CSS-pixel coordinates of the viewport (from station_browser_observe mode dom boxes, or a screenshot " +
    "divided by its scale). Use it only for canvases, maps and widgets without usable elements; otherwise click a ref, which is more reliable.",
  input: v.strictObject(
    {
      session: sessionField(),
      action: described(v.picklist(mouseActions, 'expected "click", "move" or "drag"'), '"click", "move", or "drag" (from x,y to toX,toY).'),
      x: coordinate("X in CSS pixels from the viewport's left edge."),
      y: coordinate("Y in CSS pixels from the viewport's top edge."),
      toX: v.optional(coordinate("For drag: the X to drag to.")),
      toY: v.optional(coordinate("For drag: the Y to drag to.")),
      button: v.optional(described(commandSchemas.mouseClick.entries.button.wrapped, 'For click: "left" (default), "right" or "middle".')),
      clickCount: v.optional(described(commandSchemas.mouseClick.entries.clickCount.wrapped, "For click: 2 for a double click.")),
    },
    "expected an object of arguments",
  ),
  annotations: { title: "Mouse at coordinates", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async run(input, context) {
    const { x, y } = input;
    if (input.action === "drag" && (input.toX === undefined || input.toY === undefined)) {
      throw new ValidationError(input.toX === undefined ? "input.toX" : "input.toY", 'required with action "drag"');
    }
    if (input.action !== "drag" && (input.toX !== undefined || input.toY !== undefined)) {
      throw new ValidationError(input.toX === undefined ? "input.toY" : "input.toX", 'only allowed with action "drag"');
    }
    const raw: BrowserCommandInput =
      input.action === "click"
        ? { op: "mouseClick", x, y, ...(input.button ? { button: input.button } : {}), ...(input.clickCount ? { clickCount: input.clickCount } : {}) }
        : input.action === "move"
          ? { op: "mouseMove", x, y }
          : { op: "dragCoordinates", from: { x, y }, to: { x: input.toX!, y: input.toY! } };
    const command = parseStep(raw, "input");
    return onSession(context, input.session, (entry) => runSteps(context, entry, [{ command, label: command.op, fieldRoot: "input" }], `mouse ${input.action}`));
  },
});

export const diagnosticsTool = defineBrowserTool({
  name: "station_browser_diagnostics",
  group: "diagnostics",
  description:
    "Lists recent console messages, page errors, failed requests and HTTP errors of a session (URLs without query strings). Use it when a " +
    "page misbehaves or an action seems to do nothing. Pass since (the next value from the last call) to see only newer events.",
  input: v.strictObject(
    {
      session: sessionField(),
      since: v.optional(described(commandSchemas.diagnostics.entries.since.wrapped, "Only events after this sequence number (the 'next' of an earlier call).")),
    },
    "expected an object of arguments",
  ),
  annotations: { title: "Diagnostics", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(input, context) {
    const command = parseStep({ op: "diagnostics", ...(input.since === undefined ? {} : { since: input.since }) }, "input");
    return onSession(context, input.session, async (entry) => {
      try {
        const result = await context.backend.execute(entry.id, command, context.signal ? { signal: context.signal } : {});
        const reply = textReply([
          `${entry.alias}: ${result.events.length} events${result.dropped ? `, ${result.dropped} dropped before they were read` : ""}; next since: ${result.nextSeq}`,
        ]);
        return addPage(reply, result.events.map(describeEvent).join("\n"));
      } catch (error) {
        return failureReply(error, { action: "diagnostics", mutating: false, fieldRoot: "input", scrub: (text) => context.sessions.scrub(text) });
      }
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
    "Lists the files a session downloaded, reads one as text (UTF-8 files only; binary files are reported by size), or deletes one. " +
    "Use it after a click started a download. It cannot save files anywhere.",
  input: v.strictObject(
    {
      session: sessionField(),
      action: described(v.picklist(downloadActions, 'expected "list", "read" or "delete"'), '"list", "read" or "delete".'),
      download: v.optional(described(commandSchemas.downloadRead.entries.downloadId, "The download id (d1, …) to read or delete.")),
      offset: v.optional(described(commandSchemas.downloadRead.entries.offset.wrapped, "For read: the byte offset to start at (default 0).")),
    },
    "expected an object of arguments",
  ),
  annotations: { title: "Downloads", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(input, context) {
    if (input.action !== "list" && input.download === undefined) throw new ValidationError("input.download", `required with action "${input.action}"`);
    const length = Math.min(context.options.maxTextBytes, limits.downloads.readBytesMax);
    const raw: BrowserCommandInput =
      input.action === "list"
        ? { op: "downloads" }
        : input.action === "read"
          ? { op: "downloadRead", downloadId: input.download!, length, ...(input.offset === undefined ? {} : { offset: input.offset }) }
          : { op: "downloadDelete", downloadId: input.download! };
    const command = parseStep(raw, "input");
    return onSession(context, input.session, async (entry) => {
      try {
        const result = await context.backend.execute(entry.id, command, context.signal ? { signal: context.signal } : {});
        if ("downloads" in result) {
          const lines = result.downloads.map((download) => `${download.downloadId} ${download.state}${download.bytes === undefined ? "" : ` ${download.bytes} bytes`} ${JSON.stringify(download.fileName)} from ${download.url}`);
          return addPage(textReply([`${entry.alias}: ${result.downloads.length} downloads`]), lines.join("\n"));
        }
        if ("base64" in result) {
          const text = decodeUtf8(result.base64);
          const range = `bytes ${result.offset}–${result.offset + result.bytes} of ${result.totalBytes}${result.more ? `; more from offset ${result.offset + result.bytes}` : ""}`;
          if (text === undefined) return textReply([`${result.downloadId}: binary content (${range}); it cannot be shown as text`]);
          return addPage(textReply([`${result.downloadId} (${range}):`]), text);
        }
        return textReply([`outcome: ok — ${result.downloadId} deleted`]);
      } catch (error) {
        return failureReply(error, { action: `downloads ${input.action}`, mutating: input.action === "delete", fieldRoot: "input", scrub: (text) => context.sessions.scrub(text) });
      }
    });
  },
});

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
