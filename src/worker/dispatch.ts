import { isValidationError } from "../errors.js";
import type { BrowserSessionManager } from "../lifecycle/manager.js";
import { performCommand } from "../lifecycle/perform.js";
import type { WorkerMethod, WorkerRequest } from "../protocol/wire.js";
import type { Caller } from "./auth.js";
import { bodyFieldError } from "./body.js";
import type { TenantScope } from "./tenant-scope.js";

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
export function createDispatch(manager: BrowserSessionManager, scope: TenantScope): Dispatch {
  const handlers: { [Method in WorkerMethod]: Handler<Method> } = {
    async open({ options = {} }, { caller }) {
      const release = options.openTag === undefined ? () => undefined : scope.claimTag(caller, options.openTag);
      try {
        return scope.adopt(caller, await manager.open(options));
      } finally {
        release();
      }
    },
    async execute({ id, command, controlToken }, { caller, signal }) {
      scope.session(caller, id);
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
    async close({ id }, { caller }) {
      scope.session(caller, id);
      await manager.closeSession(id);
      return null;
    },
    async list(_request, { caller }) {
      return scope.visibleSessions(caller, manager.list());
    },
    async liveFrame({ id }, { caller }) {
      scope.session(caller, id);
      return manager.liveFrame(id);
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
      await manager.releaseControl(id, token);
      return null;
    },
    async control({ id }, { caller }) {
      scope.session(caller, id);
      return manager.control(id);
    },
    async checkpoint({ id }, { caller }) {
      scope.session(caller, id);
      return scope.adoptCheckpoint(await manager.checkpoint(id));
    },
    async checkpoints(_request, { caller }) {
      return scope.visibleCheckpoints(caller, await manager.checkpoints());
    },
    async resume({ checkpointId }, { caller }) {
      scope.checkpoint(caller, checkpointId);
      return scope.adopt(caller, await manager.resumeCheckpoint(checkpointId));
    },
    async deleteCheckpoint({ checkpointId }, { caller }) {
      scope.checkpoint(caller, checkpointId);
      await manager.deleteCheckpoint(checkpointId);
      scope.forgetCheckpoint(checkpointId);
      return null;
    },
    async recordingStart({ id }, { caller }) {
      scope.session(caller, id);
      return scope.adoptRecording(await manager.startRecording(id));
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
      return scope.visibleRecordings(caller, await manager.recordings());
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
      return scope.visibleSessions(caller, await manager.reconcile(openTag));
    },
  };
  return (request, context) => (handlers[request.method] as Handler<WorkerMethod>)(request, context);
}
