/**
 * Where the Foundry loop keeps its conversations. The loop commits each
 * model answer before it runs the answer's tool calls, and the tool results
 * before the next model call, so a run that stopped (an error, a budget, a
 * crash) resumes from what was committed. Replace the in-memory store with a
 * durable one (a database row per conversation, an append-only log) to
 * resume across processes; see README.md.
 */

/** How a run ended. */
export type RunEndingReason = "done" | "budget" | "model-error" | "tool-error";

export interface RunEnding {
  reason: RunEndingReason;
  /** One line for people: the final answer's start, the error, the budget hit. */
  detail: string;
}

/** A stored conversation. */
export interface ConversationRecord<Message = unknown> {
  id: string;
  /** The model API its messages are shaped for (see `ModelClient.api`). */
  api: string;
  messages: Message[];
  /** Model calls made so far (the turn budget counts them). */
  turns: number;
  /** Set when a run ended; a resumed run clears it. */
  ending?: RunEnding;
}

/** The store the loop writes to. Every method may be async (a database, a file, a KV store). */
export interface ConversationStore {
  load(id: string): Promise<ConversationRecord | undefined>;
  /** Creates the conversation if needed, then appends `messages` and records the turn count; clears an ending. */
  append(id: string, update: { api: string; messages: readonly unknown[]; turns: number }): Promise<void>;
  /** Records how a run ended. */
  end(id: string, ending: RunEnding): Promise<void>;
}

/**
 * A store in this process's memory: it keeps copies (what it returns cannot
 * change what it holds), and it is gone when the process ends.
 */
export function createInMemoryConversationStore(): ConversationStore & { ids(): string[] } {
  const conversations = new Map<string, ConversationRecord>();
  return {
    async load(id) {
      const found = conversations.get(id);
      return found === undefined ? undefined : structuredClone(found);
    },
    async append(id, { api, messages, turns }) {
      const record = conversations.get(id) ?? { id, api, messages: [], turns: 0 };
      if (record.api !== api) throw new Error(`conversation ${id} holds ${record.api} messages, not ${api}`);
      record.messages.push(...structuredClone(messages));
      record.turns = turns;
      delete record.ending;
      conversations.set(id, record);
    },
    async end(id, ending) {
      const record = conversations.get(id);
      if (record !== undefined) record.ending = { ...ending };
    },
    ids: () => [...conversations.keys()],
  };
}
