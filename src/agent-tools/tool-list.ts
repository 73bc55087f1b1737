import type { BrowserToolDefinition } from "./define-tool.js";
import { diagnosticsTool, downloadsTool, mouseTool } from "./tools/extra.js";
import { fillTool, typeTool, uploadTool } from "./tools/forms.js";
import { clickTool, dragTool, hoverTool, scrollTool } from "./tools/interact.js";
import { dialogTool, navigateTool, pagesTool } from "./tools/navigate.js";
import { observeTool, screenshotTool, waitTool } from "./tools/observe.js";
import { checkpointTool, closeTool, openTool } from "./tools/session.js";

/** Every tool definition, in the order a model reads them; a tool with a `group` needs that option. */
export function browserToolDefinitions(): BrowserToolDefinition[] {
  return [
    openTool,
    observeTool,
    navigateTool,
    clickTool,
    fillTool,
    typeTool,
    hoverTool,
    scrollTool,
    dragTool,
    waitTool,
    screenshotTool,
    pagesTool,
    dialogTool,
    uploadTool,
    checkpointTool,
    closeTool,
    mouseTool,
    diagnosticsTool,
    downloadsTool,
  ] as BrowserToolDefinition[];
}
