/**
 * station-browser-use/agent: what an agent app needs on any runtime (Node,
 * Deno, Bun, Cloudflare Workers, edge): the worker client and the browser
 * tools. The model bridges have entries of their own, so an app loads only
 * the one it uses: `station-browser-use/openai` (Chat Completions and
 * Responses) and `station-browser-use/anthropic`.
 */
export {
  BrowserUseClient,
  resolveClientOptions,
  type ClientCallOptions,
  type BrowserUseClientOptions,
  type ResolvedBrowserUseClientOptions,
  type ClientRetryOptions,
  type LiveFrame,
  type LiveView,
} from "./client/index.js";
export {
  createBrowserAgentTools,
  resolveBrowserAgentToolsOptions,
  agentToolGroups,
  agentToolLimits,
  fenceName,
  type BrowserAgentTools,
  type BrowserAgentToolsOptions,
  type ResolvedBrowserAgentToolsOptions,
  type AgentToolGroup,
  type CloseReport as AgentToolsCloseReport,
  type ReconcileReport as AgentToolsReconcileReport,
  type ClosedSession,
  type UnresolvedSession,
  type AgentTool,
  type ToolResult,
  type ToolImage,
  type ToolInputSchema,
  type ToolAnnotations,
  type ToolCallOptions,
  type TakeoverNotice,
} from "./agent-tools/index.js";
