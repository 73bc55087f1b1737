/**
 * station-browser-use/openai: the browser tools in the native shapes of
 * OpenAI Chat Completions and OpenAI Responses. Neutral code (web standards
 * only, every runtime); no OpenAI SDK is imported at run time. The tools
 * themselves come from `station-browser-use/agent`.
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
} from "./agent-tools/bridges/openai-chat.js";
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
} from "./agent-tools/bridges/openai-responses.js";
export { type BridgeCallOptions, type ToolCallOutcome } from "./agent-tools/bridges/tool-runner.js";
