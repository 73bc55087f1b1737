/**
 * The Foundry agent loop: model call, tool calls, repeat, within a budget,
 * ending with a clear reason. Web standards only: it runs wherever the model
 * client and the store run.
 *
 * - Each model answer is committed to the store before its tool calls run,
 *   and their results (tool results first, then the turn's images) before
 *   the next model call: a stopped run resumes from the store.
 * - Budget: `maxTurns` model calls per conversation (resumed runs included),
 *   `maxOutputTokens` per call. No agent-level retries: a failed model call
 *   ends the run (`model-error`), a failed tool call too (`tool-error`),
 *   after its result is committed.
 */
import type { ConversationStore, RunEnding } from "./conversation-store.js";
import type { ModelClient, ModelTurn, ToolCallRecord } from "./model-client.js";

/** The Foundry budget. */
export const foundryBudget = { maxTurns: 14, maxOutputTokens: 600 } as const;

export interface AgentBudget {
  maxTurns: number;
  maxOutputTokens: number;
}

/** Progress, as it happens. */
export type AgentEvent =
  | { type: "turn"; turn: number; maxTurns: number; elapsedMs: number }
  | { type: "model"; turn: number; toolCalls: number; text: string; stopReason: string; outputTokens?: number; elapsedMs: number }
  | { type: "tool"; turn: number; record: ToolCallRecord; elapsedMs: number }
  | { type: "end"; ending: RunEnding; turns: number; elapsedMs: number };

export interface RunAgentOptions<Message> {
  model: ModelClient<Message>;
  store: ConversationStore;
  conversationId: string;
  /** The task of a new conversation; left out to resume a stored one. */
  task?: string;
  budget?: Partial<AgentBudget>;
  onEvent?: (event: AgentEvent) => void;
  signal?: AbortSignal;
  /** Milliseconds, for the elapsed times of the events. Default `Date.now`. */
  now?: () => number;
}

export interface AgentRunResult {
  ending: RunEnding;
  /** Model calls of the conversation so far. */
  turns: number;
  /** The model's last text (its final answer when the reason is `done`). */
  finalText: string;
  /** The tool calls of this run. */
  toolCalls: ToolCallRecord[];
}

function firstLine(text: string, length = 160): string {
  const line = text.split("\n").find((each) => each.trim() !== "") ?? "";
  return line.length > length ? `${line.slice(0, length)}…` : line;
}

/**
 * Runs (or resumes) one conversation until the model answers without tool
 * calls, the turn budget is used up, the model API fails, or a tool call fails.
 *
 * @example
 * ```ts
 * const result = await runAgent({ model, store, conversationId: "c1", task });
 * console.log(result.ending.reason, result.finalText);
 * ```
 */
export async function runAgent<Message>(options: RunAgentOptions<Message>): Promise<AgentRunResult> {
  const { model, store, conversationId: id } = options;
  const budget = { ...foundryBudget, ...options.budget };
  const now = options.now ?? Date.now;
  const startedAt = now();
  const elapsed = () => now() - startedAt;
  const emit = (event: AgentEvent) => options.onEvent?.(event);
  const toolCalls: ToolCallRecord[] = [];

  const stored = await store.load(id);
  let messages: Message[];
  let turns: number;
  if (stored === undefined) {
    if (options.task === undefined) throw new Error(`conversation ${id} is not in the store, and no task was given to start it`);
    messages = model.startConversation(options.task);
    turns = 0;
    await store.append(id, { api: model.api, messages, turns });
  } else {
    if (stored.ending?.reason === "done") return { ending: stored.ending, turns: stored.turns, finalText: "", toolCalls };
    if (stored.api !== model.api) throw new Error(`conversation ${id} holds ${stored.api} messages; resume it with a ${stored.api} model client, not ${model.api}`);
    messages = stored.messages as Message[];
    turns = stored.turns;
    // Tool calls committed without results: the run stopped while they ran. Say so, never run them again.
    const interrupted = model.answerInterrupted(messages);
    if (interrupted !== undefined) {
      messages.push(...interrupted);
      await store.append(id, { api: model.api, messages: interrupted, turns });
    }
  }

  let finalText = "";
  const end = async (ending: RunEnding): Promise<AgentRunResult> => {
    await store.end(id, ending);
    emit({ type: "end", ending, turns, elapsedMs: elapsed() });
    return { ending, turns, finalText, toolCalls };
  };

  while (turns < budget.maxTurns) {
    turns++;
    emit({ type: "turn", turn: turns, maxTurns: budget.maxTurns, elapsedMs: elapsed() });
    let turn: ModelTurn<Message>;
    try {
      turn = await model.complete(messages, { maxOutputTokens: budget.maxOutputTokens, ...(options.signal ? { signal: options.signal } : {}) });
    } catch (error) {
      await store.append(id, { api: model.api, messages: [], turns });
      return end({ reason: "model-error", detail: error instanceof Error ? error.message : String(error) });
    }
    messages.push(...turn.messages);
    await store.append(id, { api: model.api, messages: turn.messages, turns });
    finalText = turn.text;
    emit({ type: "model", turn: turns, toolCalls: turn.toolCalls, text: turn.text, stopReason: turn.stopReason, ...(turn.outputTokens === undefined ? {} : { outputTokens: turn.outputTokens }), elapsedMs: elapsed() });
    if (turn.toolCalls === 0) return end({ reason: "done", detail: firstLine(turn.text) || "(no text)" });

    const results = await model.runToolCalls(turn, options.signal, (record) => emit({ type: "tool", turn: turns, record, elapsedMs: elapsed() }));
    messages.push(...results.messages);
    await store.append(id, { api: model.api, messages: results.messages, turns });
    toolCalls.push(...results.records);
    const failed = results.records.find((record) => record.result.isError === true);
    if (failed !== undefined) return end({ reason: "tool-error", detail: `${failed.name}: ${firstLine(failed.result.text)}` });
    if (results.refused > 0) return end({ reason: "tool-error", detail: `${results.refused} tool call(s) refused by the bridge (unknown tool or arguments that are not JSON)` });
  }
  return end({ reason: "budget", detail: `${budget.maxTurns} turns used without a final answer` });
}
