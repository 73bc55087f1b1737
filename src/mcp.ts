/**
 * station-browser-use/mcp: the browser tools as an MCP server
 * (@modelcontextprotocol/sdk). `createMcpServer` runs wherever the SDK's
 * `Server` does; the stdio command is `station-browser-use mcp`.
 */
export { createMcpServer, type McpServerOptions } from "./mcp/server.js";
export {
  toMcpTool,
  toMcpCallToolResult,
  mcpToolNamePattern,
  type McpToolDefinition,
  type McpCallToolResult,
  type McpTextContent,
  type McpImageContent,
} from "./agent-tools/bridges/mcp-content.js";
