import { CapacityError, NotFoundError, ValidationError } from "../errors.js";
import type { BrowserSessionManager, ManagedSessionInfo } from "../lifecycle/manager.js";
import type { Checkpoint, RecordingMeta } from "../lifecycle/stores.js";
import type { Caller } from "./auth.js";
import { scopedOpenTag } from "./scoped-tag.js";

/** Whoever opened a resource: a tenant id, or the operator. */
export type Owner = string | typeof operator;
const operator = Symbol("operator");

const ownerOf = (caller: Caller): Owner => caller.tenantId ?? operator;

/** An owner, and when it was recorded. */
interface Owned {
  owner: Owner;
  seq: number;
}

/**
 * Which tenant owns what, so that a tenant sees and touches only its own
 * sessions, checkpoints and recordings: another tenant's id reads exactly as
 * a missing one. The operator sees everything. Resources the worker did not
 * create (opened in-process, or left in a state root by an earlier run) are
 * the operator's. Open tags are scoped per tenant ({@link scopedOpenTag}):
 * the manager sees a tag derived from the tenant and its tag, so a tenant can
 * neither probe nor claim another's tag; the tenant sees its own tag back.
 *
 * Ownership lives in memory, with the sessions it describes.
 */
export class TenantScope {
  /** `openTag` is the manager's; `callerTag` the one its owner sent. */
  private readonly sessions = new Map<string, { owner: Owner; openTag: string; callerTag: string }>();
  private readonly tags = new Map<string, Owner>();
  private readonly checkpointOwners = new Map<string, Owned>();
  private readonly recordingOwners = new Map<string, Owned>();
  /** Counts owner records, so a listing read before a record cannot prune it. */
  private recorded = 0;
  /** Opens in flight per tenant, each holding a slot of its quota. */
  private readonly opening = new Map<string, number>();

  /**
   * @param profileOwners Which tenant may open each profile id; the operator
   *   may open any profile the manager grants.
   * @param tenantMaxSessions Sessions one tenant may hold at once (open ones
   *   and opens in flight); no quota when undefined. The operator has none.
   */
  constructor(
    private readonly manager: BrowserSessionManager,
    private readonly profileOwners: ReadonlyMap<string, string> = new Map(),
    private readonly tenantMaxSessions?: number,
  ) {}

