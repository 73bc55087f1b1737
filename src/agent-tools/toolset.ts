import type { ManagedSessionInfo } from "../protocol/sessions.js";
import { safeParseWith } from "../protocol/parse.js";
import type { BrowserToolDefinition, ToolContext } from "./define-tool.js";
import { failureReply, invalidInputReply } from "./failure.js";
import { toInputSchema } from "./json-schema.js";
import { resolveBrowserAgentToolsOptions, type BrowserAgentToolsOptions, type ResolvedBrowserAgentToolsOptions } from "./options.js";
import { Redactor } from "../redact.js";
import { renderReply, textReply, type ToolReply } from "./reply.js";
import { SessionRegistry } from "./sessions.js";
import { closeEntry, closeUnlessHuman } from "./tools/session.js";
import { browserToolDefinitions } from "./tool-list.js";
import type { AgentTool, ToolCallOptions, ToolResult } from "./types.js";

/** A session `close()` or `reconcile()` closed. */
export interface ClosedSession {
  /** The backend's session id. */
  sessionId: string;
  /** The alias the model knew it by (absent for a session found by reconciliation). */
  alias?: string;
}

/** Something `close()` or `reconcile()` could not settle; retry later. */
export interface UnresolvedSession {
  sessionId?: string;
  alias?: string;
  /** The open tag of an uncertain opening. */
  openTag?: string;
  reason: string;
}

/** What `close()` did. */
export interface CloseReport {
  closed: ClosedSession[];
  unresolved: UnresolvedSession[];
}

/** What `reconcile()` did. */
export interface ReconcileReport {
  /** Uncertain openings settled: their session was found and closed, or proved absent. */
  resolved: number;
  /** Sessions found by reconciliation, and closed. */
  closed: ClosedSession[];
  /** Openings still uncertain, with the reason. */
  unresolved: UnresolvedSession[];
}

/** A toolset: the tools for the model and the host's handles on what they opened. */
export interface BrowserAgentTools {
  /** The tools to give the model. */
  tools: AgentTool[];
  /**
   * Closes every session this toolset opened (reconciling uncertain openings
   * first) and refuses further calls. A session already gone counts as
   * closed; one under a human control lease is left open and reported
   * unresolved. Safe to call again to retry what is unresolved.
   */
  close(): Promise<CloseReport>;
  /** Openings (open or resume) whose outcome is unknown; while any exist, new opens are refused. */
  uncertainOpenings(): number;
  /**
   * Settles uncertain openings through `backend.reconcile(openTag)`: sessions
   * found are closed (the model was told the open failed, so nothing relies
   * on them); none found proves the open never happened.
   */
  reconcile(): Promise<ReconcileReport>;
}

/**
 * Creates the browser tools for one agent: scoped to the sessions this
 * toolset opens (the model sees aliases `s1`, `s2`…), bounded results,
 * website content fenced, secrets redacted. Works on every runtime.
 *
 * @throws `ValidationError` naming the bad option.
 * @example
 * ```ts
 * const browser = createBrowserAgentTools({ client, maxSessions: 2, profileIds: ["research"] });
 * try {
 *   await runYourAgent(browser.tools);
 * } finally {
 *   const { unresolved } = await browser.close();
 *   if (unresolved.length) console.warn("sessions left open", unresolved);
 * }
 * ```
 */
