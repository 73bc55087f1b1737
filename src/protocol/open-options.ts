import * as v from "valibot";
import { callerLimits } from "./limits.js";
import { integerIn, nonEmptyString, profileId } from "./fields.js";
import { PacingOptionSchema } from "./pacing-options.js";

/** Options for opening a browser session. */
export const OpenOptionsSchema = v.strictObject({
  /** A host-granted profile id; its cookies and storage persist across sessions. */
  profileId: v.optional(profileId),
  /** Viewport in CSS pixels. */
  viewport: v.optional(
    v.strictObject({
      width: integerIn(callerLimits.viewport.widthMin, callerLimits.viewport.widthMax),
      height: integerIn(callerLimits.viewport.heightMin, callerLimits.viewport.heightMax),
    }),
  ),
  /** A client-made tag that identifies this open for reconciliation. */
  openTag: v.optional(
    v.pipe(nonEmptyString(128, "open tag"), v.regex(/^[A-Za-z0-9._:-]+$/, "expected letters, digits, '.', '_', ':' or '-'")),
  ),
  /** Record console message text in diagnostics (off by default; text is capped). */
  consoleText: v.optional(v.boolean("expected a boolean")),
  /**
   * Pacing of mutating actions (gap with jitter, per-profile actions per
   * minute and per day, human typing): `true`, `false` or overrides. Left
   * out: on for Browserbase and Steel, off for local Chromium.
   */
  pacing: PacingOptionSchema,
});

/** Options accepted by `open`. */
export type OpenOptions = v.InferInput<typeof OpenOptionsSchema>;
/** Open options after validation. */
export type ResolvedOpenOptions = v.InferOutput<typeof OpenOptionsSchema>;
