/**
 * What the manager owes the provider: opens whose outcome is unknown (the
 * provider may have created a session nobody holds) and releases that were
 * not confirmed. Both hold a slot of `maxSessions` until `reconcile()`
 * settles them, so a session can neither leak nor be created twice.
 * Neutral code.
 */
import { isNotFoundError } from "../errors.js";
import type { BrowserHandle, FoundSession } from "../protocol/adapter.js";
import type { TeardownAdapter } from "./bounded-teardown.js";
import type { ResolvedOpenOptions } from "../protocol/open-options.js";
import type { StoredLedger } from "./stores.js";
import type { ReconcileReport } from "../protocol/sessions.js";

/** An open whose outcome is unknown: the provider may run a session with this tag. */
export interface UncertainOpening {
  openTag: string;
  profileId?: string;
  /** When the open failed (ISO 8601). */
  since: string;
  /** Why its outcome is unknown. */
  reason: string;
}

/** A provider session this manager closed but whose release the provider did not confirm. */
export interface PendingRelease {
  /** The provider's session id. */
  providerSessionId: string;
  provider: string;
  openTag: string;
  profileId?: string;
  /** The manager's session id it had, if it was ever handed out. */
  sessionId?: string;
  since: string;
  reason: string;
}

export type { ReconcileReport } from "../protocol/sessions.js";

interface UncertainEntry {
  info: UncertainOpening;
  options: ResolvedOpenOptions;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The bookkeeping; the manager decides when to record and when to settle. */
export class OpenLedger {
  private readonly uncertain = new Map<string, UncertainEntry>();
  private readonly pending = new Map<string, PendingRelease>();
  private readonly settling = new Map<string, Promise<void>>();

  /**
   * @param onChange Called with the whole ledger after every change, to keep
   *   it (the manager writes it to its state store).
   */
  constructor(
    private readonly now: () => number,
    private readonly onChange: (ledger: StoredLedger) => void = () => undefined,
  ) {}

  /** Takes over what a previous owner of the state root still owed. */
  load(stored: StoredLedger | undefined): void {
    for (const { options, ...info } of stored?.uncertain ?? []) this.uncertain.set(info.openTag, { info, options });
    for (const release of stored?.pending ?? []) this.pending.set(release.providerSessionId, { ...release });
  }

  /** The whole ledger, as stored. */
  snapshot(): StoredLedger {
    return {
      uncertain: [...this.uncertain.values()].map((entry) => ({ ...entry.info, options: entry.options })),
      pending: this.pendingReleases(),
    };
  }

  private changed(): void {
    this.onChange(this.snapshot());
  }

  /** Slots held by unsettled opens and releases. */
  get size(): number {
    return this.uncertain.size + this.pending.size;
  }

  uncertainOpenings(): UncertainOpening[] {
    return [...this.uncertain.values()].map((entry) => ({ ...entry.info }));
  }

  pendingReleases(): PendingRelease[] {
    return [...this.pending.values()].map((entry) => ({ ...entry }));
  }

  isUncertain(openTag: string): boolean {
    return this.uncertain.has(openTag);
  }

  /** Profiles that an unsettled open or release may still hold. */
  heldProfiles(): string[] {
    const held = [...this.uncertain.values()].map((entry) => entry.info.profileId);
    for (const release of this.pending.values()) held.push(release.profileId);
    return held.filter((id): id is string => id !== undefined);
  }

  recordUncertain(options: ResolvedOpenOptions & { openTag: string }, error: unknown): void {
    this.uncertain.set(options.openTag, {
      options,
      info: {
        openTag: options.openTag,
        ...(options.profileId === undefined ? {} : { profileId: options.profileId }),
        since: new Date(this.now()).toISOString(),
        reason: messageOf(error),
      },
    });
    this.changed();
  }

  recordPending(handle: BrowserHandle, sessionId: string | undefined, error: unknown): void {
    this.pending.set(handle.id, {
      providerSessionId: handle.id,
      provider: handle.provider,
      openTag: handle.openTag,
      ...(handle.profileId === undefined ? {} : { profileId: handle.profileId }),
      ...(sessionId === undefined ? {} : { sessionId }),
      since: new Date(this.now()).toISOString(),
      reason: messageOf(error),
    });
    this.changed();
  }

