/**
 * Statistics of bench/actions.ts. Its paths run the same action one after
 * another in every round, so each time of a path has a raw playwright-core
 * time taken moments before or after it on the same machine. On a shared
 * machine whose speed drifts during the run, the ratio of those pairs is
 * steadier than the ratio of two medians taken over the whole run.
 */

/** The `q` quantile of `values` (nearest rank below; NaN when empty). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))] ?? Number.NaN;
}

/**
 * The median over rounds of `times[i] / rawTimes[i]`: each time against the
 * raw time of the same action in the same round.
 *
 * @throws {RangeError} when the two lists differ in length.
 */
export function pairedRatio(times: readonly number[], rawTimes: readonly number[]): number {
  if (times.length !== rawTimes.length) throw new RangeError(`pairedRatio: ${times.length} times against ${rawTimes.length} raw times`);
  return quantile(
    times.map((time, index) => time / rawTimes[index]!),
    0.5,
  );
}
