/**
 * The agent's browser tools (neutral code: web standards only). Exported
 * from `station-browser-use/agent`.
 */
export {
  createBrowserAgentTools,
  type BrowserAgentTools,
  type CloseReport,
  type ReconcileReport,
  type ClosedSession,
  type UnresolvedSession,
} from "./toolset.js";
export {
  resolveBrowserAgentToolsOptions,
  agentToolGroups,
  type AgentToolGroup,
  type BrowserAgentToolsOptions,
  type ResolvedBrowserAgentToolsOptions,
} from "./options.js";
export { agentToolLimits } from "./limits.js";
export { fenceName } from "./fence.js";
export type { TakeoverNotice } from "./takeover.js";
export type { AgentTool, ToolResult, ToolImage, ToolInputSchema, ToolAnnotations, ToolCallOptions } from "./types.js";