  /**
   * Settles one uncertain open: asks the provider for sessions under its tag;
   * the first running one is adopted (when `adopt` is given) or released,
   * any others are released. With nothing running, the tag is proven absent.
   */
  async settleUncertain(
    adapter: TeardownAdapter,
    openTag: string,
    report: ReconcileReport,
    adopt?: (handle: BrowserHandle, options: ResolvedOpenOptions) => string,
  ): Promise<void> {
    // One settlement per tag at a time: a second caller waits for the first's decision
    // (adopting and releasing the same provider session twice would leave a session managed but gone).
    const running = this.settling.get(openTag);
    if (running) return running;
    const work = this.settleOnce(adapter, openTag, report, adopt).finally(() => this.settling.delete(openTag));
    this.settling.set(openTag, work);
    return work;
  }

  /** Resolves once no settlement is running. */
  async idle(): Promise<void> {
    while (this.settling.size > 0) await Promise.allSettled([...this.settling.values()]);
  }

  private async settleOnce(
    adapter: TeardownAdapter,
    openTag: string,
    report: ReconcileReport,
    adopt?: (handle: BrowserHandle, options: ResolvedOpenOptions) => string,
  ): Promise<void> {
    const entry = this.uncertain.get(openTag);
    if (!entry) return;
    if (!adapter.find) {
      report.unresolved.push({ openTag, reason: "this adapter cannot search its provider by open tag" });
      return;
    }
    let found: FoundSession[];
    try {
      found = (await adapter.find(openTag)).filter((session) => session.running);
    } catch (error) {
      report.unresolved.push({ openTag, reason: `searching the provider failed: ${messageOf(error)}` });
      return;
    }
    let keep = adopt && adapter.adopt ? found[0] : undefined;
    if (keep) {
      let handle: BrowserHandle | undefined;
      try {
        handle = await adapter.adopt!(keep, entry.options);
        report.adopted.push({ openTag, sessionId: adopt!(handle, entry.options) });
      } catch (error) {
        if (handle === undefined && !isNotFoundError(error)) {
          report.unresolved.push({ openTag, providerSessionId: keep.id, reason: `taking the session over failed: ${messageOf(error)}` });
          return;
        }
        // Gone meanwhile, or connected but no longer wanted (the manager closed): released below.
        keep = undefined;
      }
    }
    for (const session of found) {
      if (session === keep) continue;
      const handle: BrowserHandle = { id: session.id, provider: session.provider, openTag, ...(session.profileId ? { profileId: session.profileId } : {}) };
      try {
        await adapter.close(handle);
        report.released.push({ openTag, providerSessionId: session.id });
      } catch (error) {
        if (isNotFoundError(error)) continue;
        this.recordPending(handle, undefined, error);
        report.unresolved.push({ openTag, providerSessionId: session.id, reason: `release failed: ${messageOf(error)}` });
      }
    }
    this.uncertain.delete(openTag);
    if (found.length === 0) report.absent.push(openTag);
    this.changed();
  }

  /**
   * Retries every unconfirmed release once (only those in `only`, when
   * given). A definite not-found counts as released.
   */
  async retryReleases(adapter: TeardownAdapter, report: ReconcileReport, only?: ReadonlySet<string>): Promise<void> {
    if (this.pending.size === 0) return;
    try {
      await this.retryEach(adapter, report, only);
    } finally {
      this.changed();
    }
  }

  private async retryEach(adapter: TeardownAdapter, report: ReconcileReport, only: ReadonlySet<string> | undefined): Promise<void> {
    for (const [id, release] of [...this.pending]) {
      if (only && !only.has(id)) continue;
      const handle: BrowserHandle = {
        id,
        provider: release.provider,
        openTag: release.openTag,
        ...(release.profileId === undefined ? {} : { profileId: release.profileId }),
      };
      try {
        await adapter.close(handle);
        this.pending.delete(id);
        report.released.push({ openTag: release.openTag, providerSessionId: id });
      } catch (error) {
        if (isNotFoundError(error)) {
          this.pending.delete(id);
          report.released.push({ openTag: release.openTag, providerSessionId: id });
          continue;
        }
        release.reason = messageOf(error);
        report.unresolved.push({ openTag: release.openTag, providerSessionId: id, reason: `release failed again: ${release.reason}` });
      }
    }
  }
}

/** An empty report. */
export function emptyReport(): ReconcileReport {
  return { adopted: [], released: [], absent: [], unresolved: [] };
}

