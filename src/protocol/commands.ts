import * as v from "valibot";
import { limits } from "./limits.js";
import { TargetSchema, targetText, type Target } from "./target.js";
import { PointSchema, clickCount, downloadId, integerIn, modifiers, mouseButton, nonEmptyString, pageId, timeoutMs } from "./fields.js";
import {
  diagnosticsSince,
  dialogAction,
  dialogTimeout,
  downloadOffset,
  fillValue,
  keyDelaysMs,
  pressKey,
  promptText,
  screenshotFormat,
  screenshotQuality,
  scrollDelta,
  selectValue,
  typeText,
  uploadFileEntries,
  url,
  waitState,
  waitTimeout,
} from "./command-fields.js";
export { isObservationCommand, observationOps } from "./command-ops.js";

/**
 * The one command vocabulary (DESIGN.md "Commands"). Every layer — engine,
 * manager, worker, client, agent tools — uses these schemas; no command shape
 * is declared anywhere else.
 */

/**
 * On an action: also report what changed in the selected page's visible
 * text (`textChange` in the result), computed by the engine before and after.
 */
const textChange = v.optional(v.boolean("expected a boolean"));
const actionTimeout = timeoutMs(limits.actionTimeoutMaxMs);
const navigationTimeout = timeoutMs(limits.navigationTimeoutMaxMs);
const waitUntil = v.optional(
  v.picklist(["load", "domcontentloaded", "networkidle", "commit"], 'expected "load", "domcontentloaded", "networkidle" or "commit"'),
);

/** Commands that act on one element: `selector` shorthand or a full `target`, exactly one. */
export const requiredTargetOps = ["click", "fill", "select", "check", "uncheck", "hover", "focus", "upload"] as const;
/** Commands whose target may be left out (they then act on the page or the focused element). */
export const optionalTargetOps = ["type", "press", "scroll", "waitFor"] as const;

const targetFields = {
  /** Shorthand for `target: { by: "selector", selector }`. */
  selector: v.optional(targetText("selector")),
  target: v.optional(TargetSchema),
};

const targeted = <const Op extends string, const Entries extends v.ObjectEntries>(op: Op, entries: Entries) =>
  v.strictObject({ op: v.literal(op), ...targetFields, ...entries });

const plain = <const Op extends string, const Entries extends v.ObjectEntries>(op: Op, entries: Entries) =>
  v.strictObject({ op: v.literal(op), ...entries });

