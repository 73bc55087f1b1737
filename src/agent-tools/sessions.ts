import type { ManagedSessionInfo } from "../protocol/sessions.js";
import type { ChallengeResult } from "../protocol/results.js";
import { invalidInputReply } from "./failure.js";

/** A session this toolset opened, under its alias. */
export interface SessionEntry {
  alias: string;
  id: string;
  profileId: string | undefined;
  openTag: string | undefined;
  /** Tail of this session's call chain: calls run one after another. */
  tail: Promise<void>;
  /** The URL and title of the selected page as the model was last told them; unknown after an uncertain or failed action. */
  seen?: SeenPage | undefined;
  /** What the site showed that stopped this session's mutating calls, until a `challenge` read says it is gone (see takeover.ts). */
  held?: ChallengeResult | undefined;
}

/** Where the model last saw the selected page: results repeat neither while they stay the same. */
export interface SeenPage {
  url: string;
  title: string;
}

/** An open or resume whose outcome is unknown. */
export interface UncertainOpening {
  kind: "open" | "resume";
  /** The tag to reconcile with (opens and resumes both send one). */
  openTag: string;
  profileId: string | undefined;
}

/** Why an open is refused, with the input field to name. */
export interface Refusal {
  field: string;
  message: string;
}

/** A held slot for an open in progress. */
export interface Reservation {
  release(): void;
}

const uuid = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const foreignSession = new RegExp(`\\bs_${uuid}\\b`, "gi");
const foreignCheckpoint = new RegExp(`\\bcp_${uuid}\\b`, "gi");
/** Open tags are bare UUIDs (Steel uses them as session ids); after the prefixed ids above, any UUID left is one. */
const openTagPattern = new RegExp(`\\b${uuid}\\b`, "gi");
const clientContext = /\s*\(worker method [^)]*\)/g;
const clientHint = /[.;] to find out: [\s\S]*$/i;

/**
 * The sessions and checkpoints of one toolset, by the aliases the model
 * sees (`s1`, `c1`…). Aliases are never reused and exist only here, so a
 * model can address nothing it did not open through this toolset. Admission
 * (`maxSessions`, granted profiles, one open per profile, no opens while an
 * opening is uncertain) is decided here.
 */
export class SessionRegistry {
  #sessionCounter = 0;
  #checkpointCounter = 0;
  readonly #sessions = new Map<string, SessionEntry>();
  readonly #checkpoints = new Map<string, { id: string; profileId: string | undefined }>();
  /** Every backend id ever seen → its alias, to keep ids out of messages. */
  readonly #aliasOfId = new Map<string, string>();
  readonly #reservedProfiles = new Set<string>();
  #opening = 0;
  readonly uncertain = new Set<UncertainOpening>();
  /** Opens (and resumes) still running, including cancelled ones whose session may yet arrive. */
  readonly inflight = new Set<Promise<unknown>>();
  closed = false;

