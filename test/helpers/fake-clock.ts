import type { Clock } from "../../src/lifecycle/clock.js";

/** A clock whose time moves only when a test advances it. */
export class FakeClock implements Clock {
  private time: number;
  private timers: { id: number; at: number; callback: () => void }[] = [];
  private nextId = 1;

  /** Starts at `start` (default: the real time now). */
  constructor(start: number = Date.now()) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ id, at: this.time + ms, callback });
    return id;
  }

  clearTimeout(timer: unknown): void {
    this.timers = this.timers.filter((entry) => entry.id !== timer);
  }

  /** Timers waiting to fire. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const due = this.timers.filter((entry) => entry.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((entry) => entry !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = target;
  }
}
