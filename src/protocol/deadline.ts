import { ActionFailedError, OutcomeUnknownError, TimeoutError } from "../errors.js";

/** How one command is watched: its name, whether it changes the page, and its time budget. */
export interface Watch {
  op: string;
  mutating: boolean;
  budgetMs: number;
  signal: AbortSignal | undefined;
}

/**
 * Runs a command under a watchdog. Playwright's own timeouts normally end a
 * command first; the watchdog catches what they cannot (a page stuck in a
 * script, a lost connection) and a caller's abort. A mutating command cut off
 * this way may already have taken effect, so it is reported as
 * {@link OutcomeUnknownError} — never as a failure that is safe to retry.
 */
export async function withDeadline<T>(work: Promise<T>, watch: Watch): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const cutOff = new Promise<never>((_resolve, reject) => {
    const stop = (reason: "timeout" | "abort") => {
      const what = reason === "timeout" ? `did not finish within ${watch.budgetMs} ms` : "was cancelled";
      if (watch.mutating) {
        reject(new OutcomeUnknownError(`${watch.op} ${what}; it may have taken effect. Observe the page before acting again; do not repeat it blindly.`));
      } else {
        reject(reason === "timeout" ? new TimeoutError(`${watch.op} ${what}`) : new ActionFailedError(`${watch.op} ${what}`));
      }
    };
    timer = setTimeout(() => stop("timeout"), watch.budgetMs);
    if (watch.signal) {
      onAbort = () => stop("abort");
      watch.signal.addEventListener("abort", onAbort, { once: true });
    }
  });
  // A command cut off may still settle later; its outcome is already reported.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, cutOff]);
  } finally {
    clearTimeout(timer);
    if (onAbort) watch.signal?.removeEventListener("abort", onAbort);
  }
}