  /** Tracks a running open until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    const tracked = work.finally(() => this.inflight.delete(tracked));
    this.inflight.add(tracked);
    return work;
  }

  /** Resolves once no open is running. */
  async settled(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  readonly #maxSessions: number;
  readonly #profileIds: ReadonlySet<string>;

  constructor(maxSessions: number, profileIds: ReadonlySet<string>) {
    this.#maxSessions = maxSessions;
    this.#profileIds = profileIds;
  }

  /** Holds a slot (and the profile) for an open, or says why not. */
  reserve(profileId: string | undefined, profileField: string): Reservation | Refusal {
    if (this.closed) return { field: "input", message: "this toolset is closed; no new sessions can be opened" };
    if (this.uncertain.size > 0) {
      return {
        field: "input",
        message: `an earlier open has an unknown outcome (${this.uncertain.size} uncertain); no new session can be opened until the host reconciles it`,
      };
    }
    if (profileId !== undefined) {
      if (!this.#profileIds.has(profileId)) {
        const granted = [...this.#profileIds];
        return { field: profileField, message: granted.length ? `not a granted profile; granted: ${granted.join(", ")}` : "no profiles are granted to this toolset" };
      }
      const holder = [...this.#sessions.values()].find((entry) => entry.profileId === profileId);
      if (holder) return { field: profileField, message: `profile ${profileId} is already open in session ${holder.alias}; use it, or close it first` };
      if (this.#reservedProfiles.has(profileId)) return { field: profileField, message: `profile ${profileId} is being opened by another call` };
    }
    if (this.#sessions.size + this.#opening >= this.#maxSessions) {
      return { field: "input", message: `all ${this.#maxSessions} sessions of this toolset are open; close one with station_browser_close first` };
    }
    this.#opening++;
    if (profileId !== undefined) this.#reservedProfiles.add(profileId);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#opening--;
        if (profileId !== undefined) this.#reservedProfiles.delete(profileId);
      },
    };
  }

  /** Adopts an opened session under a new alias. */
  add(info: ManagedSessionInfo, openTag: string | undefined): SessionEntry {
    const entry: SessionEntry = {
      alias: `s${++this.#sessionCounter}`,
      id: info.id,
      profileId: info.profileId,
      openTag,
      tail: Promise.resolve(),
    };
    this.#sessions.set(entry.alias, entry);
    this.#aliasOfId.set(info.id, entry.alias);
    return entry;
  }

  /** The session of `alias`, or the only open one when `alias` is left out. */
  get(alias: string | undefined): SessionEntry | Refusal {
    if (alias !== undefined) {
      const entry = this.#sessions.get(alias);
      if (entry) return entry;
      const open = this.aliases();
      return { field: "input.session", message: `no session ${alias} in this toolset${open.length ? `; open sessions: ${open.join(", ")}` : "; open one with station_browser_open"}` };
    }
    const [only, ...others] = this.#sessions.values();
    if (only && others.length === 0) return only;
    return only
      ? { field: "input.session", message: `required while several sessions are open (${this.aliases().join(", ")})` }
      : { field: "input.session", message: "no session is open; open one with station_browser_open first" };
  }

  /** Open sessions, in opening order. */
  list(): SessionEntry[] {
    return [...this.#sessions.values()];
  }

  aliases(): string[] {
    return [...this.#sessions.keys()];
  }

  remove(entry: SessionEntry): void {
    this.#sessions.delete(entry.alias);
  }

  /** Keeps a checkpoint under a new alias (`c1`, …). */
  addCheckpoint(id: string, profileId: string | undefined): string {
    const alias = `c${++this.#checkpointCounter}`;
    this.#checkpoints.set(alias, { id, profileId });
    this.#aliasOfId.set(id, alias);
    return alias;
  }

  checkpoint(alias: string): { id: string; profileId: string | undefined } | Refusal {
    return this.#checkpoints.get(alias) ?? { field: "input.checkpoint", message: `no checkpoint ${alias} in this toolset` };
  }

  /**
   * `text` as a model may see it: this toolset's backend ids replaced by
   * aliases, any other session or checkpoint id and open tag hidden, and the
   * client's call context (station, method) left out.
   */
  scrub(text: string): string {
    let result = text.replace(clientHint, "").replace(clientContext, "");
    for (const [id, alias] of this.#aliasOfId) if (result.includes(id)) result = result.split(id).join(alias);
    return result.replace(foreignSession, "[another session]").replace(foreignCheckpoint, "[a checkpoint]").replace(openTagPattern, "[open tag]");
  }

  /**
   * Runs `work` after every earlier call on the session has finished, so one
   * toolset never races itself into `busy`. A cancelled wait runs nothing.
   */
  async exclusive<T>(entry: SessionEntry, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    const previous = entry.tail;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    entry.tail = previous.then(() => gate);
    try {
      // The earlier call's failure is its own; only this call's cancellation stops it.
      await raceAbort(previous.catch(() => {}), signal);
      return await work();
    } finally {
      release();
    }
  }
}

/**
 * Settles like `promise`, or rejects with a {@link CancelledError} as soon as
 * `signal` aborts (`promise` keeps running).
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CancelledError());
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A call cancelled before it reached the backend. */
export class CancelledError extends Error {
  constructor() {
    super("cancelled before it started");
    this.name = "CancelledError";
  }
}

/** The error reply of a refusal: `error: input.session: …`. */
export const refusalReply = (refusal: Refusal) => invalidInputReply(`${refusal.field}: ${refusal.message}`);

/** True for a refusal rather than a value. */
export const isRefusal = (value: unknown): value is Refusal =>
  typeof value === "object" && value !== null && "field" in value && "message" in value && !("alias" in value);
