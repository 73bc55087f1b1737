import type * as v from "valibot";
import type { BrowserBackend } from "../protocol/backend.js";
import type { AgentToolGroup, ResolvedBrowserAgentToolsOptions } from "./options.js";
import type { Redactor } from "../redact.js";
import type { ToolReply } from "./reply.js";
import type { SessionRegistry } from "./sessions.js";
import type { ToolAnnotations } from "./types.js";

/** What a tool's `run` receives besides its parsed input. */
export interface ToolContext {
  backend: BrowserBackend;
  sessions: SessionRegistry;
  options: ResolvedBrowserAgentToolsOptions;
  redactor: Redactor;
  /** The call's signal: cancels the in-flight backend call. */
  signal: AbortSignal | undefined;
}

/** A browser tool before it is bound to a toolset. */
export interface BrowserToolDefinition<Schema extends v.GenericSchema = v.GenericSchema> {
  /** Starts with `station_browser_`. */
  name: `station_browser_${string}`;
  /** The option group that enables it; absent for the default tools. */
  group?: AgentToolGroup;
  /** Written for the model: what it does, when to use it and when not. */
  description: string;
  /** The input: a valibot schema whose every field has a description. */
  input: Schema;
  annotations: ToolAnnotations;
  /** Runs the tool on parsed input. May throw: the toolset turns anything thrown into an error result. */
  run(input: v.InferOutput<Schema>, context: ToolContext): Promise<ToolReply>;
}

/**
 * Declares a browser tool (an identity helper that keeps the input type
 * flowing into `run`).
 *
 * @example
 * ```ts
 * export const hoverTool = defineBrowserTool({ name: "station_browser_hover", input: v.strictObject({ … }), run: … });
 * ```
 */
export const defineBrowserTool = <Schema extends v.GenericSchema>(definition: BrowserToolDefinition<Schema>): BrowserToolDefinition<Schema> =>
  definition;

/**
 * A tool's annotations: its title and the hints that hold (every other hint
 * is false).
 *
 * @example
 * ```ts
 * hints("Click", { destructiveHint: true, openWorldHint: true });
 * ```
 */
export const hints = (title: string, set: Partial<Omit<ToolAnnotations, "title">> = {}): ToolAnnotations => ({
  title,
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
  ...set,
});
