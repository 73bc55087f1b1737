/**
 * An in-memory `BrowserAdapter` for the session manager's own tests:
 * admission, leases, the journal, recordings and reconciliation, without
 * launching Chromium. It keeps a page list per session, answers every command
 * with a result of the real shape, and lets a test hold a command until it
 * says so (`hold(op)`), so concurrency is tested by events, never by sleeps.
 * It does not pretend to be a browser: what a command does to a page is the
 * engine's business, and tested against real Chromium.
 */
import { ActionFailedError, OutcomeUnknownError, SessionClosedError } from "../../src/errors.js";
import type { AdapterCapabilities, AdapterOpenContext, BrowserAdapter, BrowserHandle, FoundSession } from "../../src/protocol/adapter.js";
import { commandOps, type BrowserCommand, type BrowserCommandInput } from "../../src/protocol/commands.js";
import type { OpenOptions } from "../../src/protocol/open-options.js";
import type { CommandResult } from "../../src/protocol/results.js";

/** A 1×1 PNG. */
export const tinyPng = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

interface FakePage {
  pageId: string;
  url: string;
  title: string;
}

interface FakeSession {
  handle: BrowserHandle;
  pages: FakePage[];
  selected: number;
  running: boolean;
  /** Rejects the commands in flight when the session closes. */
  pending: Set<(error: Error) => void>;
}

/** A command held by {@link FakeAdapter.hold}: `started` resolves once it runs; `release()` lets it finish. */
export interface HeldCommand {
  started: Promise<void>;
  release(): void;
}

/** Title of a fake page: its path, so tests can tell pages apart. */
const titleOf = (url: string) => (url === "about:blank" ? "" : new URL(url).pathname);

export class FakeAdapter implements BrowserAdapter {
  /** Every command executed, in order: `[handle id, op]`. */
  readonly executed: [string, string][] = [];
  /** The commands themselves, in the same order, as the adapter received them. */
  readonly commands: (BrowserCommand | BrowserCommandInput)[] = [];
  /** Open calls seen, with their options and context. */
  readonly opens: { options: OpenOptions; context: AdapterOpenContext }[] = [];
  readonly closed: string[] = [];
  private readonly sessions = new Map<string, FakeSession>();
  private readonly holds = new Map<string, { started: () => void; gate: Promise<void> }[]>();
  private goneListeners: ((handleId: string) => void)[] = [];
  private nextId = 1;
  private loseOpens = 0;
  private readonly scripted = new Map<string, (Record<string, unknown> | Error)[]>();
  /** Sessions that ran under a tag and still run, as a provider would list them (also after the manager forgot them). */
  private readonly provider = new Map<string, FoundSession>();

  constructor(private readonly name = "fake") {}

  capabilities(): AdapterCapabilities {
    return { provider: this.name, ops: [...commandOps], notImplemented: [], persistentProfiles: true };
  }

  async open(options: OpenOptions = {}, signal?: AbortSignal, context: AdapterOpenContext = {}): Promise<BrowserHandle> {
    if (signal?.aborted) throw new ActionFailedError("open cancelled before it started");
    this.opens.push({ options, context });
    await this.gateFor("open");
    if (this.loseOpens > 0) {
      this.loseOpens--;
      this.plantProviderSession(options.openTag ?? crypto.randomUUID());
      throw new OutcomeUnknownError(`open's answer was lost (open tag ${options.openTag}); the provider may hold a session`, { openTag: options.openTag });
    }
    const id = `fake-${this.nextId++}`;
    const handle: BrowserHandle = {
      id,
      provider: this.name,
      openTag: options.openTag ?? crypto.randomUUID(),
      ...(options.profileId === undefined ? {} : { profileId: options.profileId }),
    };
    this.sessions.set(id, { handle, pages: [{ pageId: "p1", url: "about:blank", title: "" }], selected: 0, running: true, pending: new Set() });
    this.provider.set(id, { id, provider: this.name, openTag: handle.openTag, running: true, ...(handle.profileId ? { profileId: handle.profileId } : {}) });
    return handle;
  }

