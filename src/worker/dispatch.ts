import { AuthenticationError, NotFoundError, PayloadTooLargeError, isOutcomeUnknownError, isValidationError } from "../errors.js";
import { liveViewServing } from "../protocol/limits.js";
import { uploadSizeProblem } from "../protocol/commands.js";
import type { BrowserSessionManager } from "../lifecycle/manager.js";
import { performCommand } from "../protocol/perform.js";
import type { WorkerMethod, WorkerRequest } from "../protocol/wire.js";
import type { Caller } from "./auth.js";
import { bodyFieldError } from "./body.js";
import type { TenantScope } from "./tenant-scope.js";
import type { ViewTokens } from "./view-token.js";

/** What a method handler gets besides its request. */
export interface DispatchContext {
  caller: Caller;
  /** Aborted when the client goes away; cancels a running command. */
  signal: AbortSignal;
}

type Handler<Method extends WorkerMethod> = (request: WorkerRequest<Method>, context: DispatchContext) => Promise<unknown>;

/** Runs one validated request on the manager. `undefined` results are sent as `null`. */
export type Dispatch = (request: WorkerRequest, context: DispatchContext) => Promise<unknown>;

/**
 * One handler per worker method, each a thin call into the manager after the
 * tenant check: a tenant reaches only what it owns.
 */
