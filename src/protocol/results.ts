/**
 * The result of each command, declared once as valibot schemas: the engine's
 * result types are inferred from them, and the client checks every result a
 * worker sends with them (see {@link commandResultSchemas}). Unknown fields
 * from a newer worker are kept, not refused (loose objects); the types name
 * only the declared fields.
 */
import * as v from "valibot";
import type { CommandOp } from "./commands.js";
import type { Shape } from "./declared.js";

const text = v.string();
const number = v.number();
const flag = v.boolean();
const ok = v.literal(true);
const texts = v.array(text);
const size = { width: number, height: number };

/** What changed in the selected page's visible text across an action (see `src/protocol/text-change.ts`). */
export const TextChangeSchema = v.looseObject({
  /** Lines the page gained, in page order (at most `limits.textChange.lines`, each at most `limits.textChange.lineLength` characters). */
  added: texts,
  /** Lines the page lost. */
  removed: texts,
  /** How many lines were added and removed in all (the lists may be cut). */
  addedCount: number,
  removedCount: number,
});
export type TextChange = Shape<typeof TextChangeSchema>;

/** A page of the session, as listed by `pages` and reported in `newPages`. */
export const PageInfoSchema = v.looseObject({
  pageId: text,
  /** The page URL, sanitised: no credentials, query or fragment. */
  url: text,
  title: text,
  selected: flag,
});
export type PageInfo = Shape<typeof PageInfoSchema>;

/** A JavaScript dialog seen during a command. */
export const DialogInfoSchema = v.looseObject({
  type: v.picklist(["alert", "confirm", "prompt", "beforeunload"]),
  message: text,
  /** What happened to it: handled by a policy, or dismissed because none was set. */
  handled: v.picklist(["accepted", "dismissed"]),
  /** True when no policy was set and the dialog was dismissed at once. */
  unexpected: flag,
});
export type DialogInfo = Shape<typeof DialogInfoSchema>;

const challengeState = v.picklist(["none", "passive", "widget", "challenge", "blocked", "rate_limited", "login_wall"]);

/** A hosted provider's captcha solver at work (Browserbase's console markers, Steel's captcha status). */
export const SolverSignalSchema = v.looseObject({
  provider: text,
  /** `finished` says the solver is done, not that the site let the browser in (see `solved`). */
  state: v.picklist(["solving", "finished", "failed"]),
});
export type SolverSignal = Shape<typeof SolverSignalSchema>;

/** Result of `challenge`, and the `challenge` of an action result. */
export const ChallengeResultSchema = v.looseObject({
  state: challengeState,
  vendor: v.optional(v.string()),
  evidence: texts,
  /**
   * The page showed this challenge (block, throttle) and then navigated to a
   * document without one: the site let the browser in. A token appearing is not this.
   */
  solved: v.optional(v.looseObject({ state: challengeState, vendor: v.optional(v.string()) })),
  solver: v.optional(SolverSignalSchema),
});
export type ChallengeResult = Shape<typeof ChallengeResultSchema>;

/** Where the selected page is (every action, and `waitFor`). */
const located = {
  ok,
  /** Current URL of the selected page (sanitised). */
  url: text,
  title: text,
};

/** The fields of every action result (navigation and interaction commands). */
const action = {
  ...located,
  /** True when the selected page's main frame navigated during the action. */
  navigated: flag,
  /** Pages opened during the action (popups, new tabs). */
  newPages: v.array(PageInfoSchema),
  /** A dialog that appeared during the action. */
  dialog: v.optional(DialogInfoSchema),
  /**
   * What changed in the selected page's visible text, when the command asked
   * for it (`textChange: true`) and the page could be read before and after.
   */
  textChange: v.optional(TextChangeSchema),
  /**
   * Time this action spent in pacing (ms): the wait for its turn (gap,
   * per-profile bucket) plus the typing cadence. Present when the session is
   * paced, so a benchmark can tell pacing from overhead.
   */
  pacedMs: v.optional(number),
  /**
   * What challenge detection saw on the selected page after the action, when
   * it is not `none` or `passive` (or a challenge was just solved).
   */
  challenge: v.optional(ChallengeResultSchema),
};

/** The result of every action (navigation and interaction commands). */
export const ActionResultSchema = v.looseObject(action);
export type ActionResult = Shape<typeof ActionResultSchema>;

/** Result of `fill` and `type`. */
export const TextEntryResultSchema = v.looseObject({
  ...action,
  /**
   * True when the text may sit in a password field: the target, or the
   * focused element, is a password input, or a password input of the page
   * (any frame) holds part of the text. Read by the engine outside page code
   * (Playwright's utility world); true whenever it could not tell. Absent
   * from an older worker: callers redact the text from what they show when
   * this is true or absent.
   */
  sensitive: v.optional(flag),
});
export type TextEntryResult = Shape<typeof TextEntryResultSchema>;

/** Result of `newPage`. */
export const NewPageResultSchema = v.looseObject({ ...action, pageId: text });
export type NewPageResult = Shape<typeof NewPageResultSchema>;