  /**
   * Holds one slot of the caller's tenant quota for an open. Returns the
   * release to call once the open settles (an opened session then counts by
   * its owner). An open repeating the tag of one of the tenant's sessions or
   * opens takes no new slot: it gets that session.
   *
   * @throws {CapacityError} when the tenant already holds its quota.
   */
  reserveSlot(caller: Caller, openTag: string | undefined): () => void {
    const tenant = caller.tenantId;
    const max = this.tenantMaxSessions;
    if (tenant === undefined || max === undefined) return () => undefined;
    if (openTag !== undefined && this.tags.get(openTag) === tenant) return () => undefined;
    const opening = this.opening.get(tenant) ?? 0;
    const open = [...this.sessions.values()].filter((session) => session.owner === tenant).length;
    if (open + opening >= max) {
      throw new CapacityError(`Tenant ${tenant} already holds its quota of ${max} browser session${max === 1 ? "" : "s"}; close one first`);
    }
    this.opening.set(tenant, opening + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.opening.get(tenant) ?? 1) - 1;
      if (left > 0) this.opening.set(tenant, left);
      else this.opening.delete(tenant);
    };
  }

  /**
   * @throws {ValidationError} when this tenant may not open the profile (the
   *   same words whether it belongs to another tenant or to none).
   */
  profile(caller: Caller, profileId: string): void {
    if (caller.tenantId !== undefined && this.profileOwners.get(profileId) !== caller.tenantId) {
      throw new ValidationError("body.options.profileId", `profile ${profileId} is not granted to this tenant`);
    }
  }

  /** The manager's tag for the caller's `openTag`: the tenant's scoped tag, or the operator's own. */
  managerTag(caller: Caller, openTag: string): string {
    return caller.tenantId === undefined ? openTag : scopedOpenTag(caller.tenantId, openTag);
  }

  /**
   * `info` as its caller sees it: for a tenant, its session carries the tag
   * the tenant sent; the operator sees the manager's tags (what its own
   * `reconcile` takes).
   */
  private present(caller: Caller, info: ManagedSessionInfo): ManagedSessionInfo {
    const known = this.sessions.get(info.id);
    if (caller.tenantId === undefined || !known || known.callerTag === info.openTag) return info;
    return { ...info, openTag: known.callerTag };
  }

  /** False when `openTag` (the manager's) belongs to an open this caller cannot see. */
  mayReconcile(caller: Caller, openTag: string): boolean {
    const claimed = this.tags.get(openTag);
    if (claimed !== undefined) return this.sees(caller, claimed);
    return !this.manager.findByOpenTag(openTag).some((info) => !this.sees(caller, this.sessions.get(info.id)?.owner));
  }

  private sees(caller: Caller, owner: Owner | undefined): boolean {
    return caller.tenantId === undefined || (owner !== undefined && owner === caller.tenantId);
  }

  /** @throws {NotFoundError} when the session does not exist for this caller. */
  session(caller: Caller, sessionId: string): void {
    if (!this.sees(caller, this.sessions.get(sessionId)?.owner)) throw new NotFoundError(`Browser session ${sessionId} does not exist`);
  }

  /** @throws {NotFoundError} when the checkpoint does not exist for this caller. */
  checkpoint(caller: Caller, checkpointId: string): void {
    if (!this.sees(caller, this.checkpointOwners.get(checkpointId)?.owner)) throw new NotFoundError(`Checkpoint ${checkpointId} does not exist`);
  }

  /** @throws {NotFoundError} when the recording does not exist for this caller. */
  recording(caller: Caller, recordingId: string): void {
    if (!this.sees(caller, this.recordingOwners.get(recordingId)?.owner)) throw new NotFoundError(`Recording ${recordingId} does not exist`);
  }

  /**
   * Claims `openTag` for the caller before an open. Returns the release to
   * call when the open settles (the claim stays while a session holds the tag).
   *
   * @throws {ValidationError} when the tag belongs to a session this caller cannot see.
   */
  claimTag(caller: Caller, openTag: string): () => void {
    const claimed = this.tags.get(openTag);
    const hidden = this.manager.findByOpenTag(openTag).some((info) => !this.sees(caller, this.sessions.get(info.id)?.owner));
    if ((claimed !== undefined && !this.sees(caller, claimed)) || hidden) {
      throw new ValidationError("body.options.openTag", "is already used by another open; make a new tag for each open");
    }
    if (claimed !== undefined) return () => undefined;
    this.tags.set(openTag, ownerOf(caller));
    return () => {
      const held = [...this.sessions.values()].some((session) => session.openTag === openTag);
      if (!held && this.manager.findByOpenTag(openTag).length === 0) this.tags.delete(openTag);
    };
  }

  /**
   * Records who owns a session the caller just opened (or was given again by
   * its tag), and returns it as the caller sees it ({@link present}).
   * `callerTag` is the tag the caller sent for the session's (manager) tag.
   */
  adopt(caller: Caller, info: ManagedSessionInfo, callerTag: string = info.openTag): ManagedSessionInfo {
    const known = this.sessions.get(info.id);
    if (known) {
      if (!this.sees(caller, known.owner)) throw new NotFoundError(`Browser session ${info.id} does not exist`);
      return this.present(caller, info);
    }
    const owner = this.tags.get(info.openTag) ?? ownerOf(caller);
    this.sessions.set(info.id, { owner, openTag: info.openTag, callerTag });
    this.tags.set(info.openTag, owner);
    return this.present(caller, info);
  }

  /** Forgets a closed session (its checkpoints and recordings keep their owner). */
  forget(sessionId: string): void {
    const known = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    if (known && this.tags.get(known.openTag) === known.owner) this.tags.delete(known.openTag);
  }

  /** The sessions of `infos` this caller may see, as it sees them. */
  visibleSessions(caller: Caller, infos: ManagedSessionInfo[]): ManagedSessionInfo[] {
    return infos.filter((info) => this.sees(caller, this.sessions.get(info.id)?.owner)).map((info) => this.present(caller, info));
  }

  /** The owner of a session, read before an await so a close in between cannot lose it. */
  ownerOfSession(sessionId: string): Owner | undefined {
    return this.sessions.get(sessionId)?.owner;
  }

  /** A mark to pass to `visible*`: owners recorded after it are never pruned by that listing. */
  mark(): number {
    return this.recorded;
  }

  /** Gives a new checkpoint the owner its session had when the call began. */
  adoptCheckpoint(checkpoint: Checkpoint, owner: Owner | undefined): Checkpoint {
    if (owner !== undefined) this.checkpointOwners.set(checkpoint.id, { owner, seq: ++this.recorded });
    return checkpoint;
  }

  /** Gives a new recording the owner its session had when the call began. */
  adoptRecording(recording: RecordingMeta, owner: Owner | undefined): RecordingMeta {
    if (owner !== undefined) this.recordingOwners.set(recording.id, { owner, seq: ++this.recorded });
    return recording;
  }

  /** The checkpoints this caller may see; owners of checkpoints gone before `mark` are dropped. */
  visibleCheckpoints(caller: Caller, checkpoints: Checkpoint[], mark: number): Checkpoint[] {
    prune(this.checkpointOwners, checkpoints, mark);
    return checkpoints.filter((checkpoint) => this.sees(caller, this.checkpointOwners.get(checkpoint.id)?.owner));
  }

  /** The recordings this caller may see; owners of recordings gone before `mark` are dropped. */
  visibleRecordings(caller: Caller, recordings: RecordingMeta[], mark: number): RecordingMeta[] {
    prune(this.recordingOwners, recordings, mark);
    return recordings.filter((recording) => this.sees(caller, this.recordingOwners.get(recording.id)?.owner));
  }

  forgetCheckpoint(checkpointId: string): void {
    this.checkpointOwners.delete(checkpointId);
  }

  forgetRecording(recordingId: string): void {
    this.recordingOwners.delete(recordingId);
  }
}

function prune(owners: Map<string, Owned>, existing: { id: string }[], mark: number): void {
  const ids = new Set(existing.map((item) => item.id));
  for (const [id, owned] of owners) if (owned.seq <= mark && !ids.has(id)) owners.delete(id);
}
