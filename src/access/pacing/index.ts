export { Pacer, sessionBucketPrefix, type PacingTurn, type StoredPacing } from "./pacer.js";
export { resolvePacingPolicy, isPacedOp, pacedProviders, unpacedOps, type PacingPolicy } from "./policy.js";
export { keyDelays } from "./cadence.js";
export { createSeededRandom, type RandomSource } from "./random.js";
export { dailyLimit, dayOf, freshBucket, nextTurn, pauseUntil, refill, take, type BucketTurn, type ProfilePacingState } from "./bucket.js";
