import { diffText } from "../../src/protocol/text-change.js";
import { ControlLeaseError, NotFoundError } from "../../src/errors.js";
import type { ControlState } from "../../src/lifecycle/control.js";
import type { ManagedSessionInfo } from "../../src/lifecycle/manager.js";
import type { Checkpoint } from "../../src/lifecycle/stores.js";
import type { BrowserBackend, ExecuteOptions } from "../../src/protocol/backend.js";
import type { BrowserCommand, BrowserCommandInput } from "../../src/protocol/commands.js";
import type { OpenOptions } from "../../src/protocol/open-options.js";
import { parseCommand } from "../../src/protocol/parse-command.js";

/** A 1×1 transparent PNG. */
export const tinyPng = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

interface StubSession {
  info: ManagedSessionInfo;
  control: ControlState;
}

/** Hooks a test sets to change how the stub answers. */
export interface StubHooks {
  open?: (options: OpenOptions) => Promise<ManagedSessionInfo> | undefined;
  /** An answer for the command, or undefined (also as a promise) for the stub's own. */
  execute?: (sessionId: string, command: BrowserCommand, options: ExecuteOptions) => Promise<unknown> | undefined;
}

/**
 * An in-memory {@link BrowserBackend} for unit tests of the agent tools: it
 * parses every command with the protocol (as the real backends do), answers
 * with results of the right shapes and records every call.
 */
export function createStubBackend(hooks: StubHooks = {}) {
  const sessions = new Map<string, StubSession>();
  const checkpoints = new Map<string, Checkpoint>();
  const calls: { method: string; sessionId?: string; command?: BrowserCommand }[] = [];
  /** What the stub's page shows as visible text. */
  const page = { text: "Welcome\nSign in", url: "https://example.test/", title: "Example" };
  const info = (options: OpenOptions, id = `s_${crypto.randomUUID()}`): ManagedSessionInfo => ({
    id,
    provider: "stub",
    openTag: options.openTag ?? "none",
    ...(options.profileId === undefined ? {} : { profileId: options.profileId }),
    openedAt: new Date(0).toISOString(),
    control: { mode: "automation" },
  });
  const action = () => ({ ok: true as const, url: page.url, title: page.title, navigated: false, newPages: [] });
  const session = (sessionId: string) => {
    const found = sessions.get(sessionId);
    if (!found) throw new NotFoundError(`Browser session ${sessionId} does not exist`);
    return found;
  };
  const results: Record<string, (command: BrowserCommand) => unknown> = {
    accessibility: () => ({ snapshot: 'button "Go" [e1]', truncated: false, bytes: 16, mode: "agent", pageId: "p1" }),
    inspect: () => ({ elements: [], truncated: false, coordinateSpace: "css-pixels-main-viewport", viewport: { width: 1280, height: 800 } }),
    screenshot: () => ({ mimeType: "image/png", base64: tinyPng, width: 1, height: 1, scale: 1 }),
    text: () => ({ text: page.text, truncated: false, url: page.url, title: page.title }),
    evaluate: () => ({ value: false }),
    pages: () => ({ pages: [{ pageId: "p1", url: page.url, title: page.title, selected: true }], selectedPageId: "p1" }),
    waitFor: () => ({ ok: true, url: page.url, title: page.title }),
    dialog: (command) => ({ ok: true, action: (command as { action: string }).action, expiresAt: new Date(0).toISOString() }),
    diagnostics: () => ({ events: [], dropped: 0, nextSeq: 0 }),
    downloads: () => ({ downloads: [] }),
    downloadRead: (command) => ({ downloadId: (command as { downloadId: string }).downloadId, offset: 0, bytes: 2, totalBytes: 2, base64: "aGk=", more: false }),
    downloadDelete: (command) => ({ ok: true, downloadId: (command as { downloadId: string }).downloadId }),
    newPage: () => ({ ...action(), pageId: "p2" }),
    select: () => ({ ...action(), selected: ["r"] }),
    fill: () => ({ ...action(), sensitive: false }),
    type: () => ({ ...action(), sensitive: false }),
    upload: (command) => ({ ...action(), files: (command as { files: { name: string }[] }).files.map((file) => ({ name: file.name, bytes: 1 })) }),
  };
  const backend: BrowserBackend = {
    async open(options = {}) {
      calls.push({ method: "open" });
      const hooked = hooks.open?.(options);
      const opened = hooked ? await hooked : info(options);
      sessions.set(opened.id, { info: opened, control: { mode: "automation" } });
      return opened;
    },
    async execute<Command extends BrowserCommand | BrowserCommandInput>(sessionId: string, command: Command, options?: string | ExecuteOptions) {
      const parsed = parseCommand(command);
      calls.push({ method: "execute", sessionId, command: parsed });
      session(sessionId);
      const textBefore = page.text;
      const hooked = hooks.execute?.(sessionId, parsed, typeof options === "object" ? options : {});
      const answer = hooked ? await hooked : undefined;
      if (answer !== undefined) return answer as never;
      const result = results[parsed.op]?.(parsed) ?? action();
      // As the engine does: an action asked for its change in visible text gets it in its result.
      return ("textChange" in parsed && parsed.textChange === true ? { ...(result as object), textChange: diffText(textBefore, page.text) } : result) as never;
    },
    async closeSession(sessionId, options = {}) {
      calls.push({ method: "closeSession", sessionId });
      // As the manager does: under a human lease, only the lease's token closes it (the stub takes any).
      if (session(sessionId).control.mode === "human" && options.controlToken === undefined) {
        throw new ControlLeaseError(`Session ${sessionId} is under human control; only the control token can close it`);
      }
      sessions.delete(sessionId);
    },
    list: () => [...sessions.values()].map((entry) => entry.info),
    async checkpoint(sessionId) {
      calls.push({ method: "checkpoint", sessionId });
      const found = session(sessionId);
      const checkpoint: Checkpoint = {
        id: `cp_${crypto.randomUUID()}`,
        createdAt: new Date(0).toISOString(),
        sessionId,
        backend: "stub",
        options: found.info.profileId === undefined ? {} : { profileId: found.info.profileId },
        pages: [{ url: page.url, title: page.title }],
        selectedIndex: 0,
      };
      checkpoints.set(checkpoint.id, checkpoint);
      return checkpoint;
    },
    async resumeCheckpoint(checkpointId) {
      calls.push({ method: "resume" });
      const checkpoint = checkpoints.get(checkpointId);
      if (!checkpoint) throw new NotFoundError(`Checkpoint ${checkpointId} does not exist`);
      const opened = info({ ...checkpoint.options, openTag: "resumed" });
      sessions.set(opened.id, { info: opened, control: { mode: "automation" } });
      return opened;
    },
    async liveFrame() {
      return { mimeType: "image/png", base64: tinyPng, capturedAt: new Date(0).toISOString() };
    },
    async control(sessionId) {
      calls.push({ method: "control", sessionId });
      return session(sessionId).control;
    },
    async reconcile(openTag) {
      calls.push({ method: "reconcile" });
      return [...sessions.values()].filter((entry) => entry.info.openTag === openTag).map((entry) => entry.info);
    },
  };
  return {
    backend,
    calls,
    page,
    sessions,
    /** Adds a live session as if an open had happened (for lost-answer tests). */
    addSession(options: OpenOptions): ManagedSessionInfo {
      const opened = info(options);
      sessions.set(opened.id, { info: opened, control: { mode: "automation" } });
      return opened;
    },
    setControl(sessionId: string, mode: "automation" | "human") {
      session(sessionId).control = { mode };
    },
  };
}