  async execute<Command extends BrowserCommand | BrowserCommandInput>(handle: BrowserHandle, command: Command, signal?: AbortSignal): Promise<CommandResult<Command["op"]>> {
    const session = this.sessions.get(handle.id);
    if (!session) throw new SessionClosedError(`fake session ${handle.id} is gone`);
    if (signal?.aborted) throw new ActionFailedError(`${command.op} was cancelled before it started`);
    this.executed.push([handle.id, command.op]);
    this.commands.push(command);
    const held = this.gateFor(command.op);
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => reject(error);
      session.pending.add(fail);
      const onAbort = () => reject(new OutcomeUnknownError(`${command.op} was cancelled while it ran; it may have taken effect`));
      signal?.addEventListener("abort", onAbort, { once: true });
      held.then(
        () => {
          session.pending.delete(fail);
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        reject,
      );
    });
    const scripted = this.scripted.get(command.op)?.shift();
    if (scripted instanceof Error) throw scripted;
    const answer = this.answer(session, command);
    return (scripted ? { ...(answer as object), ...scripted } : answer) as CommandResult<Command["op"]>;
  }

  /** The next `op` answers with these fields added to (or over) its usual result, or throws this error after running. */
  answerNext(op: string, fields: Record<string, unknown> | Error): void {
    const queue = this.scripted.get(op) ?? [];
    queue.push(fields);
    this.scripted.set(op, queue);
  }

  async close(handle: BrowserHandle): Promise<void> {
    const session = this.sessions.get(handle.id);
    this.closed.push(handle.id);
    if (!session) return;
    this.sessions.delete(handle.id);
    this.provider.delete(handle.id);
    for (const fail of session.pending) fail(new SessionClosedError(`fake session ${handle.id} closed`));
  }

  async find(openTag: string): Promise<FoundSession[]> {
    return [...this.provider.values()].filter((found) => found.openTag === openTag);
  }

  async adopt(found: FoundSession): Promise<BrowserHandle> {
    const handle: BrowserHandle = { id: found.id, provider: this.name, openTag: found.openTag };
    this.sessions.set(found.id, { handle, pages: [{ pageId: "p1", url: "about:blank", title: "" }], selected: 0, running: true, pending: new Set() });
    return handle;
  }

  onSessionGone(listener: (handleId: string) => void): void {
    this.goneListeners.push(listener);
  }

  /** The browser of `handleId` goes away on its own (a crash, a provider reaping it). */
  crash(handleId: string): void {
    const session = this.sessions.get(handleId);
    this.sessions.delete(handleId);
    this.provider.delete(handleId);
    for (const fail of session?.pending ?? []) fail(new SessionClosedError(`fake session ${handleId} crashed`));
    for (const listener of this.goneListeners) listener(handleId);
  }

  /** A session a provider runs under `openTag` that this adapter never handed out (a lost open's answer). */
  plantProviderSession(openTag: string): string {
    const id = `fake-${this.nextId++}`;
    this.provider.set(id, { id, provider: this.name, openTag, running: true });
    return id;
  }

  /** The next open creates its session at the provider but loses the answer: it throws `OutcomeUnknownError`. */
  loseNextOpen(): void {
    this.loseOpens++;
  }

  /** Holds the next `op` (or `open`) until `release()`. */
  hold(op: string): HeldCommand {
    let started!: () => void;
    let release!: () => void;
    const startedPromise = new Promise<void>((resolve) => (started = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const queue = this.holds.get(op) ?? [];
    queue.push({ started, gate });
    this.holds.set(op, queue);
    return { started: startedPromise, release };
  }

  /** Commands of `op` executed so far. */
  count(op: string): number {
    return this.executed.filter(([, each]) => each === op).length;
  }

  /** Handle ids of the sessions open now. */
  openSessions(): string[] {
    return [...this.sessions.keys()];
  }

  private gateFor(op: string): Promise<void> {
    const held = this.holds.get(op)?.shift();
    if (!held) return Promise.resolve();
    held.started();
    return held.gate;
  }

  private answer(session: FakeSession, command: BrowserCommand | BrowserCommandInput): unknown {
    const page = session.pages[session.selected]!;
    const here = { url: page.url, title: page.title };
    switch (command.op) {
      case "navigate": {
        page.url = command.url;
        page.title = titleOf(command.url);
        return { ok: true, navigated: true, url: page.url, title: page.title };
      }
      case "newPage": {
        const url = command.url ?? "about:blank";
        session.pages.push({ pageId: `p${session.pages.length + 1}`, url, title: titleOf(url) });
        session.selected = session.pages.length - 1;
        return { ok: true, pageId: session.pages.at(-1)!.pageId, url, title: titleOf(url) };
      }
      case "selectPage": {
        const index = session.pages.findIndex((each) => each.pageId === command.pageId);
        if (index < 0) throw new ActionFailedError(`no page ${command.pageId}`);
        session.selected = index;
        return { ok: true, ...session.pages[index]! };
      }
      case "pages":
        return {
          pages: session.pages.map((each, index) => ({ ...each, selected: index === session.selected })),
          selectedPageId: page.pageId,
        };
      case "evaluate":
        return { value: command.expression };
      case "text":
        return { text: `text of ${page.title}`, truncated: false, ...here };
      case "screenshot":
        return { mimeType: "image/png", base64: tinyPng, width: 1, height: 1, scale: 1 };
      case "accessibility":
        return { snapshot: `- document "${page.title}"`, truncated: false, bytes: 20 };
      default:
        return { ok: true, ...here };
    }
  }
}
