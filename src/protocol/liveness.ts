/**
 * The pure half of a browser liveness check, shared by both engines: one
 * probe at a time, bounded by `limits.liveness.probeTimeoutMs`, repeated every
 * `limits.liveness.probeIntervalMs` while a command runs. What a probe asks
 * (Playwright's `Browser.getVersion` through a CDP session, or the CDP
 * client's own call) is the engine's. Timers are passed in, so a test can
 * fire them instead of waiting.
 */
import { OutcomeUnknownError, SessionClosedError, type StationBrowserError } from "../errors.js";
import { limits } from "./limits.js";

/** Where the probe schedules its interval and its bound; default the runtime's own timers. */
export interface LivenessTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const runtimeTimers: LivenessTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** Options of {@link LivenessProbe}. */
export interface LivenessProbeOptions {
  /** How long a probe may go unanswered (ms, default `limits.liveness.probeTimeoutMs`). */
  timeoutMs?: number;
  /** Between probes while watched (ms, default `limits.liveness.probeIntervalMs`). */
  intervalMs?: number;
  timers?: LivenessTimers;
}

/**
 * Probes one browser; one probe at a time. `ask` resolves with why the
 * browser is gone, or `undefined` when it answered; a rejection means gone.
 *
 * @example
 * ```ts
 * const probe = new LivenessProbe(async () => void (await connection.browser.send("Browser.getVersion")));
 * const stop = probe.watch((reason) => endSession(reason));
 * ```
 */
export class LivenessProbe {
  readonly #ask: () => Promise<string | undefined>;
  readonly #timeoutMs: number;
  readonly #intervalMs: number;
  readonly #timers: LivenessTimers;
  #probing: Promise<string | undefined> | undefined;

  constructor(ask: () => Promise<string | undefined>, options: LivenessProbeOptions = {}) {
    this.#ask = ask;
    this.#timeoutMs = options.timeoutMs ?? limits.liveness.probeTimeoutMs;
    this.#intervalMs = options.intervalMs ?? limits.liveness.probeIntervalMs;
    this.#timers = options.timers ?? runtimeTimers;
  }

  /** Whether a probe is in flight. */
  get busy(): boolean {
    return this.#probing !== undefined;
  }

  /** Why the browser is gone, or `undefined` when it answered in time. A probe already in flight is shared. Never throws. */
  check(): Promise<string | undefined> {
    this.#probing ??= this.#probe().finally(() => (this.#probing = undefined));
    return this.#probing;
  }

  /**
   * Probes every interval until stopped; calls `onGone` once with the reason
   * when a probe says the browser is gone. A probe in flight when stopped
   * still reports.
   */
  watch(onGone: (reason: string) => void, intervalMs: number = this.#intervalMs): () => void {
    let stopped = false;
    let timer: unknown;
    const next = () => {
      timer = this.#timers.setTimeout(() => {
        void this.check().then((reason) => {
          if (reason !== undefined) onGone(reason);
          else if (!stopped) next();
        });
      }, intervalMs);
    };
    next();
    return () => {
      stopped = true;
      this.#timers.clearTimeout(timer);
    };
  }

  async #probe(): Promise<string | undefined> {
    let timer: unknown;
    const late = new Promise<string>((resolve) => {
      timer = this.#timers.setTimeout(() => resolve(`the browser did not answer a CDP probe (Browser.getVersion) within ${this.#timeoutMs} ms`), this.#timeoutMs);
    });
    const asked = this.#ask().catch((error: unknown) => `the browser connection failed (${(error instanceof Error ? error.message : String(error)).split("\n")[0]})`);
    try {
      return await Promise.race([asked, late]);
    } finally {
      this.#timers.clearTimeout(timer);
    }
  }
}

/**
 * The error a command gets when its session's browser stopped answering:
 * `SessionClosedError` for an observation, `OutcomeUnknownError` for a
 * command that may have acted before the browser went away.
 */
export function browserGoneError(sessionId: string, op: string, mutating: boolean, reason: string): StationBrowserError {
  const why = `the browser of session ${sessionId} is gone (${reason}); the session is closed`;
  if (!mutating) return new SessionClosedError(`${op}: ${why}`);
  return new OutcomeUnknownError(`${op}: ${why}. It may have taken effect before the browser went away; do not repeat it blindly.`);
}