/** Decoded size of a base64 string, without decoding it. */
export function base64DecodedBytes(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/**
 * The upload-size rule, in one place: the problem with an upload's files when
 * their decoded total is over {@link limits.upload.decodedBytes}, else
 * `undefined`. Takes the files unparsed, so the worker can refuse an oversize
 * upload (413) before the rest of the command is checked.
 */
export function uploadSizeProblem(files: unknown): string | undefined {
  if (!Array.isArray(files)) return undefined;
  const total = files.reduce<number>((sum, file) => {
    const base64 = (file as { base64?: unknown } | null)?.base64;
    return sum + (typeof base64 === "string" ? base64DecodedBytes(base64) : 0);
  }, 0);
  return total > limits.upload.decodedBytes ? `${total} bytes in total; at most ${limits.upload.decodedBytes} decoded bytes per upload` : undefined;
}

/**
 * The id of a file staged for a session (`stageFile`), as an `upload` file
 * `{ staged: fileId }` takes it. Kept here, not in `command-fields.ts`, so the
 * `/agent` bundle (whose upload tool sends inline bytes only) leaves it out.
 */
export const stagedFileId = v.pipe(
  v.string("expected a staged file id"),
  v.regex(/^file_[0-9a-f-]{36}$/, "expected a staged file id as stageFile returned it (file_<uuid>)"),
);

/** True when an upload file is a staged one (`{ staged }`) rather than inline bytes. */
export const isStagedFile = (file: object): file is { staged: string } => "staged" in file;

/** One schema per command, keyed by `op`. */
export const commandSchemas = {
  // Navigation
  navigate: plain("navigate", { textChange, url, waitUntil, timeoutMs: navigationTimeout }),
  back: plain("back", { textChange, waitUntil, timeoutMs: navigationTimeout }),
  forward: plain("forward", { textChange, waitUntil, timeoutMs: navigationTimeout }),
  reload: plain("reload", { textChange, waitUntil, timeoutMs: navigationTimeout }),
  newPage: plain("newPage", { textChange, url: v.optional(url), timeoutMs: navigationTimeout }),
  pages: plain("pages", {}),
  selectPage: plain("selectPage", { textChange, pageId }),
  closePage: plain("closePage", { textChange, pageId: v.optional(pageId) }),

  // Interaction
  click: targeted("click", { textChange, button: mouseButton, clickCount, modifiers, timeoutMs: actionTimeout }),
  fill: targeted("fill", { textChange, value: fillValue, keyDelaysMs, timeoutMs: actionTimeout }),
  type: targeted("type", {
    textChange,
    text: typeText,
    delayMs: v.optional(integerIn(0, 1000)),
    keyDelaysMs,
    timeoutMs: actionTimeout,
  }),
  press: targeted("press", { textChange, key: pressKey, timeoutMs: actionTimeout }),
  select: targeted("select", { textChange, value: selectValue, timeoutMs: actionTimeout }),
  check: targeted("check", { textChange, timeoutMs: actionTimeout }),
  uncheck: targeted("uncheck", { textChange, timeoutMs: actionTimeout }),
  hover: targeted("hover", { textChange, timeoutMs: actionTimeout }),
  focus: targeted("focus", { textChange, timeoutMs: actionTimeout }),
  scroll: targeted("scroll", {
    textChange,
    deltaX: scrollDelta,
    deltaY: scrollDelta,
    timeoutMs: actionTimeout,
  }),
  waitFor: targeted("waitFor", {
    text: v.optional(targetText("text")),
    state: waitState,
    loadState: v.optional(v.picklist(["load", "domcontentloaded", "networkidle"], 'expected "load", "domcontentloaded" or "networkidle"')),
    timeoutMs: waitTimeout,
  }),
  mouseClick: plain("mouseClick", { textChange, ...PointSchema.entries, button: mouseButton, clickCount }),
  mouseMove: plain("mouseMove", { textChange, ...PointSchema.entries, steps: v.optional(integerIn(1, limits.dragStepsMax)) }),
  drag: plain("drag", { textChange, from: TargetSchema, to: TargetSchema, timeoutMs: actionTimeout }),
  dragCoordinates: plain("dragCoordinates", {
    textChange,
    from: PointSchema,
    to: PointSchema,
    steps: v.optional(integerIn(1, limits.dragStepsMax)),
  }),
  dialog: plain("dialog", {
    action: dialogAction,
    promptText,
    timeoutMs: dialogTimeout,
  }),
  upload: targeted("upload", {
    textChange,
    files: v.pipe(
      v.array(
        v.union(
          [v.strictObject(uploadFileEntries), v.strictObject({ staged: stagedFileId })],
          "expected a file { name, mimeType?, base64 } or a staged file { staged: fileId }",
        ),
        "expected an array of files",
      ),
      v.minLength(1, "expected at least one file"),
      v.maxLength(limits.upload.files, `at most ${limits.upload.files} files per upload`),
    ),
    timeoutMs: actionTimeout,
  }),
  downloads: plain("downloads", {}),
  downloadRead: plain("downloadRead", {
    downloadId,
    offset: downloadOffset,
    length: v.optional(integerIn(1, limits.downloads.readBytesMax)),
  }),
  downloadDelete: plain("downloadDelete", { downloadId }),

  // Observation
  inspect: plain("inspect", {
    maxElements: v.optional(integerIn(1, limits.inspect.elementsMax)),
    maxTextLength: v.optional(integerIn(1, limits.inspect.textLengthMax)),
  }),
  accessibility: plain("accessibility", {
    mode: v.optional(v.picklist(["agent", "full"], 'expected "agent" or "full"')),
    maxBytes: v.optional(integerIn(1024, limits.accessibility.bytesMax)),
    depth: v.optional(integerIn(1, limits.accessibility.depthMax)),
    interactiveOnly: v.optional(v.boolean("expected a boolean")),
    boxes: v.optional(v.boolean("expected a boolean")),
  }),
  screenshot: plain("screenshot", {
    format: screenshotFormat,
    quality: screenshotQuality,
  }),
  text: plain("text", { maxBytes: v.optional(integerIn(1, limits.text.bytesMax)) }),
  content: plain("content", { maxBytes: v.optional(integerIn(1, limits.contentBytes)) }),
  evaluate: plain("evaluate", { expression: nonEmptyString(limits.expressionLength, "expression"), timeoutMs: actionTimeout }),
  diagnostics: plain("diagnostics", {
    since: diagnosticsSince,
  }),
  challenge: plain("challenge", {}),
  traceStart: plain("traceStart", {
    screenshots: v.optional(v.boolean("expected a boolean")),
    snapshots: v.optional(v.boolean("expected a boolean")),
  }),
  traceStop: plain("traceStop", {}),
} as const;

/** Every command name. */
export type CommandOp = keyof typeof commandSchemas;

/** All command names, in vocabulary order. */
export const commandOps = Object.keys(commandSchemas) as CommandOp[];

/** The schema of any command: a variant on `op`. */
export const BrowserCommandSchema = v.variant(
  "op",
  Object.values(commandSchemas) as unknown as [
    (typeof commandSchemas)[CommandOp],
    ...(typeof commandSchemas)[CommandOp][],
  ],
  `expected "op" to be one of ${commandOps.map((op) => `"${op}"`).join(", ")}`,
);

type RawCommandOf<Op extends CommandOp> = v.InferOutput<(typeof commandSchemas)[Op]>;

/** A parsed command of the given op; `selector` shorthands are normalised into `target`. */
export type CommandOf<Op extends CommandOp> = Op extends (typeof requiredTargetOps)[number]
  ? Omit<RawCommandOf<Op>, "selector" | "target"> & { target: Target }
  : Op extends (typeof optionalTargetOps)[number]
    ? Omit<RawCommandOf<Op>, "selector" | "target"> & { target?: Target }
    : RawCommandOf<Op>;

/** Any parsed command. */
export type BrowserCommand = { [Op in CommandOp]: CommandOf<Op> }[CommandOp];

/** What a caller may send for a command (before defaults and normalisation). */
export type BrowserCommandInput = { [Op in CommandOp]: v.InferInput<(typeof commandSchemas)[Op]> }[CommandOp];

/** The raw (pre-normalisation) output of {@link BrowserCommandSchema}. */
export type RawBrowserCommand = { [Op in CommandOp]: RawCommandOf<Op> }[CommandOp];