export function createBrowserAgentTools(options: BrowserAgentToolsOptions): BrowserAgentTools {
  const resolved = resolveBrowserAgentToolsOptions(options);
  const sessions = new SessionRegistry(resolved.maxSessions, resolved.profileIds);
  const redactor = new Redactor();
  for (const [name, value] of resolved.secrets) redactor.add(value, `[secret:${name}]`);
  const base: Omit<ToolContext, "signal"> = { backend: resolved.backend, sessions, options: resolved, redactor };
  const render = (reply: ToolReply): ToolResult => renderReply(reply, { maxBytes: resolved.maxTextBytes, redactor });

  const tools = browserToolDefinitions()
    .filter((definition) => definition.group === undefined || resolved.groups.has(definition.group))
    .map((definition) => bindTool(definition, base, render));

  const reconcile = async (): Promise<ReconcileReport> => {
    const report: ReconcileReport = { resolved: 0, closed: [], unresolved: [] };
    for (const opening of [...sessions.uncertain]) {
      let found: ManagedSessionInfo[];
      try {
        found = await resolved.backend.reconcile(opening.openTag);
      } catch (error) {
        report.unresolved.push({ openTag: opening.openTag, reason: `reconcile failed: ${messageOf(error)}` });
        continue;
      }
      let settled = true;
      for (const info of found) {
        const outcome = await closeFound(resolved, info);
        if (outcome === undefined) report.closed.push({ sessionId: info.id });
        else {
          settled = false;
          report.unresolved.push({ sessionId: info.id, openTag: opening.openTag, reason: outcome });
        }
      }
      if (settled) {
        sessions.uncertain.delete(opening);
        report.resolved++;
      }
    }
    return report;
  };

  const close = async (): Promise<CloseReport> => {
    sessions.closed = true;
    // Opens still running settle first: what they bring is closed or becomes uncertain, then reconciled.
    await sessions.settled();
    const reconciled = await reconcile();
    const report: CloseReport = { closed: [...reconciled.closed], unresolved: [...reconciled.unresolved] };
    const context: ToolContext = { ...base, signal: undefined };
    for (const entry of sessions.list()) {
      const outcome = await closeEntry(context, entry);
      if (outcome === "closed") report.closed.push({ sessionId: entry.id, alias: entry.alias });
      else {
        const reason = outcome === "human" ? "a human holds the control lease; close again after it ends" : `close failed: ${messageOf(outcome.error)}`;
        report.unresolved.push({ sessionId: entry.id, alias: entry.alias, reason });
      }
    }
    return report;
  };

  return { tools, close, reconcile, uncertainOpenings: () => sessions.uncertain.size };
}

/** Closes a session found by reconciliation; the reason it stays open, or undefined once closed. */
async function closeFound(options: ResolvedBrowserAgentToolsOptions, info: ManagedSessionInfo): Promise<string | undefined> {
  const outcome = await closeUnlessHuman(options.backend, info.id, info.control);
  if (outcome === "closed") return undefined;
  return outcome === "human" ? "a human holds the control lease; reconcile again after it ends" : `close failed: ${messageOf(outcome.error)}`;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Lines a toolset adds to a tool's description: what this host grants. */
function grantsNote(definition: BrowserToolDefinition, options: ResolvedBrowserAgentToolsOptions): string {
  if (definition.name === "station_browser_open") {
    const profiles = [...options.profileIds];
    return profiles.length ? ` Granted profiles: ${profiles.join(", ")}.` : " No profiles are granted: open without one.";
  }
  if (definition.name === "station_browser_fill" || definition.name === "station_browser_type") {
    const names = [...options.secrets.keys()];
    return names.length ? ` Host secrets you can name: ${names.join(", ")}.` : "";
  }
  return "";
}

/** A definition bound to a toolset: the {@link AgentTool} a model calls. */
function bindTool(
  definition: BrowserToolDefinition,
  base: Omit<ToolContext, "signal">,
  render: (reply: ToolReply) => ToolResult,
): AgentTool {
  return {
    name: definition.name,
    description: definition.description + grantsNote(definition, base.options),
    inputSchema: toInputSchema(definition.input),
    annotations: { ...definition.annotations },
    async execute(input: unknown, call?: ToolCallOptions): Promise<ToolResult> {
      let signal: AbortSignal | undefined;
      try {
        signal = call?.signal instanceof AbortSignal ? call.signal : undefined;
        if (base.sessions.closed) return render(textReply(["error: this browser toolset is closed"], true));
        const parsed = safeParseWith(definition.input, input === undefined ? {} : input, "input");
        if (!parsed.ok) return render(invalidInputReply(parsed.error.message));
        return render(await definition.run(parsed.value, { ...base, signal }));
      } catch (error) {
        return render(
          failureReply(error, {
            action: definition.name,
            mutating: !definition.annotations.readOnlyHint,
            fieldRoot: "input",
            scrub: (text) => base.sessions.scrub(text),
            signal,
          }),
        );
      }
    },
  };
}
