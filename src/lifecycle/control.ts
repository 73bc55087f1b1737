import { ControlLeaseError, ValidationError } from "../errors.js";
import { limits } from "../protocol/limits.js";
import type { Clock } from "./clock.js";

import type { ControlGrant, ControlState } from "../protocol/sessions.js";

export type { ControlGrant, ControlState } from "../protocol/sessions.js";

interface Lease {
  token: string;
  ttlMs: number;
  expiresAt: number;
  timer: unknown;
}

/** Compares two strings in time that depends only on their lengths. */
function sameToken(given: string, expected: string): boolean {
  let difference = given.length ^ expected.length;
  for (let index = 0; index < expected.length; index++) {
    difference |= (given.charCodeAt(index % Math.max(given.length, 1)) || 0) ^ expected.charCodeAt(index);
  }
  return difference === 0;
}

/**
 * Human control leases: exclusive, 1–120 s, renewable, and handed back to
 * automation when they expire. While one is held, mutating commands need its
 * token; observation commands do not. Leases live in memory only: they do not
 * survive a restart.
 */
export class ControlLeases {
  private readonly leases = new Map<string, Lease>();

  constructor(
    private readonly clock: Clock,
    private readonly onChange: (sessionId: string, state: ControlState, reason: "acquired" | "renewed" | "released" | "expired" | "closed") => void,
  ) {}

  acquire(sessionId: string, ttlMs: number = limits.manager.controlTtlDefaultMs): ControlGrant {
    this.assertTtl(ttlMs);
    const held = this.current(sessionId);
    if (held) {
      throw new ControlLeaseError(`Session ${sessionId} is already under human control until ${new Date(held.expiresAt).toISOString()}`);
    }
    const lease: Lease = { token: crypto.randomUUID(), ttlMs, expiresAt: 0, timer: undefined };
    this.leases.set(sessionId, lease);
    this.schedule(sessionId, lease);
    this.onChange(sessionId, this.state(sessionId), "acquired");
    return { token: lease.token, expiresAt: new Date(lease.expiresAt).toISOString() };
  }

  renew(sessionId: string, token: string, ttlMs?: number): ControlGrant {
    const lease = this.owned(sessionId, token);
    if (ttlMs !== undefined) {
      this.assertTtl(ttlMs);
      lease.ttlMs = ttlMs;
    }
    this.clock.clearTimeout(lease.timer);
    this.schedule(sessionId, lease);
    this.onChange(sessionId, this.state(sessionId), "renewed");
    return { token: lease.token, expiresAt: new Date(lease.expiresAt).toISOString() };
  }

  /** Refuses with `ControlLeaseError` unless `token` holds the session's lease now. */
  check(sessionId: string, token: string): void {
    this.owned(sessionId, token);
  }

  release(sessionId: string, token: string): void {
    const lease = this.owned(sessionId, token);
    this.clock.clearTimeout(lease.timer);
    this.leases.delete(sessionId);
    this.onChange(sessionId, { mode: "automation" }, "released");
  }

  /** Drops a session's lease when the session closes. */
  drop(sessionId: string): void {
    const lease = this.leases.get(sessionId);
    if (!lease) return;
    this.clock.clearTimeout(lease.timer);
    this.leases.delete(sessionId);
    this.onChange(sessionId, { mode: "automation" }, "closed");
  }

  state(sessionId: string): ControlState {
    const lease = this.current(sessionId);
    return lease ? { mode: "human", expiresAt: new Date(lease.expiresAt).toISOString() } : { mode: "automation" };
  }

  /**
   * Allows or refuses a command. Observation is always allowed; a mutating
   * command needs the token while a lease is held. Returns whether a human
   * token authorised it.
   */
  authorize(sessionId: string, token: string | undefined, mutating: boolean): boolean {
    const lease = this.current(sessionId);
    if (!lease) {
      if (token !== undefined && mutating) {
        throw new ControlLeaseError(`Session ${sessionId} is not under human control (the lease ended); the control token is no longer valid`);
      }
      return false;
    }
    if (token !== undefined && sameToken(token, lease.token)) return true;
    if (!mutating) return false;
    if (token !== undefined) throw new ControlLeaseError(`Wrong control token for session ${sessionId}`);
    throw new ControlLeaseError(
      `Session ${sessionId} is under human control until ${new Date(lease.expiresAt).toISOString()}; automation may only observe until it ends`,
    );
  }

  /**
   * Allows or refuses closing a session from outside: while a lease is held,
   * only its token may close it. Without a lease anyone may (a token left
   * over from an ended lease is ignored: closing needs none).
   */
  authorizeClose(sessionId: string, token: string | undefined): void {
    const lease = this.current(sessionId);
    if (!lease || (token !== undefined && sameToken(token, lease.token))) return;
    if (token !== undefined) throw new ControlLeaseError(`Wrong control token for session ${sessionId}; it stays open`);
    throw new ControlLeaseError(
      `Session ${sessionId} is under human control until ${new Date(lease.expiresAt).toISOString()}; only the control token can close it before then`,
    );
  }

  private current(sessionId: string): Lease | undefined {
    const lease = this.leases.get(sessionId);
    if (lease && lease.expiresAt <= this.clock.now()) {
      this.expire(sessionId, lease);
      return undefined;
    }
    return lease;
  }

  private owned(sessionId: string, token: string): Lease {
    const lease = this.current(sessionId);
    if (!lease) throw new ControlLeaseError(`Session ${sessionId} is not under human control (the lease ended or was never taken)`);
    if (!sameToken(token, lease.token)) throw new ControlLeaseError(`Wrong control token for session ${sessionId}`);
    return lease;
  }

  private schedule(sessionId: string, lease: Lease): void {
    lease.expiresAt = this.clock.now() + lease.ttlMs;
    lease.timer = this.clock.setTimeout(() => {
      if (this.leases.get(sessionId) === lease) this.expire(sessionId, lease);
    }, lease.ttlMs);
  }

  private expire(sessionId: string, lease: Lease): void {
    this.clock.clearTimeout(lease.timer);
    this.leases.delete(sessionId);
    this.onChange(sessionId, { mode: "automation" }, "expired");
  }

  private assertTtl(ttlMs: number): void {
    const { controlTtlMinMs: min, controlTtlMaxMs: max } = limits.manager;
    if (!Number.isInteger(ttlMs) || ttlMs < min || ttlMs > max) {
      throw new ValidationError("ttlMs", `expected an integer from ${min} to ${max} ms (got ${ttlMs})`);
    }
  }
}
