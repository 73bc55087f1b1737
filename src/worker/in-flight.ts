/** Counts requests being handled, so that draining can wait for them. */
export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  /** Runs `work`, counted while it runs. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.count++;
    try {
      return await work();
    } finally {
      this.count--;
      if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /** Resolves `true` once nothing is in flight, or `false` after `timeoutMs`. */
  idle(timeoutMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = Number.isFinite(timeoutMs)
        ? setTimeout(() => {
            this.waiters = this.waiters.filter((waiter) => waiter !== wake);
            resolve(false);
          }, timeoutMs)
        : undefined;
      this.waiters.push(wake);
    });
  }
}
