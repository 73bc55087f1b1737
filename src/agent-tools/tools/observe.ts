import * as v from "valibot";
import { screenshotFormat, screenshotQuality, waitState, waitTimeout } from "../../protocol/command-fields.js";
import { choice, integerIn } from "../../protocol/fields.js";
import { callerLimits } from "../../protocol/limits.js";
import type { CommandResult, InspectedElement } from "../../protocol/results.js";
import { targetText } from "../../protocol/target.js";
import { defineBrowserTool, hints, type ToolContext } from "../define-tool.js";
import { invalidInputReply } from "../failure.js";
import { definedOnly, described, refsExplained, sessionInput, targetField, toTarget } from "../fields.js";
import { agentToolLimits } from "../limits.js";
import { readText } from "../page-probe.js";
import { addPage, outcomeReply, textReply, type ToolReply } from "../reply.js";
import { actionFacts } from "../run-action.js";
import { runCommand, tryOnSession } from "../run-command.js";
import type { SessionEntry } from "../sessions.js";

/** observe · screenshot · wait: reading the page. */

/** Bytes of a result kept for our own lines and the fence around a snapshot. */
const headroomBytes = 512;

const observeModes = ["aria", "interactive", "dom", "text"] as const;

export const observeTool = defineBrowserTool({
  name: "station_browser_observe",
  description:
    `Reads the selected page as text. aria (default): an accessibility tree; ${refsExplained}. interactive: only controls ` +
    "(smaller). dom: elements with CSS-pixel boxes, no refs. text: the visible text, no refs. Use it, not a screenshot, to find " +
    "what to act on, and after a navigation.",
  input: sessionInput({
    mode: v.optional(described(choice(observeModes), "What to read (default aria).")),
    maxBytes: v.optional(described(integerIn(1024, callerLimits.accessibility.bytesMax), "Largest snapshot in bytes (the toolset's text limit applies anyway).")),
  }),
  annotations: hints("Observe page", { readOnlyHint: true, openWorldHint: true }),
  async run(input, context) {
    const mode = input.mode ?? "aria";
    const maxBytes = Math.max(1024, Math.min(input.maxBytes ?? context.options.maxTextBytes, context.options.maxTextBytes - headroomBytes));
    if (mode === "text") return tryOnSession(context, input.session, "observe (text)", (entry) => observeText(context, entry));
    return mode === "dom"
      ? runCommand(context, input.session, { op: "inspect", maxElements: agentToolLimits.domElementsDefault, maxTextLength: 120 }, "observe (dom)", describeDom)
      : runCommand(context, input.session, { op: "accessibility", mode: "agent", maxBytes, interactiveOnly: mode === "interactive" }, `observe (${mode})`, (result, entry) => {
          // The description says that new refs replace the page's older ones; the result only names the page.
          const cut = result.truncated ? " (cut to fit; try mode interactive)" : "";
          return addPage(textReply([`${entry.alias} page ${result.pageId}${cut}:`]), result.snapshot);
        });
  },
});

async function observeText(context: ToolContext, entry: SessionEntry): Promise<ToolReply> {
  const text = await readText(context.backend, entry.id, context.signal);
  const reply = textReply([`${entry.alias} page text (no refs):`]);
  return addPage(reply, text.trim() === "" ? "(no visible text)" : text);
}

function describeDom(result: CommandResult<"inspect">, entry: SessionEntry): ToolReply {
  const { width, height } = result.viewport;
  const reply = textReply([
    `${entry.alias} DOM elements (${result.elements.length}${result.truncated ? ", more not listed" : ""}; no refs: use locators; ` +
      `boxes x,y,width,height in CSS pixels of the ${width}×${height} viewport):`,
  ]);
  return addPage(reply, result.elements.map(describeElement).join("\n"));
}

function describeElement(element: InspectedElement): string {
  const quoted = (key: string, value: string | undefined) => (value === undefined ? "" : ` ${key}=${JSON.stringify(value)}`);
  const { x, y, width, height } = element.box;
  return [
    element.role ?? element.tag,
    element.name === undefined ? "" : ` ${JSON.stringify(element.name)}`,
    quoted("text", element.text),
    quoted("value", element.value),
    quoted("placeholder", element.placeholder),
    quoted("href", element.href),
    quoted("id", element.id),
    element.checked === undefined ? "" : element.checked ? " [checked]" : " [unchecked]",
    element.disabled ? " [disabled]" : "",
    ` box=${x},${y},${width},${height}`,
    element.frame ? ` frame=${JSON.stringify(element.frame)}` : "",
  ].join("");
}

export const screenshotTool = defineBrowserTool({
  name: "station_browser_screenshot",
  description:
    "Returns an image of the selected page's viewport (at most 1280x800) for layout, images, charts or visual state that text " +
    "cannot show. Do not use it to find elements to act on: use station_browser_observe, which gives refs.",
  input: sessionInput({
    format: described(screenshotFormat, 'Image format (default "png"; "jpeg" is smaller).'),
    quality: described(screenshotQuality, "JPEG quality (jpeg only)."),
  }),
  annotations: hints("Screenshot", { readOnlyHint: true, idempotentHint: true, openWorldHint: true }),
  async run(input, context) {
    const { session, ...rest } = input;
    return runCommand(context, session, { op: "screenshot", ...definedOnly(rest) }, "screenshot", (shot, entry) => {
      const scale = shot.scale === 1 ? "" : `; scale ${shot.scale} (image pixels per CSS pixel)`;
      return { isError: false, parts: [{ kind: "text", text: `screenshot of ${entry.alias}: ${shot.width}×${shot.height} ${shot.mimeType}${scale}` }], images: [{ mimeType: shot.mimeType, base64: shot.base64 }] };
    });
  },
});

export const waitTool = defineBrowserTool({
  name: "station_browser_wait",
  description:
    "Waits until an element (target) or a text appears on the selected page, or, with state hidden, goes. Use it after an action " +
    "that starts slow loading; not as a pause, nor for what is already shown (observe instead).",
  input: sessionInput({
    target: v.optional(targetField("The element to wait for. Give target or text.")),
    text: v.optional(described(targetText("text"), "Text to wait for (case-insensitive substring). Give target or text.")),
    state: described(waitState, 'What to wait for (default "visible").'),
    timeoutMs: described(waitTimeout, "How long to wait, in ms (default 10000)."),
  }),
  annotations: hints("Wait for element or text", { readOnlyHint: true, idempotentHint: true, openWorldHint: true }),
  async run(input, context) {
    if ((input.target === undefined) === (input.text === undefined)) return invalidInputReply("input.target: give exactly one of target or text");
    const { session, target, ...rest } = input;
    const command = { op: "waitFor", ...(target === undefined ? {} : { target: toTarget(target) }), ...definedOnly(rest) } as const;
    return runCommand(context, session, command, "wait", (result, entry) => {
      // A wait reports no text change: the outcome line says where the page is only when that is news.
      const facts = actionFacts(result, entry.seen);
      entry.seen = { url: result.url, title: result.title };
      return addPage(outcomeReply("ok", `waited${facts.outcome ? `; ${facts.outcome}` : ""}`), facts.page.join("\n"));
    });
  },
});
