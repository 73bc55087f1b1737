import * as v from "valibot";
import { callerLimits } from "./limits.js";
import { boundedString, choice, integerIn, nonEmptyString, numberIn, timeoutMs } from "./fields.js";

/**
 * The field schemas commands are made of, by name, so that the agent tools'
 * inputs reuse them (a bad value gets the protocol's message, and the tools
 * need not load the whole vocabulary). `commands.ts` assembles them.
 */

/** A `navigate` / `newPage` URL (the URL policy is the engine's). */
export const url = nonEmptyString(callerLimits.urlLength, "URL");

/** `fill` value, `type` text and `press` key. */
export const fillValue = boundedString(callerLimits.valueLength, "value");
export const typeText = boundedString(callerLimits.valueLength, "text");
export const pressKey = nonEmptyString(callerLimits.keyLength, "key");

/**
 * `fill` and `type`: the pause before each character (ms, one per character
 * as `for…of` counts them), typed key by key. The pacing policy fills it in
 * when human typing is on; it reveals the text's shape, so it is never logged.
 * Built in a pure function: esbuild keeps a call whose arguments read
 * properties (of `callerLimits`), used or not, and `/agent` never parses commands.
 */
export const keyDelaysMs = /* @__PURE__ */ (() =>
  v.optional(
    v.pipe(
      v.array(integerIn(0, callerLimits.pacing.keyDelayMaxMs), "expected an array of pauses in ms"),
      v.maxLength(callerLimits.valueLength, `at most ${callerLimits.valueLength} pauses`),
      v.check(
        (delays) => delays.reduce((sum, delay) => sum + delay, 0) <= callerLimits.pacing.typingTotalMaxMs,
        `expected pauses adding up to at most ${callerLimits.pacing.typingTotalMaxMs} ms`,
      ),
    ),
  ))();

/** The total of a command's `keyDelaysMs` (0 without). */
export const keyDelaysTotalMs = (command: { keyDelaysMs?: readonly number[] | undefined }): number =>
  (command.keyDelaysMs ?? []).reduce((sum, delay) => sum + delay, 0);

/** `select`: one option (value or label) or several. */
export const selectValue = v.union(
  [
    boundedString(callerLimits.valueLength, "option"),
    v.pipe(
      v.array(boundedString(callerLimits.valueLength, "option"), "expected an array of options"),
      v.maxLength(callerLimits.selectValues, `at most ${callerLimits.selectValues} options`),
    ),
  ],
  "expected an option value or label, or an array of them",
);

export const scrollDelta = v.optional(numberIn(-callerLimits.scrollDeltaMax, callerLimits.scrollDeltaMax));

export const waitState = v.optional(choice(["visible", "hidden", "attached", "detached"]));
export const waitTimeout = timeoutMs(callerLimits.waitFor.timeoutMaxMs);

export const dialogAction = choice(["accept", "dismiss"]);
export const promptText = v.optional(boundedString(callerLimits.valueLength, "prompt text"));
export const dialogTimeout = v.optional(integerIn(1, callerLimits.dialog.policyMaxMs));

export const screenshotFormat = v.optional(choice(["png", "jpeg"]));
export const screenshotQuality = v.optional(integerIn(1, 100));

export const downloadOffset = v.optional(integerIn(0, callerLimits.downloads.fileBytes));
export const diagnosticsSince = v.optional(integerIn(0, Number.MAX_SAFE_INTEGER));

const base64Limit = Math.ceil((callerLimits.upload.decodedBytes * 4) / 3) + 4;

/** The fields of one `upload` file (counts and the total size are checked by the command parser). */
export const uploadFileEntries = {
  name: v.pipe(
    nonEmptyString(callerLimits.upload.fileNameLength, "file name"),
    v.regex(/^[^/\\\0]+$/, "expected a file name without slashes"),
    // A check, not a second pattern: tool JSON Schemas render one pattern, and some models' schema dialects have no lookahead.
    v.check((name) => name !== "." && name !== "..", 'expected a file name, not "." or ".."'),
  ),
  mimeType: v.optional(nonEmptyString(255, "MIME type")),
  base64: v.pipe(
    v.string("expected the file's bytes as a base64 string"),
    v.maxLength(base64Limit, `file larger than ${callerLimits.upload.decodedBytes} bytes`),
    v.regex(/^[A-Za-z0-9+/]*={0,2}$/, "expected standard base64"),
  ),
};