/** Result of `select`: the values now selected. */
export const SelectResultSchema = v.looseObject({ ...action, selected: texts });
export type SelectResult = Shape<typeof SelectResultSchema>;

/** Result of `pages`. */
export const PagesResultSchema = v.looseObject({ pages: v.array(PageInfoSchema), selectedPageId: text });
export type PagesResult = Shape<typeof PagesResultSchema>;

/** Result of `waitFor`. */
export const WaitForResultSchema = v.looseObject(located);
export type WaitForResult = Shape<typeof WaitForResultSchema>;

/** Result of `dialog`: the policy now armed. */
export const DialogPolicyResultSchema = v.looseObject({ ok, action: v.picklist(["accept", "dismiss"]), expiresAt: text });
export type DialogPolicyResult = Shape<typeof DialogPolicyResultSchema>;

/** Result of `upload`. */
export const UploadResultSchema = v.looseObject({ ...action, files: v.array(v.looseObject({ name: text, bytes: number })) });
export type UploadResult = Shape<typeof UploadResultSchema>;

/** A download kept by the session. */
export const DownloadInfoSchema = v.looseObject({
  downloadId: text,
  /** File name suggested by the site. */
  fileName: text,
  /** URL it came from (sanitised). */
  url: text,
  state: v.picklist(["in_progress", "completed", "failed", "too_large"]),
  bytes: v.optional(number),
  error: v.optional(text),
});
export type DownloadInfo = Shape<typeof DownloadInfoSchema>;

/** Result of `downloads`. */
export const DownloadsResultSchema = v.looseObject({ downloads: v.array(DownloadInfoSchema) });
export type DownloadsResult = Shape<typeof DownloadsResultSchema>;

/** Result of `downloadRead`. */
export const DownloadReadResultSchema = v.looseObject({
  downloadId: text,
  offset: number,
  bytes: number,
  totalBytes: number,
  base64: text,
  /** True when more bytes follow this chunk. */
  more: flag,
});
export type DownloadReadResult = Shape<typeof DownloadReadResultSchema>;

/** Result of `downloadDelete`. */
export const DownloadDeleteResultSchema = v.looseObject({ ok, downloadId: text });
export type DownloadDeleteResult = Shape<typeof DownloadDeleteResultSchema>;

const optionalText = v.optional(text);
const optionalFlag = v.optional(flag);

/** One element of `inspect`. */
export const InspectedElementSchema = v.looseObject({
  tag: text,
  role: optionalText,
  name: optionalText,
  text: optionalText,
  id: optionalText,
  type: optionalText,
  value: optionalText,
  href: optionalText,
  placeholder: optionalText,
  checked: optionalFlag,
  disabled: optionalFlag,
  /** Bounding box in main-viewport CSS pixels (see `coordinateSpace`). */
  box: v.looseObject({ x: number, y: number, ...size }),
  /** Selector chain of the iframe holding this element, outermost first. */
  frame: v.optional(texts),
});
export type InspectedElement = Shape<typeof InspectedElementSchema>;

/** Result of `inspect`. */
export const InspectResultSchema = v.looseObject({
  elements: v.array(InspectedElementSchema),
  truncated: flag,
  coordinateSpace: v.literal("css-pixels-main-viewport"),
  viewport: v.looseObject(size),
});
export type InspectResult = Shape<typeof InspectResultSchema>;

/** Result of `accessibility`. */
export const AccessibilityResultSchema = v.looseObject({
  snapshot: text,
  truncated: flag,
  bytes: number,
  mode: v.picklist(["agent", "full"]),
  /** The page the refs belong to. */
  pageId: text,
});
export type AccessibilityResult = Shape<typeof AccessibilityResultSchema>;

/** Result of `screenshot`; `width` and `height` are the image size in pixels. */
export const ScreenshotResultSchema = v.looseObject({
  mimeType: v.picklist(["image/png", "image/jpeg"]),
  base64: text,
  ...size,
  /** Image pixels per CSS pixel (below 1 when downscaled to fit 1280×800). */
  scale: number,
});
export type ScreenshotResult = Shape<typeof ScreenshotResultSchema>;

/** Result of `text`: the visible text (`innerText`) of the selected page's main frame. */
export const TextResultSchema = v.looseObject({
  /** Visible text, cut on a UTF-8 character boundary to the requested bytes. */
  text,
  truncated: flag,
  /** URL of the page (sanitised: no credentials, query or fragment). */
  url: text,
  title: text,
});
export type TextResult = Shape<typeof TextResultSchema>;

/** Result of `content`. */
export const ContentResultSchema = v.looseObject({ html: text, truncated: flag, bytes: number, url: text });
export type ContentResult = Shape<typeof ContentResultSchema>;

/** Result of `evaluate`: any JSON value (absent when the expression gave `undefined`). */
export const EvaluateResultSchema = v.looseObject({ value: v.unknown(), pacedMs: v.optional(number) });
export type EvaluateResult = Shape<typeof EvaluateResultSchema>;

