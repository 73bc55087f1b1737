import { CapacityError, NotFoundError } from "../errors.js";
import { base64DecodedBytes } from "../protocol/commands.js";
import { limits } from "../protocol/limits.js";
import type { Clock } from "./clock.js";
import type { RecordingMeta, RecordingStore } from "./stores.js";

import type { RecordingFrame } from "../protocol/sessions.js";

export type { RecordingFrame } from "../protocol/sessions.js";

interface Active {
  timer: unknown;
  /** A capture is in flight. */
  capturing: boolean;
}

/**
 * Session recordings: a PNG frame at start, then every 5 s, whether or not
 * anyone watches. A busy browser skips the frame. Limits per manager: frames
 * per recording, recordings kept, and PNG bytes; reaching one stops capture
 * and keeps the frames. Recordings found on start-up read as stopped.
 */
export class Recorder {
  private readonly recordings = new Map<string, RecordingMeta>();
  private readonly active = new Map<string, Active>();
  private bytes = 0;

  constructor(
    private readonly store: RecordingStore,
    private readonly clock: Clock,
    private readonly limits: { framesPerRecording: number; recordingsPerManager: number; bytesPerManager: number },
    /** A PNG of the session's selected page, or `undefined` when it is busy (the frame is skipped). */
    private readonly capture: (sessionId: string) => Promise<string | undefined>,
    private readonly onStop: (recording: RecordingMeta) => void,
  ) {}

  /** Reads stored recordings (expired ones are deleted by the store); any still marked recording is stopped as recovered. */
  async load(ttlMs: number): Promise<void> {
    for (const stored of await this.store.open(ttlMs)) {
      const recording: RecordingMeta =
        stored.state === "recording"
          ? { ...stored, state: "stopped", stoppedAt: stored.frames.at(-1)?.capturedAt ?? stored.startedAt, stopReason: "recovered" }
          : stored;
      // Marking it recovered on disk is best effort: the in-memory state is what callers see.
      if (recording !== stored) await this.store.writeMeta(recording).catch(() => undefined);
      this.recordings.set(recording.id, recording);
      this.bytes += recording.frames.reduce((sum, frame) => sum + frame.bytes, 0);
    }
  }

  async start(sessionId: string): Promise<RecordingMeta> {
    for (const [recordingId] of this.active) {
      if (this.recordings.get(recordingId)?.sessionId === sessionId) {
        throw new CapacityError(`Session ${sessionId} is already being recorded as ${recordingId}`);
      }
    }
    if (this.recordings.size >= this.limits.recordingsPerManager) {
      throw new CapacityError(`At most ${this.limits.recordingsPerManager} recordings are kept; delete one first`);
    }
    const recording: RecordingMeta = {
      id: `rec_${crypto.randomUUID()}`,
      sessionId,
      startedAt: new Date(this.clock.now()).toISOString(),
      state: "recording",
      frames: [],
    };
    this.recordings.set(recording.id, recording);
    this.active.set(recording.id, { timer: undefined, capturing: false });
    await this.store.writeMeta(recording);
    await this.tick(recording.id);
    return this.copy(recording);
  }

  async stop(recordingId: string, reason: NonNullable<RecordingMeta["stopReason"]> = "stopped"): Promise<RecordingMeta> {
    const recording = this.get(recordingId);
    const active = this.active.get(recordingId);
    if (active) {
      this.clock.clearTimeout(active.timer);
      this.active.delete(recordingId);
      recording.state = "stopped";
      recording.stoppedAt = new Date(this.clock.now()).toISOString();
      recording.stopReason = reason;
      await this.store.writeMeta(recording).catch(() => undefined);
      this.onStop(this.copy(recording));
    }
    return this.copy(recording);
  }

  /** Stops the recordings of a closed session; their frames stay. */
  async stopSession(sessionId: string): Promise<void> {
    const ids = [...this.active.keys()].filter((recordingId) => this.recordings.get(recordingId)?.sessionId === sessionId);
    await Promise.all(ids.map((recordingId) => this.stop(recordingId, "sessionClosed")));
  }

  get(recordingId: string): RecordingMeta {
    const recording = this.recordings.get(recordingId);
    if (!recording) throw new NotFoundError(`Recording ${recordingId} does not exist`);
    return recording;
  }

  describe(recordingId: string): RecordingMeta {
    return this.copy(this.get(recordingId));
  }

  list(): RecordingMeta[] {
    return [...this.recordings.values()].map((recording) => this.copy(recording));
  }

  async frame(recordingId: string, frameId: string): Promise<RecordingFrame> {
    const frame = this.get(recordingId).frames.find((candidate) => candidate.id === frameId);
    const base64 = frame && (await this.store.readFrame(recordingId, frameId));
    if (!frame || !base64) throw new NotFoundError(`Frame ${frameId} of recording ${recordingId} does not exist`);
    return { mimeType: "image/png", base64, capturedAt: frame.capturedAt };
  }

  async delete(recordingId: string): Promise<void> {
    const recording = this.get(recordingId);
    if (this.active.has(recordingId)) await this.stop(recordingId);
    await this.store.delete(recordingId);
    this.recordings.delete(recordingId);
    this.bytes -= recording.frames.reduce((sum, frame) => sum + frame.bytes, 0);
  }

  /** Stops every timer (frames stay). */
  async close(): Promise<void> {
    await Promise.all([...this.active.keys()].map((recordingId) => this.stop(recordingId, "stopped")));
    await this.store.close();
  }

  private async tick(recordingId: string): Promise<void> {
    const active = this.active.get(recordingId);
    const recording = this.recordings.get(recordingId);
    if (!active || !recording || active.capturing) return;
    active.capturing = true;
    try {
      const base64 = await this.capture(recording.sessionId).catch(() => undefined);
      if (!this.active.has(recordingId) || base64 === undefined) return;
      const bytes = base64DecodedBytes(base64);
      if (this.bytes + bytes > this.limits.bytesPerManager) {
        await this.stop(recordingId, "byteLimit");
        return;
      }
      const frame = { id: `f${String(recording.frames.length + 1).padStart(4, "0")}`, capturedAt: new Date(this.clock.now()).toISOString(), bytes };
      await this.store.writeFrame(recordingId, frame.id, base64);
      // Deleted while the frame was being written: leave nothing behind.
      if (!this.recordings.has(recordingId)) {
        await this.store.delete(recordingId).catch(() => undefined);
        return;
      }
      recording.frames.push(frame);
      this.bytes += bytes;
      await this.store.writeMeta(recording);
      if (recording.frames.length >= this.limits.framesPerRecording) await this.stop(recordingId, "frameLimit");
    } finally {
      active.capturing = false;
      if (this.active.get(recordingId) === active) {
        active.timer = this.clock.setTimeout(() => void this.tick(recordingId), limits.recording.frameIntervalMs);
      }
    }
  }

  private copy(recording: RecordingMeta): RecordingMeta {
    return { ...recording, frames: recording.frames.map((frame) => ({ ...frame })) };
  }
}
