import { ActionFailedError, OutcomeUnknownError } from "../errors.js";

/** Waits `ms`, or rejects at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ActionFailedError("typing was cancelled"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ActionFailedError("typing was cancelled"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Types `text` one character at a time (as `for…of` counts them), pausing
 * `keyDelaysMs[i]` before character `i`: the typing cadence the pacing
 * policy made (`fill`/`type` with `keyDelaysMs`). These pauses are pacing
 * waits, inside the command's budget (`commandBudgetMs` adds them). Once a
 * character may have reached the page (or `changedBefore`: the field was
 * already cleared), a failure is an {@link OutcomeUnknownError}: part of the
 * text may be in the field. Messages never quote the text.
 */
export async function typeByKey(
  typeOne: (character: string) => Promise<void>,
  text: string,
  keyDelaysMs: readonly number[],
  signal: AbortSignal | undefined,
  changedBefore = false,
): Promise<void> {
  const characters = [...text];
  for (const [index, character] of characters.entries()) {
    const delay = keyDelaysMs[index] ?? 0;
    try {
      if (delay > 0) await pause(delay, signal);
      await typeOne(character);
    } catch (error) {
      if (index === 0 && !changedBefore) throw error;
      throw new OutcomeUnknownError(
        `typing stopped after ${index} of ${characters.length} characters; part of the text may be in the field. Observe the page before acting again.`,
        { cause: error },
      );
    }
  }
}