/** One diagnostics event. */
export const DiagnosticsEventSchema = v.looseObject({
  seq: number,
  at: text,
  kind: v.picklist(["console", "pageerror", "request-failed", "response-error", "dialog", "navigation-blocked", "popup-closed", "download"]),
  level: optionalText,
  /** Console or error text, only when enabled at open; capped at 2 KiB. */
  text: optionalText,
  /** Sanitised URL: no credentials, query or fragment. */
  url: optionalText,
  status: v.optional(number),
  pageId: optionalText,
});
export type DiagnosticsEvent = Shape<typeof DiagnosticsEventSchema>;

/** One wait of a paced action (diagnostics). */
export const PacingWaitSchema = v.looseObject({
  at: text,
  op: text,
  /** Time waited for the action's turn (ms). */
  waitedMs: number,
  /** Typing cadence carried out by the engine (ms), for human typing. */
  typingMs: v.optional(number),
  /** What made it wait: `gap`, `perMinute`, `pause`. */
  reasons: texts,
});
export type PacingWait = Shape<typeof PacingWaitSchema>;

/** The pacing of a session as diagnostics report it (added by the session manager). */
export const PacingReportSchema = v.looseObject({
  enabled: flag,
  /** The resolved policy (see `PacingPolicy`). */
  policy: v.looseObject({}),
  /** The bucket's key: the profile id, or the session for a session without a profile. */
  bucketKey: optionalText,
  /** Actions counted today (UTC) and the allowance of today (lower during warm-up). */
  dayCount: v.optional(number),
  dailyLimit: v.optional(number),
  /** Until when the profile is paused after a throttle signal (ISO time). */
  pausedUntil: optionalText,
  pauseReason: optionalText,
  /** The latest waits, oldest first, and totals since the session opened. */
  waits: v.array(PacingWaitSchema),
  totalWaitedMs: number,
  refused: number,
});
export type PacingReport = Shape<typeof PacingReportSchema>;

/** Result of `diagnostics`. */
export const DiagnosticsResultSchema = v.looseObject({
  events: v.array(DiagnosticsEventSchema),
  /** Events that fell out of the ring before they were read. */
  dropped: number,
  nextSeq: number,
  /** The session's pacing: policy, today's count, the waits taken (added by the session manager). */
  pacing: v.optional(PacingReportSchema),
});
export type DiagnosticsResult = Shape<typeof DiagnosticsResultSchema>;


/** Result of `traceStart`. */
export const TraceStartResultSchema = v.looseObject({ ok, maxDurationMs: number });
export type TraceStartResult = Shape<typeof TraceStartResultSchema>;

/** Result of `traceStop`: a Playwright trace archive. */
export const TraceStopResultSchema = v.looseObject({ mimeType: v.literal("application/zip"), base64: text, bytes: number });
export type TraceStopResult = Shape<typeof TraceStopResultSchema>;

/**
 * The result schema of each command. Every op of the vocabulary has one, so
 * a new op does not compile until its result is declared.
 *
 * @example
 * ```ts
 * v.safeParse(commandResultSchemas.text, { text: "Hi", truncated: false, url: "https://example.com/", title: "Example" }).success; // true
 * ```
 */
export const commandResultSchemas = {
  navigate: ActionResultSchema,
  back: ActionResultSchema,
  forward: ActionResultSchema,
  reload: ActionResultSchema,
  newPage: NewPageResultSchema,
  pages: PagesResultSchema,
  selectPage: ActionResultSchema,
  closePage: ActionResultSchema,
  click: ActionResultSchema,
  fill: TextEntryResultSchema,
  type: TextEntryResultSchema,
  press: ActionResultSchema,
  select: SelectResultSchema,
  check: ActionResultSchema,
  uncheck: ActionResultSchema,
  hover: ActionResultSchema,
  focus: ActionResultSchema,
  scroll: ActionResultSchema,
  waitFor: WaitForResultSchema,
  mouseClick: ActionResultSchema,
  mouseMove: ActionResultSchema,
  drag: ActionResultSchema,
  dragCoordinates: ActionResultSchema,
  dialog: DialogPolicyResultSchema,
  upload: UploadResultSchema,
  downloads: DownloadsResultSchema,
  downloadRead: DownloadReadResultSchema,
  downloadDelete: DownloadDeleteResultSchema,
  inspect: InspectResultSchema,
  accessibility: AccessibilityResultSchema,
  screenshot: ScreenshotResultSchema,
  text: TextResultSchema,
  content: ContentResultSchema,
  evaluate: EvaluateResultSchema,
  diagnostics: DiagnosticsResultSchema,
  challenge: ChallengeResultSchema,
  traceStart: TraceStartResultSchema,
  traceStop: TraceStopResultSchema,
} satisfies Record<CommandOp, v.GenericSchema>;

/** The result type of each command. */
export type CommandResultMap = { [Op in CommandOp]: Shape<(typeof commandResultSchemas)[Op]> };

/** The result of a command of the given op. */
export type CommandResult<Op extends CommandOp = CommandOp> = CommandResultMap[Op];
