/** A source of uniform numbers in [0, 1): `Math.random` by default, seeded in tests. */
export type RandomSource = () => number;

/**
 * A seeded random source (mulberry32): the same seed gives the same
 * sequence, so pacing can be replayed in tests. Not for secrets.
 *
 * @example
 * ```ts
 * const random = createSeededRandom(42);
 * random(); // the same number on every run
 * ```
 */
export function createSeededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A whole number drawn uniformly from [min, max]. */
export function between(random: RandomSource, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
