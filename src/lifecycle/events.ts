import { EventEmitter } from "eventemitter3";
import type { ChallengeResult } from "../protocol/results.js";

/** Why a session closed. */
export type SessionCloseReason = "closed" | "idleTimeout" | "managerClosed" | "browserGone";

/** Events of the session manager and their payloads. */
export interface SessionManagerEvents {
  "session-open": [event: { sessionId: string; provider: string; profileId?: string }];
  "session-close": [event: { sessionId: string; reason: SessionCloseReason }];
  "action-start": [event: { sessionId: string; seq: number; op: string }];
  "action-finish": [event: { sessionId: string; seq: number; op: string; outcome: "ok" | "error" | "unknown"; durationMs: number; errorCode?: string }];
  "control-change": [event: { sessionId: string; mode: "automation" | "human"; expiresAt?: string; reason: "acquired" | "renewed" | "released" | "expired" | "closed" }];
"pacing-wait": [event: { sessionId: string; op: string; waitMs: number; reasons: string[] }];
  "pacing-pause": [event: { sessionId: string; profileId?: string; until: string; reason: string }];
  "recording-stop": [event: { recordingId: string; sessionId: string; reason: string }];
  /** Challenge detection saw something worth reporting: after an action (its result's `challenge`), or on a human's release of control. */
  challenge: [event: { sessionId: string; challenge: ChallengeResult; after: "action" | "control-release" }];
}

/** The manager's emitter (eventemitter3, typed). */
export class SessionManagerEmitter extends EventEmitter<SessionManagerEvents> {}
