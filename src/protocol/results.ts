import type { CommandOp } from "./commands.js";
import type { TextChange } from "./text-change.js";

/** A page of the session, as listed by `pages` and reported in `newPages`. */
export interface PageInfo {
  pageId: string;
  /** The page URL, sanitised: no credentials, query or fragment. */
  url: string;
  title: string;
  selected: boolean;
}

/** A JavaScript dialog seen during a command. */
export interface DialogInfo {
  type: "alert" | "confirm" | "prompt" | "beforeunload";
  message: string;
  /** What happened to it: handled by a policy, or dismissed because none was set. */
  handled: "accepted" | "dismissed";
  /** True when no policy was set and the dialog was dismissed at once. */
  unexpected: boolean;
}

/** The result of every action (navigation and interaction commands). */
export interface ActionResult {
  ok: true;
  /** Current URL of the selected page (sanitised). */
  url: string;
  title: string;
  /** True when the selected page's main frame navigated during the action. */
  navigated: boolean;
  /** Pages opened during the action (popups, new tabs). */
  newPages: PageInfo[];
  /** A dialog that appeared during the action. */
  dialog?: DialogInfo;
  /**
   * What changed in the selected page's visible text, when the command asked
   * for it (`textChange: true`) and the page could be read before and after.
   */
  textChange?: TextChange;
}

/** Result of `fill` and `type`. */
export interface TextEntryResult extends ActionResult {
  /**
   * True when the text may sit in a password field: the target, or the
   * focused element, is a password input, or a password input of the page
   * (any frame) holds part of the text. Read by the engine outside page code
   * (Playwright's utility world); true whenever it could not tell. Callers
   * redact the text from what they show when this is true or absent.
   */
  sensitive: boolean;
}

/** Result of `newPage`. */
export interface NewPageResult extends ActionResult {
  pageId: string;
}

/** Result of `pages`. */
export interface PagesResult {
  pages: PageInfo[];
  selectedPageId: string;
}

/** Result of `waitFor`. */
export interface WaitForResult {
  ok: true;
  url: string;
  title: string;
}

/** Result of `dialog`: the policy now armed. */
export interface DialogPolicyResult {
  ok: true;
  action: "accept" | "dismiss";
  expiresAt: string;
}

/** Result of `upload`. */
export interface UploadResult extends ActionResult {
  files: { name: string; bytes: number }[];
}

/** A download kept by the session. */
export interface DownloadInfo {
  downloadId: string;
  /** File name suggested by the site. */
  fileName: string;
  /** URL it came from (sanitised). */
  url: string;
  state: "in_progress" | "completed" | "failed" | "too_large";
  bytes?: number;
  error?: string;
}

/** Result of `downloads`. */
export interface DownloadsResult {
  downloads: DownloadInfo[];
}

/** Result of `downloadRead`. */
export interface DownloadReadResult {
  downloadId: string;
  offset: number;
  bytes: number;
  totalBytes: number;
  base64: string;
  /** True when more bytes follow this chunk. */
  more: boolean;
}

/** Result of `downloadDelete`. */
export interface DownloadDeleteResult {
  ok: true;
  downloadId: string;
}

/** One element of `inspect`. */
export interface InspectedElement {
  tag: string;
  role?: string;
  name?: string;
  text?: string;
  id?: string;
  type?: string;
  value?: string;
  href?: string;
  placeholder?: string;
  checked?: boolean;
  disabled?: boolean;
  /** Bounding box in main-viewport CSS pixels (see `coordinateSpace`). */
  box: { x: number; y: number; width: number; height: number };
  /** Selector chain of the iframe holding this element, outermost first. */
  frame?: string[];
}

/** Result of `inspect`. */
export interface InspectResult {
  elements: InspectedElement[];
  truncated: boolean;
  coordinateSpace: "css-pixels-main-viewport";
  viewport: { width: number; height: number };
}

/** Result of `accessibility`. */
export interface AccessibilityResult {
  snapshot: string;
  truncated: boolean;
  bytes: number;
  mode: "agent" | "full";
  /** The page the refs belong to. */
  pageId: string;
}

/** Result of `screenshot`. */
export interface ScreenshotResult {
  mimeType: "image/png" | "image/jpeg";
  base64: string;
  /** Image size in pixels. */
  width: number;
  height: number;
  /** Image pixels per CSS pixel (below 1 when downscaled to fit 1280×800). */
  scale: number;
}

/** Result of `text`: the visible text (`innerText`) of the selected page's main frame. */
export interface TextResult {
  /** Visible text, cut on a UTF-8 character boundary to the requested bytes. */
  text: string;
  truncated: boolean;
  /** URL of the page (sanitised: no credentials, query or fragment). */
  url: string;
  title: string;
}

/** Result of `content`. */
export interface ContentResult {
  html: string;
  truncated: boolean;
  bytes: number;
  url: string;
}

/** Result of `evaluate`: any JSON value. */
export interface EvaluateResult {
  value: unknown;
}

/** One diagnostics event. */
export interface DiagnosticsEvent {
  seq: number;
  at: string;
  kind: "console" | "pageerror" | "request-failed" | "response-error" | "dialog" | "navigation-blocked" | "popup-closed" | "download";
  level?: string;
  /** Console or error text, only when enabled at open; capped at 2 KiB. */
  text?: string;
  /** Sanitised URL: no credentials, query or fragment. */
  url?: string;
  status?: number;
  pageId?: string;
}

/** Result of `diagnostics`. */
export interface DiagnosticsResult {
  events: DiagnosticsEvent[];
  /** Events that fell out of the ring before they were read. */
  dropped: number;
  nextSeq: number;
}

/** Result of `challenge`. */
export interface ChallengeResult {
  state: "none" | "challenge" | "blocked" | "throttled";
  vendor?: string;
  evidence: string[];
}

/** Result of `traceStart`. */
export interface TraceStartResult {
  ok: true;
  maxDurationMs: number;
}

/** Result of `traceStop`: a Playwright trace archive. */
export interface TraceStopResult {
  mimeType: "application/zip";
  base64: string;
  bytes: number;
}

/** The result type of each command. */
export interface CommandResultMap {
  navigate: ActionResult;
  back: ActionResult;
  forward: ActionResult;
  reload: ActionResult;
  newPage: NewPageResult;
  pages: PagesResult;
  selectPage: ActionResult;
  closePage: ActionResult;
  click: ActionResult;
  fill: TextEntryResult;
  type: TextEntryResult;
  press: ActionResult;
  select: ActionResult & { selected: string[] };
  check: ActionResult;
  uncheck: ActionResult;
  hover: ActionResult;
  focus: ActionResult;
  scroll: ActionResult;
  waitFor: WaitForResult;
  mouseClick: ActionResult;
  mouseMove: ActionResult;
  drag: ActionResult;
  dragCoordinates: ActionResult;
  dialog: DialogPolicyResult;
  upload: UploadResult;
  downloads: DownloadsResult;
  downloadRead: DownloadReadResult;
  downloadDelete: DownloadDeleteResult;
  inspect: InspectResult;
  accessibility: AccessibilityResult;
  screenshot: ScreenshotResult;
  text: TextResult;
  content: ContentResult;
  evaluate: EvaluateResult;
  diagnostics: DiagnosticsResult;
  challenge: ChallengeResult;
  traceStart: TraceStartResult;
  traceStop: TraceStopResult;
}

/** The result of a command of the given op. */
export type CommandResult<Op extends CommandOp = CommandOp> = CommandResultMap[Op];
