/**
 * station-browser-use/agent: what an agent app needs on any runtime (Node,
 * Deno, Bun, Cloudflare Workers, edge): the worker client, the browser tools
 * and the model bridges (OpenAI Chat Completions and Responses, Anthropic).
 */
export {
  BrowserUseClient,
  resolveClientOptions,
  type ClientCallOptions,
  type BrowserUseClientOptions,
  type ResolvedBrowserUseClientOptions,
  type ClientRetryOptions,
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
export * from "./agent-tools/bridges/index.js";
