import { NotFoundError, ValidationError } from "../errors.js";
import type { BrowserSessionManager, ManagedSessionInfo } from "../lifecycle/manager.js";
import type { Checkpoint, RecordingMeta } from "../lifecycle/stores.js";
import type { Caller } from "./auth.js";

/** Whoever opened a resource: a tenant id, or the operator. */
type Owner = string | typeof operator;
const operator = Symbol("operator");

const ownerOf = (caller: Caller): Owner => caller.tenantId ?? operator;

/**
 * Which tenant owns what, so that a tenant sees and touches only its own
 * sessions, checkpoints and recordings: another tenant's id reads exactly as
 * a missing one. The operator sees everything. Resources the worker did not
 * create (opened in-process, or left in a state root by an earlier run) are
 * the operator's. Open tags are claimed per owner, so a tenant cannot reach
 * another's session by repeating its tag.
 *
 * Ownership lives in memory, with the sessions it describes.
 */
export class TenantScope {
  private readonly sessions = new Map<string, { owner: Owner; openTag: string }>();
  private readonly tags = new Map<string, Owner>();
  private readonly checkpointOwners = new Map<string, Owner>();
  private readonly recordingOwners = new Map<string, Owner>();

  constructor(private readonly manager: BrowserSessionManager) {}

  private sees(caller: Caller, owner: Owner | undefined): boolean {
    return caller.tenantId === undefined || (owner !== undefined && owner === caller.tenantId);
  }

  /** @throws {NotFoundError} when the session does not exist for this caller. */
  session(caller: Caller, sessionId: string): void {
    if (!this.sees(caller, this.sessions.get(sessionId)?.owner)) throw new NotFoundError(`Browser session ${sessionId} does not exist`);
  }

  /** @throws {NotFoundError} when the checkpoint does not exist for this caller. */
  checkpoint(caller: Caller, checkpointId: string): void {
    if (!this.sees(caller, this.checkpointOwners.get(checkpointId))) throw new NotFoundError(`Checkpoint ${checkpointId} does not exist`);
  }

  /** @throws {NotFoundError} when the recording does not exist for this caller. */
  recording(caller: Caller, recordingId: string): void {
    if (!this.sees(caller, this.recordingOwners.get(recordingId))) throw new NotFoundError(`Recording ${recordingId} does not exist`);
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

  /** Records who owns a session the caller just opened (or was given again by its tag). */
  adopt(caller: Caller, info: ManagedSessionInfo): ManagedSessionInfo {
    const known = this.sessions.get(info.id);
    if (known) {
      if (!this.sees(caller, known.owner)) throw new NotFoundError(`Browser session ${info.id} does not exist`);
      return info;
    }
    const owner = this.tags.get(info.openTag) ?? ownerOf(caller);
    this.sessions.set(info.id, { owner, openTag: info.openTag });
    this.tags.set(info.openTag, owner);
    return info;
  }

  /** Forgets a closed session (its checkpoints and recordings keep their owner). */
  forget(sessionId: string): void {
    const known = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    if (known && this.tags.get(known.openTag) === known.owner) this.tags.delete(known.openTag);
  }

  /** The sessions of `infos` this caller may see. */
  visibleSessions(caller: Caller, infos: ManagedSessionInfo[]): ManagedSessionInfo[] {
    return infos.filter((info) => this.sees(caller, this.sessions.get(info.id)?.owner));
  }

  /** Gives a new checkpoint the owner of its session. */
  adoptCheckpoint(checkpoint: Checkpoint): Checkpoint {
    const owner = this.sessions.get(checkpoint.sessionId)?.owner;
    if (owner !== undefined) this.checkpointOwners.set(checkpoint.id, owner);
    return checkpoint;
  }

  /** Gives a new recording the owner of its session. */
  adoptRecording(recording: RecordingMeta): RecordingMeta {
    const owner = this.sessions.get(recording.sessionId)?.owner;
    if (owner !== undefined) this.recordingOwners.set(recording.id, owner);
    return recording;
  }

  /** The checkpoints this caller may see; owners of deleted checkpoints are dropped. */
  visibleCheckpoints(caller: Caller, checkpoints: Checkpoint[]): Checkpoint[] {
    prune(this.checkpointOwners, checkpoints);
    return checkpoints.filter((checkpoint) => this.sees(caller, this.checkpointOwners.get(checkpoint.id)));
  }

  /** The recordings this caller may see; owners of deleted recordings are dropped. */
  visibleRecordings(caller: Caller, recordings: RecordingMeta[]): RecordingMeta[] {
    prune(this.recordingOwners, recordings);
    return recordings.filter((recording) => this.sees(caller, this.recordingOwners.get(recording.id)));
  }

  forgetCheckpoint(checkpointId: string): void {
    this.checkpointOwners.delete(checkpointId);
  }

  forgetRecording(recordingId: string): void {
    this.recordingOwners.delete(recordingId);
  }
}

function prune(owners: Map<string, Owner>, existing: { id: string }[]): void {
  const ids = new Set(existing.map((item) => item.id));
  for (const id of owners.keys()) if (!ids.has(id)) owners.delete(id);
}
