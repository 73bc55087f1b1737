import { limits } from "../../protocol/limits.js";
import type { PacingPolicy } from "./policy.js";
import { between, type RandomSource } from "./random.js";

const punctuation = /\p{P}/u;
const space = /\s/u;

/**
 * The pause before each character of `text` (ms, one per character as
 * `for…of` counts them): drawn in `[keyDelayMinMs, keyDelayMaxMs]`, longer
 * after a space or punctuation (`limits.pacing.afterSpaceExtraMs`,
 * `afterPunctuationExtraMs`). A cadence longer than
 * `limits.pacing.typingTotalMaxMs` is scaled down to fit. The result
 * reveals where the text has spaces and punctuation: never log it.
 *
 * @example
 * ```ts
 * keyDelays("hi there", resolvePacingPolicy(true, "local"), createSeededRandom(1)); // 8 pauses, the one after the space longer
 * ```
 */
export function keyDelays(text: string, policy: Pick<PacingPolicy, "keyDelayMinMs" | "keyDelayMaxMs">, random: RandomSource): number[] {
  const { afterSpaceExtraMs, afterPunctuationExtraMs, keyDelayMaxMs, typingTotalMaxMs } = limits.pacing;
  const delays: number[] = [];
  let previous: string | undefined;
  for (const character of text) {
    let delay = between(random, policy.keyDelayMinMs, policy.keyDelayMaxMs);
    if (previous !== undefined && space.test(previous)) delay += between(random, afterSpaceExtraMs[0], afterSpaceExtraMs[1]);
    else if (previous !== undefined && punctuation.test(previous)) delay += between(random, afterPunctuationExtraMs[0], afterPunctuationExtraMs[1]);
    delays.push(Math.min(delay, keyDelayMaxMs));
    previous = character;
  }
  const total = delays.reduce((sum, delay) => sum + delay, 0);
  if (total <= typingTotalMaxMs) return delays;
  const scale = typingTotalMaxMs / total;
  return delays.map((delay) => Math.floor(delay * scale));
}
