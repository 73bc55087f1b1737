import * as v from "valibot";
import { limits } from "./limits.js";
import { TargetSchema, targetText, type Target } from "./target.js";
import {
  PointSchema,
  boundedString,
  clickCount,
  downloadId,
  integerIn,
  modifiers,
  mouseButton,
  nonEmptyString,
  numberIn,
  pageId,
  timeoutMs,
  waitUntil,
} from "./fields.js";

/**
 * The one command vocabulary (DESIGN.md "Commands"). Every layer — engine,
 * manager, worker, client, agent tools — uses these schemas; no command shape
 * is declared anywhere else.
 */

const url = nonEmptyString(limits.urlLength, "URL");
/**
 * On an action: also report what changed in the selected page's visible
 * text (`textChange` in the result), computed by the engine before and after.
 */
const textChange = v.optional(v.boolean("expected a boolean"));
const actionTimeout = timeoutMs(limits.actionTimeoutMaxMs);
const navigationTimeout = timeoutMs(limits.navigationTimeoutMaxMs);

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

const base64Limit = Math.ceil((limits.upload.decodedBytes * 4) / 3) + 4;

const UploadFileSchema = v.strictObject({
  name: v.pipe(
    nonEmptyString(limits.upload.fileNameLength, "file name"),
    v.regex(/^[^/\\\0]+$/, "expected a file name without slashes"),
  ),
  mimeType: v.optional(nonEmptyString(255, "MIME type")),
  base64: v.pipe(
    v.string("expected the file's bytes as a base64 string"),
    v.maxLength(base64Limit, `file larger than ${limits.upload.decodedBytes} bytes`),
    v.regex(/^[A-Za-z0-9+/]*={0,2}$/, "expected standard base64"),
  ),
});

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
  fill: targeted("fill", { textChange, value: boundedString(limits.valueLength, "value"), timeoutMs: actionTimeout }),
  type: targeted("type", {
    textChange,
    text: boundedString(limits.valueLength, "text"),
    delayMs: v.optional(integerIn(0, 1000)),
    timeoutMs: actionTimeout,
  }),
  press: targeted("press", { textChange, key: nonEmptyString(limits.keyLength, "key"), timeoutMs: actionTimeout }),
  select: targeted("select", {
    textChange,
    value: v.union(
      [
        boundedString(limits.valueLength, "option"),
        v.pipe(
          v.array(boundedString(limits.valueLength, "option"), "expected an array of options"),
          v.maxLength(limits.selectValues, `at most ${limits.selectValues} options`),
        ),
      ],
      "expected an option value or label, or an array of them",
    ),
    timeoutMs: actionTimeout,
  }),
  check: targeted("check", { textChange, timeoutMs: actionTimeout }),
  uncheck: targeted("uncheck", { textChange, timeoutMs: actionTimeout }),
  hover: targeted("hover", { textChange, timeoutMs: actionTimeout }),
  focus: targeted("focus", { textChange, timeoutMs: actionTimeout }),
  scroll: targeted("scroll", {
    textChange,
    deltaX: v.optional(numberIn(-limits.scrollDeltaMax, limits.scrollDeltaMax)),
    deltaY: v.optional(numberIn(-limits.scrollDeltaMax, limits.scrollDeltaMax)),
    timeoutMs: actionTimeout,
  }),
  waitFor: targeted("waitFor", {
    text: v.optional(targetText("text")),
    state: v.optional(v.picklist(["visible", "hidden", "attached", "detached"], 'expected "visible", "hidden", "attached" or "detached"')),
    loadState: v.optional(v.picklist(["load", "domcontentloaded", "networkidle"], 'expected "load", "domcontentloaded" or "networkidle"')),
    timeoutMs: timeoutMs(limits.waitFor.timeoutMaxMs),
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
    action: v.picklist(["accept", "dismiss"], 'expected "accept" or "dismiss"'),
    promptText: v.optional(boundedString(limits.valueLength, "prompt text")),
    timeoutMs: v.optional(integerIn(1, limits.dialog.policyMaxMs)),
  }),
  upload: targeted("upload", {
    textChange,
    files: v.pipe(
      v.array(UploadFileSchema, "expected an array of files"),
      v.minLength(1, "expected at least one file"),
      v.maxLength(limits.upload.files, `at most ${limits.upload.files} files per upload`),
    ),
    timeoutMs: actionTimeout,
  }),
  downloads: plain("downloads", {}),
  downloadRead: plain("downloadRead", {
    downloadId,
    offset: v.optional(integerIn(0, limits.downloads.fileBytes)),
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
    format: v.optional(v.picklist(["png", "jpeg"], 'expected "png" or "jpeg"')),
    quality: v.optional(integerIn(1, 100)),
  }),
  text: plain("text", { maxBytes: v.optional(integerIn(1, limits.text.bytesMax)) }),
  content: plain("content", { maxBytes: v.optional(integerIn(1, limits.contentBytes)) }),
  evaluate: plain("evaluate", { expression: nonEmptyString(limits.expressionLength, "expression"), timeoutMs: actionTimeout }),
  diagnostics: plain("diagnostics", {
    since: v.optional(integerIn(0, Number.MAX_SAFE_INTEGER)),
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

/** Observation commands stay allowed while a human holds control; the rest mutate. */
export const observationOps: ReadonlySet<CommandOp> = new Set<CommandOp>([
  "pages",
  "waitFor",
  "downloads",
  "downloadRead",
  "inspect",
  "accessibility",
  "screenshot",
  "text",
  "content",
  "diagnostics",
  "challenge",
]);

/** True when the command only observes (allowed while a human holds control). */
export function isObservationCommand(command: { op: string }): boolean {
  return observationOps.has(command.op as CommandOp);
}

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
