/**
 * Model bridges: the browser tools in the native shapes of OpenAI Chat
 * Completions, OpenAI Responses and Anthropic Messages. Neutral code (web
 * standards only); no model SDK is imported at run time. The Vercel AI SDK
 * bridge lives in `station-browser-use/ai-sdk`, the MCP server in
 * `station-browser-use/mcp`.
 */
export {
  openAIChatTools,
  toOpenAIChatMessages,
  openAIToolNamePattern,
  type OpenAIChatToolsOptions,
  type OpenAIChatToolset,
  type OpenAIChatFunctionTool,
  type OpenAIChatToolCall,
  type OpenAIChatToolMessage,
  type OpenAIChatImageMessage,
  type OpenAIChatTextPart,
  type OpenAIChatImagePart,
  type OpenAIChatResultMessage,
  type OpenAIImageDetail,
} from "./openai-chat.js";
export {
  openAIResponsesTools,
  toOpenAIResponsesOutput,
  type OpenAIResponsesToolsOptions,
  type OpenAIResponsesToolset,
  type OpenAIResponsesFunctionTool,
  type OpenAIResponsesOutputItem,
  type OpenAIResponsesFunctionCallOutput,
  type OpenAIResponsesInputText,
  type OpenAIResponsesInputImage,
} from "./openai-responses.js";
export {
  anthropicTools,
  toAnthropicToolResult,
  toAnthropicToolResultMessage,
  anthropicToolNamePattern,
  type AnthropicToolset,
  type AnthropicTool,
  type AnthropicContentBlock,
  type AnthropicToolResultBlock,
  type AnthropicToolResultMessage,
  type AnthropicTextBlock,
  type AnthropicImageBlock,
} from "./anthropic.js";
export { type BridgeCallOptions, type ToolCallOutcome } from "./tool-runner.js";
