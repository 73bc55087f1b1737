import * as v from "valibot";
import { limits } from "./limits.js";
import { boundedString, choice, integerIn, nonEmptyString, numberIn, timeoutMs } from "./fields.js";

/**
 * The field schemas commands are made of, by name, so that the agent tools'
 * inputs reuse them (a bad value gets the protocol's message, and the tools
 * need not load the whole vocabulary). `commands.ts` assembles them.
 */

/** A `navigate` / `newPage` URL (the URL policy is the engine's). */
export const url = nonEmptyString(limits.urlLength, "URL");

/** `fill` value, `type` text and `press` key. */
export const fillValue = boundedString(limits.valueLength, "value");
export const typeText = boundedString(limits.valueLength, "text");
export const pressKey = nonEmptyString(limits.keyLength, "key");

/**
 * `fill` and `type`: the pause before each character (ms, one per character
 * as `for…of` counts them), typed key by key. The pacing policy fills it in
 * when human typing is on; it reveals the text's shape, so it is never logged.
 */
export const keyDelaysMs = v.optional(
  v.pipe(
    v.array(integerIn(0, limits.pacing.keyDelayMaxMs), "expected an array of pauses in ms"),
    v.maxLength(limits.valueLength, `at most ${limits.valueLength} pauses`),
    v.check(
      (delays) => delays.reduce((sum, delay) => sum + delay, 0) <= limits.pacing.typingTotalMaxMs,
      `expected pauses adding up to at most ${limits.pacing.typingTotalMaxMs} ms`,
    ),
  ),
);

/** The total of a command's `keyDelaysMs` (0 without). */
export const keyDelaysTotalMs = (command: { keyDelaysMs?: readonly number[] | undefined }): number =>
  (command.keyDelaysMs ?? []).reduce((sum, delay) => sum + delay, 0);

/** `select`: one option (value or label) or several. */
export const selectValue = v.union(
  [
    boundedString(limits.valueLength, "option"),
    v.pipe(
      v.array(boundedString(limits.valueLength, "option"), "expected an array of options"),
      v.maxLength(limits.selectValues, `at most ${limits.selectValues} options`),
    ),
  ],
  "expected an option value or label, or an array of them",
);

export const scrollDelta = v.optional(numberIn(-limits.scrollDeltaMax, limits.scrollDeltaMax));

export const waitState = v.optional(choice(["visible", "hidden", "attached", "detached"]));
export const waitTimeout = timeoutMs(limits.waitFor.timeoutMaxMs);

export const dialogAction = choice(["accept", "dismiss"]);
export const promptText = v.optional(boundedString(limits.valueLength, "prompt text"));
export const dialogTimeout = v.optional(integerIn(1, limits.dialog.policyMaxMs));

export const screenshotFormat = v.optional(choice(["png", "jpeg"]));
export const screenshotQuality = v.optional(integerIn(1, 100));

export const downloadOffset = v.optional(integerIn(0, limits.downloads.fileBytes));
export const diagnosticsSince = v.optional(integerIn(0, Number.MAX_SAFE_INTEGER));

const base64Limit = Math.ceil((limits.upload.decodedBytes * 4) / 3) + 4;

/** The fields of one `upload` file (counts and the total size are checked by the command parser). */
export const uploadFileEntries = {
  name: v.pipe(nonEmptyString(limits.upload.fileNameLength, "file name"), v.regex(/^[^/\\\0]+$/, "expected a file name without slashes")),
  mimeType: v.optional(nonEmptyString(255, "MIME type")),
  base64: v.pipe(
    v.string("expected the file's bytes as a base64 string"),
    v.maxLength(base64Limit, `file larger than ${limits.upload.decodedBytes} bytes`),
    v.regex(/^[A-Za-z0-9+/]*={0,2}$/, "expected standard base64"),
  ),
};
