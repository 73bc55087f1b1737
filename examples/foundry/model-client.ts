/**
 * What the Foundry loop needs from a model API. One implementation per API,
 * each over the project's own bridge for it (`openAIChatTools`,
 * `anthropicTools`, `openAIResponsesTools`): the bridge declares the tools,
 * runs the calls and shapes the results, screenshots included, in that API's
 * native form. Web standards only (fetch), like the bridges.
 */
import type { AgentTool, ToolResult } from "../../src/agent.js";

/** One finished tool call, as the loop reports it. */
export interface ToolCallRecord {
  name: string;
  input: unknown;
  result: ToolResult;
}

/** One answer of the model. */
export interface ModelTurn<Message> {
  /** The assistant message(s) to commit to the conversation, as the API returned them. */
  messages: Message[];
  /** The tool calls it asked for (0: the model has finished). */
  toolCalls: number;
  /** Its text (the final answer when there are no tool calls). */
  text: string;
  /** Why it stopped (`stop`, `tool_calls`, `end_turn`, `max_tokens`…), as the API said. */
  stopReason: string;
  /** Output tokens the API reported for this call, when it did. */
  outputTokens?: number;
}

/** What running a turn's tool calls gave back. */
export interface ToolTurn<Message> {
  /** In order: the tool results, then (for Chat Completions) the user message carrying the turn's images. */
  messages: Message[];
  /** The calls that reached a tool, in order. */
  records: ToolCallRecord[];
  /**
   * Calls the bridge answered with an error without running a tool (unknown
   * tool, arguments that are not JSON); each is a tool error too.
   */
  refused: number;
}

/** Per-call options of {@link ModelClient.complete}. */
export interface CompleteOptions {
  /** The output budget of this call (the Foundry default: 600). */
  maxOutputTokens: number;
  signal?: AbortSignal;
}

/** A model API as the loop drives it. `Message` is the API's own message (or input item) shape. */
export interface ModelClient<Message = unknown> {
  /** `"openai-chat"`, `"anthropic"`, `"openai-responses"`: a stored conversation resumes only with the same API. */
  readonly api: string;
  /** The model name sent to the API. */
  readonly model: string;
  /** The conversation's first messages: the system instructions and the task. */
  startConversation(task: string): Message[];
  /** One model call over the whole conversation. Throws {@link ModelError} when the API fails or answers nonsense. */
  complete(messages: readonly Message[], options: CompleteOptions): Promise<ModelTurn<Message>>;
  /** Runs the turn's tool calls through the bridge, one after another, telling `onCall` as each finishes. Never throws. */
  runToolCalls(turn: ModelTurn<Message>, signal?: AbortSignal, onCall?: (record: ToolCallRecord) => void): Promise<ToolTurn<Message>>;
  /**
   * For resuming: when the conversation ends with tool calls that have no
   * results (the run stopped while they ran), the results to commit for them,
   * saying that their outcome is unknown. Undefined when nothing is pending.
   */
  answerInterrupted(messages: readonly Message[]): Message[] | undefined;
}

/** A failed model call: the API's status and message, never its key. */
export class ModelError extends Error {
  override name = "ModelError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** What a tool call whose run was interrupted answers on resume. */
export const interruptedResult: ToolResult = {
  text: "outcome: unknown — the agent stopped while this call ran, so it may or may not have happened. Observe the page before deciding; do not repeat it blindly.",
  images: [],
  isError: true,
};

/** Tools that record their calls, for one client. */
export interface RecordingTools {
  /** Pass these to the bridge. */
  tools: AgentTool[];
  /**
   * The signal for one batch of calls: it follows `signal`, and it aborts as
   * soon as a call fails, so the bridge answers the batch's later calls as
   * not run (a failed step is never followed by the next one). `onCall`
   * hears each call of the batch as it finishes.
   */
  startBatch(signal?: AbortSignal, onCall?: (record: ToolCallRecord) => void): AbortSignal;
  /** The calls recorded since the last take. */
  take(): ToolCallRecord[];
}

/**
 * The tools with each call recorded: the clients pass these to their bridge,
 * so the loop learns each result (and whether it failed) while the bridge
 * still does all the formatting.
 */
export function recordingTools(tools: readonly AgentTool[]): RecordingTools {
  let records: ToolCallRecord[] = [];
  let batch = new AbortController();
  let listener: ((record: ToolCallRecord) => void) | undefined;
  const wrapped = tools.map(
    (tool): AgentTool => ({
      ...tool,
      async execute(input, options) {
        const result = await tool.execute(input, options);
        const record = { name: tool.name, input, result };
        records.push(record);
        if (result.isError === true) batch.abort();
        listener?.(record);
        return result;
      },
    }),
  );
  return {
    tools: wrapped,
    startBatch(signal, onCall) {
      batch = new AbortController();
      listener = onCall;
      records = [];
      return signal === undefined ? batch.signal : AbortSignal.any([signal, batch.signal]);
    },
    take() {
      const taken = records;
      records = [];
      return taken;
    },
  };
}

/** POSTs JSON with fetch, `headers` carrying `apiKey`; a non-2xx answer or a body that is not JSON is a {@link ModelError} (with the API's message, bounded). */
export async function postJson(fetcher: typeof fetch, url: string, apiKey: string, headers: Record<string, string>, body: unknown, signal?: AbortSignal): Promise<any> {
  let response: Response;
  try {
    response = await fetcher(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body), ...(signal ? { signal } : {}) });
  } catch (error) {
    throw new ModelError(`request to ${new URL(url).origin} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await response.text();
  if (!response.ok) {
    let detail = text;
    try {
      detail = JSON.parse(text)?.error?.message ?? text;
    } catch {
      // Not JSON: keep the text.
    }
    // An API may quote the key it was sent: it never reaches the message.
    const shown = String(detail).split(apiKey).join("[api key]").slice(0, 300);
    throw new ModelError(`${new URL(url).pathname} answered ${response.status}: ${shown}`, response.status);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ModelError(`${new URL(url).pathname} answered ${response.status} with a body that is not JSON`);
  }
}