export function createDispatch(manager: BrowserSessionManager, scope: TenantScope, tokens: ViewTokens): Dispatch {
  /**
   * The caller's tag for an open (a tenant always gets one, made here when it
   * sent none) and the manager's scoped tag for it.
   */
  function tagsOf(caller: Caller, sent: string | undefined): { callerTag?: string; openTag?: string } {
    const callerTag = sent ?? (caller.tenantId === undefined ? undefined : crypto.randomUUID());
    return callerTag === undefined ? {} : { callerTag, openTag: scope.managerTag(caller, callerTag) };
  }

  /**
   * Runs an open within the caller's tenant quota (a slot held while it
   * runs) and under the caller's claim of its (manager) tag. When the
   * outcome is unknown, the provider may hold a session under the tag: the
   * claim stays the caller's, for its reconcile. An error names the caller's
   * tag, never the manager's.
   */
  async function withTagClaim<T>(caller: Caller, tags: { callerTag?: string; openTag?: string }, run: () => Promise<T>): Promise<T> {
    const { openTag, callerTag } = tags;
    const releaseSlot = scope.reserveSlot(caller, openTag);
    let release: () => void = () => undefined;
    let keepClaim = false;
    try {
      if (openTag !== undefined) release = scope.claimTag(caller, openTag);
      return await run();
    } catch (error) {
      keepClaim = isOutcomeUnknownError(error);
      if (openTag !== undefined && callerTag !== undefined && openTag !== callerTag && error instanceof Error) {
        // The caller sees its own tag, never the worker's scoped one: in the message and in the details.
        error.message = error.message.split(openTag).join(callerTag);
        if ((error as { openTag?: unknown }).openTag === openTag) Object.defineProperty(error, "openTag", { value: callerTag });
      }
      throw error;
    } finally {
      if (!keepClaim) release();
      releaseSlot();
    }
  }

  const handlers: { [Method in WorkerMethod]: Handler<Method> } = {
    async open({ options = {} }, { caller }) {
      if (options.profileId !== undefined) scope.profile(caller, options.profileId);
      const tags = tagsOf(caller, options.openTag);
      return withTagClaim(caller, tags, async () =>
        scope.adopt(
          caller,
          await manager.open(tags.openTag === undefined ? options : { ...options, openTag: tags.openTag }, tenantOf(caller)),
          tags.callerTag,
        ),
      );
    },
    async execute({ id, command, controlToken }, { caller, signal }) {
      scope.session(caller, id);
      refuseOversizeUpload(command);
      return manager.execute(id, command as never, { ...(controlToken === undefined ? {} : { controlToken }), signal });
    },
    async action({ id, action, value, controlToken }, { caller, signal }) {
      scope.session(caller, id);
      let command;
      try {
        command = performCommand(action, value);
      } catch (error) {
        throw isValidationError(error) ? bodyFieldError(error) : error;
      }
      return manager.execute(id, command, { ...(controlToken === undefined ? {} : { controlToken }), signal });
    },
    async close({ id, controlToken }, { caller }) {
      scope.session(caller, id);
      await manager.closeSession(id, controlToken === undefined ? {} : { controlToken });
      return null;
    },
    async list(_request, { caller }) {
      return scope.visibleSessions(caller, manager.list());
    },
    async liveFrame({ id }, { caller }) {
      scope.session(caller, id);
      return manager.liveFrame(id);
    },
    // A signed view token for the live view page; the session's provider live view too, when it has one.
    async liveView({ id, ttlMs = liveViewServing.tokenTtlDefaultMs }, { caller }) {
      scope.session(caller, id);
      const info = manager.list().find((each) => each.id === id);
      if (!info) throw new NotFoundError(`Browser session ${id} does not exist`);
      const { token, expiresAt } = await tokens.issue(id, ttlMs);
      return {
        path: `/live/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`,
        expiresAt: new Date(expiresAt).toISOString(),
        ...(info.liveViewUrl ? { providerUrl: info.liveViewUrl } : {}),
      };
    },
    async controlAcquire({ id, ttlMs }, { caller }) {
      scope.session(caller, id);
      return manager.acquireControl(id, ttlMs);
    },
    async controlRenew({ id, token, ttlMs }, { caller }) {
      scope.session(caller, id);
      return manager.renewControl(id, token, ttlMs);
    },
    async controlRelease({ id, token }, { caller }) {
      scope.session(caller, id);
      return manager.releaseControl(id, token);
    },
    async control({ id }, { caller }) {
      scope.session(caller, id);
      return manager.control(id);
    },
    async checkpoint({ id }, { caller }) {
      scope.session(caller, id);
      const owner = scope.ownerOfSession(id);
      return scope.adoptCheckpoint(await manager.checkpoint(id), owner);
    },
    async checkpoints(_request, { caller }) {
      const mark = scope.mark();
      return scope.visibleCheckpoints(caller, await manager.checkpoints(), mark);
    },
    // Opens run to the end even if the client goes away: the session is then found by its tag,
    // where a cut-off create would leave an uncertain open that blocks every caller's opens.
    async resume({ checkpointId, openTag }, { caller }) {
      scope.checkpoint(caller, checkpointId);
      const tags = tagsOf(caller, openTag);
      return withTagClaim(caller, tags, async () =>
        scope.adopt(
          caller,
          await manager.resumeCheckpoint(checkpointId, { ...(tags.openTag === undefined ? {} : { openTag: tags.openTag }), ...tenantOf(caller) }),
          tags.callerTag,
        ),
      );
    },
    async deleteCheckpoint({ checkpointId }, { caller }) {
      scope.checkpoint(caller, checkpointId);
      await manager.deleteCheckpoint(checkpointId);
      scope.forgetCheckpoint(checkpointId);
      return null;
    },
    async recordingStart({ id }, { caller }) {
      scope.session(caller, id);
      const owner = scope.ownerOfSession(id);
      return scope.adoptRecording(await manager.startRecording(id), owner);
    },
    async recordingStop({ recordingId }, { caller }) {
      scope.recording(caller, recordingId);
      return manager.stopRecording(recordingId);
    },
    async recording({ recordingId }, { caller }) {
      scope.recording(caller, recordingId);
      return manager.getRecording(recordingId);
    },
    async recordings(_request, { caller }) {
      const mark = scope.mark();
      return scope.visibleRecordings(caller, await manager.recordings(), mark);
    },
    async recordingFrame({ recordingId, frameId }, { caller }) {
      scope.recording(caller, recordingId);
      return manager.recordingFrame(recordingId, frameId);
    },
    async recordingDelete({ recordingId }, { caller }) {
      scope.recording(caller, recordingId);
      await manager.deleteRecording(recordingId);
      scope.forgetRecording(recordingId);
      return null;
    },
    async reconcile({ openTag }, { caller }) {
      // Tags are scoped per tenant; another owner's tag (an operator's, used deliberately) reads as unknown.
      const managerTag = scope.managerTag(caller, openTag);
      if (!scope.mayReconcile(caller, managerTag)) return [];
      const found = await manager.reconcile(managerTag);
      for (const info of found) scope.adopt(caller, info, openTag);
      return scope.visibleSessions(caller, found);
    },
    async reconcileAll({ adopt }, { caller }) {
      if (caller.tenantId !== undefined) throw new AuthenticationError("forbidden", "reconcileAll is an operator method; use reconcile(openTag) for your own opens");
      const report = await manager.reconcile({ adopt: adopt === true });
      for (const { sessionId } of report.adopted) {
        const info = manager.list().find((each) => each.id === sessionId);
        if (info) scope.adopt(caller, info);
      }
      return report;
    },
  };
  return (request, context) => (handlers[request.method] as Handler<WorkerMethod>)(request, context);
}

/** An upload over the decoded limit is a size refusal (413), like an oversize body: nothing runs. */
function refuseOversizeUpload(command: unknown): void {
  if ((command as { op?: unknown } | null)?.op !== "upload") return;
  const problem = uploadSizeProblem((command as { files?: unknown }).files);
  if (problem) throw new PayloadTooLargeError(`command.files: ${problem}; nothing was run`);
}

/** The tenant an open is for, as the manager takes it (nothing for the operator). */
function tenantOf(caller: Caller): { tenant?: string } {
  return caller.tenantId === undefined ? {} : { tenant: caller.tenantId };
}
