/**
 * Every number the design fixes, in one place. Code elsewhere imports these;
 * it never repeats a literal.
 */
const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The part of {@link limits} a caller of the vocabulary checks before sending
 * (the worker client, the agent tools): the bounds of command fields and
 * the defaults a command's time budget is computed from. Code that runs on
 * the caller's side reads these, not `limits`, so the `/agent` bundle does
 * not carry the engine's and the manager's other numbers.
 */
export const callerLimits = {
  /** Longest URL accepted by `navigate` (characters). */
  urlLength: 8 * KiB,
  /** Longest CSS selector, text, label, role name or test id in a target (characters). */
  targetText: 4 * KiB,
  /** Deepest iframe chain a target may name. */
  frameChain: 8,
  /** Largest `nth` index (zero-based). */
  nthMax: 10_000,
  /** Longest text for `fill`, `type`, `select` values and prompt text (characters). */
  valueLength: 64 * KiB,
  /** Most options one `select` may choose. */
  selectValues: 256,
  /** Longest key combination for `press` (characters). */
  keyLength: 64,
  /** Action timeout by default (ms; the ceiling is `limits.actionTimeoutMaxMs`). */
  actionTimeoutDefaultMs: 10_000,
  /** Navigation timeout by default (ms; the ceiling is `limits.navigationTimeoutMaxMs`). */
  navigationTimeoutDefaultMs: 30_000,
  /** Largest CSS-pixel coordinate accepted by mouse commands. */
  coordinateMax: 100_000,
  /** Largest scroll delta (CSS pixels). */
  scrollDeltaMax: 100_000,
  text: {
    /** Visible text returned by `text` (UTF-8 bytes): ceiling (the default is `limits.text`); longer text is cut and marked. */
    bytesMax: 256 * KiB,
  },
  /** An action's change in visible text (`textChange: true`). */
  textChange: {
    /** Lines listed per side (added, removed). */
    lines: 40,
    /** Characters per listed line; longer ones end in `…`. */
    lineLength: 240,
  },
  accessibility: {
    bytesMax: 1 * MiB,
  },
  upload: {
    decodedBytes: 4 * MiB,
    fileNameLength: 255,
  },
  downloads: {
    /** Largest download kept (bytes); larger ones are cancelled and reported. */
    fileBytes: 32 * MiB,
    /** Largest chunk returned by one `downloadRead` (bytes, before base64). */
    readBytesMax: 4 * MiB,
  },
  dialog: {
    policyMaxMs: 30_000,
  },
  waitFor: {
    timeoutDefaultMs: 10_000,
    timeoutMaxMs: 120_000,
  },
  viewport: {
    widthMin: 200,
    widthMax: 3840,
    heightMin: 200,
    heightMax: 2160,
  },
  manager: {
    /** Human control lease: range (ms; the default is `limits.manager`). */
    controlTtlMinMs: 1_000,
    controlTtlMaxMs: 120_000,
    maxSessionsMax: 256,
  },
  /** Pacing of mutating actions (`src/access/pacing`, applied by the manager). */
  pacing: {
    /** Ceilings of the gap between two paced actions and of the pause before a typed character (ms; defaults in `limits.pacing`). */
    gapMaxMs: 60_000,
    keyDelayMaxMs: 2_000,
    /** Longest cadence of one `fill`/`type` (ms); a longer one is scaled down to fit. */
    typingTotalMaxMs: 60_000,
    /** Paced actions per minute per profile: ceiling. */
    actionsPerMinuteMax: 600,
    /** Paced actions per UTC day per profile: default and ceiling. */
    actionsPerDayDefault: 2_000,
    actionsPerDayMax: 1_000_000,
    /** Longest warm-up ramp (days). */
    warmupDaysMax: 90,
    /** Longest an action waits for its turn before it fails with `RateLimitedError` instead: ceiling (ms). */
    waitMaxMs: 30_000,
    /** How long a profile pauses after the site throttled it: ceiling (ms). */
    backoffMaxMs: 24 * 60 * 60_000,
  },
  liveView: {
    /** View token lifetime (ms; default {@link liveViewServing}.tokenTtlDefaultMs). */
    tokenTtlMinMs: 10_000,
    tokenTtlMaxMs: 60 * 60_000,
  },
} as const;

/**
 * Limits of the command vocabulary and its results: {@link callerLimits} and
 * the engine's and the manager's own. Built in a pure function, so a bundle
 * that reads only `callerLimits` drops the rest.
 */
export const limits = /* @__PURE__ */ (() => ({
  ...callerLimits,
  // The defaults and bounds no caller checks, merged into callerLimits' groups.
  text: {
    ...callerLimits.text,
    bytesDefault: 16 * KiB,
  },
  textChange: {
    ...callerLimits.textChange,
    /** Time each read of the page (before, after) may take; past it the change is left out. */
    readTimeoutMs: 2_000,
  },
  accessibility: {
    ...callerLimits.accessibility,
    bytesDefault: 256 * KiB,
    depthDefault: 20,
    depthMax: 20,
  },
  upload: {
    ...callerLimits.upload,
    files: 16,
  },
  downloads: {
    ...callerLimits.downloads,
    /** Downloads kept per session; the oldest is deleted past this. */
    perSession: 16,
  },
  dialog: {
    ...callerLimits.dialog,
    policyDefaultMs: 10_000,
    /** Dialog messages kept in results (characters). */
    messageLength: 1024,
  },
  viewport: {
    ...callerLimits.viewport,
    widthDefault: 1280,
    heightDefault: 800,
  },
  manager: {
    ...callerLimits.manager,
    idleTimeoutDefaultMs: 15 * 60_000,
    idleTimeoutMinMs: 1_000,
    idleTimeoutMaxMs: 24 * 60 * 60_000,
    /** Journal (audit) entries kept: default and ceiling. */
    journalEntriesDefault: 1000,
    journalEntriesMax: 10_000,
    /** Journal size ceiling (UTF-8 bytes of its JSON). */
    journalBytesMax: 8 * MiB,
    checkpointsMax: 64,
    /** Human control lease by default (ms). */
    controlTtlDefaultMs: 30_000,
  },
  pacing: {
    ...callerLimits.pacing,
    /** Gap between two paced actions of a session, drawn uniformly in [min, max]: defaults (ms). */
    gapDefaultMinMs: 800,
    gapDefaultMaxMs: 2_500,
    /** Pause before each typed character with human typing: defaults (ms). */
    keyDelayDefaultMinMs: 50,
    keyDelayDefaultMaxMs: 150,
    /** Extra pause before the character that follows a space, and one that follows punctuation (ms, min and max). */
    afterSpaceExtraMs: [10, 100],
    afterPunctuationExtraMs: [50, 500],
    /** Paced actions per minute per profile (token bucket; the burst is the same number): default. */
    actionsPerMinuteDefault: 30,
    /** Longest an action waits for its turn by default (ms). */
    waitDefaultMs: 10_000,
    /** How long a profile pauses after the site throttled it by default (ms). */
    backoffDefaultMs: 10 * 60_000,
    /** Recent waits a session's diagnostics report. */
    waitsReported: 20,
  },
  /** Longest `evaluate` expression (characters). */
  expressionLength: 64 * KiB,
  /** Largest JSON result of `evaluate` (UTF-8 bytes). */
  evaluateResultBytes: 1 * MiB,
  /** Deepest nesting of arrays and objects in an `evaluate` result. */
  evaluateResultDepth: 100,
  /** Largest `content` result (UTF-8 bytes); longer HTML is cut and marked. */
  contentBytes: 4 * MiB,
  /** Ceilings of the action and navigation timeouts (ms). */
  actionTimeoutMaxMs: 120_000,
  navigationTimeoutMaxMs: 120_000,
  /** Steps of `dragCoordinates`: default and ceiling. */
  dragStepsDefault: 10,
  dragStepsMax: 100,
  /** Pages a session may have open, counting those the site opened itself (popups past it are closed). */
  pagesPerSession: 16,
  /**
   * How long an observation waits for a main-frame navigation that has not
   * committed yet (Chromium runs no script on the page meanwhile) before it
   * says so instead of reading (ms).
   */
  pendingNavigationGraceMs: 3_000,
  /**
   * Longest an action waits, past its own work, for a window its input
   * announced to arrive as a page (within the command's budget; ms). Past
   * it, the next action result reports the page.
   */
  popupArrivalMaxMs: 2_000,
  inspect: {
    elementsDefault: 100,
    elementsMax: 500,
    textLengthDefault: 256,
    textLengthMax: 4096,
    totalBytesMax: 4 * MiB,
  },
  screenshot: {
    /** The agent path never returns a larger image (CSS pixels × scale). */
    agentMaxWidth: 1280,
    agentMaxHeight: 800,
    jpegQualityDefault: 80,
  },
  diagnostics: {
    ring: 200,
    consoleTextBytes: 2 * KiB,
  },
  trace: {
    /** A trace stops itself after this long (ms). */
    maxDurationMs: 5 * 60_000,
    /** Largest trace archive returned (bytes; base64 in a response stays under the worker's 33 MiB). */
    maxBytes: 16 * MiB,
  },
  /**
   * Files staged for a session through the provider's file API (`stageFile`),
   * for uploads past the 4 MiB command path. The byte bound is an option of
   * the engine (`stagingMaxBytes`), at most the ceiling here.
   */
  staging: {
    fileBytesDefault: 100 * MiB,
    fileBytesMax: 1024 * MiB,
    /** Staged files a session keeps; staging past it is refused. */
    filesPerSession: 16,
    /** Longest MIME type given with a staged file (characters). */
    mimeTypeLength: 255,
  },
  /**
   * Liveness of a browser connection (the engine's CDP probe): while a
   * command runs, the browser is asked `Browser.getVersion` every
   * `probeIntervalMs`; no answer within `probeTimeoutMs` (or a connection
   * Playwright reports closed) ends the session as gone, even when the
   * socket never closed (a dropped network sends no FIN).
   */
  liveness: {
    probeIntervalMs: 5_000,
    probeTimeoutMs: 10_000,
  },
  /**
   * Bounds of each teardown step, so closing never hangs on a dead
   * connection: closing a CDP connection (the provider's browser keeps
   * running until released; past the bound the connection is abandoned),
   * and a whole `adapter.close` as the manager waits for it (past it the
   * release is unconfirmed: listed in `pendingReleases`, retried by
   * `reconcile()`).
   */
  teardown: {
    disconnectMs: 5_000,
    closeMs: 120_000,
  },
  recording: {
    frameIntervalMs: 5_000,
    framesPerRecording: 120,
    recordingsPerManager: 16,
    bytesPerManager: 64 * MiB,
    ttlDefaultMs: 7 * 24 * 60 * 60_000,
  },
}) as const)();

/**
 * The worker side of the live view: a table of its own, in plain literals
 * (esbuild keeps a table with arithmetic in it, used or not), so that the
 * `/agent` bundle (which only asks for view links) leaves it out.
 */
export const liveViewServing = {
  /** View token lifetime when the caller names none (ms): 10 min. */
  tokenTtlDefaultMs: 600_000,
  /** Screencast viewers of one session at once; a viewer past it falls back to polling frames. */
  viewersPerSession: 3,
  /** JPEG quality of screencast frames; frames are capped at the screenshot limit (1280×800). */
  jpegQuality: 70,
  /** How often the live view page polls a frame where no screencast is available (ms; it skips while one is in flight). */
  pollIntervalMs: 300,
  /** The control lease the page takes, renewed while it is open (ms). */
  controlTtlMs: 30_000,
  /** Largest body of a live view control request (bytes). */
  controlBodyBytes: 4096,
} as const;

/**
 * Limits of the CDP client (src/cdp/), the standard WebSocket to a browser's
 * DevTools endpoint. Apart from {@link limits}, and in plain literals
 * (esbuild keeps a table with arithmetic in it, used or not), so that entries
 * that never speak CDP (`/agent`) do not carry it.
 */
export const cdpLimits = {
  /**
   * Largest incoming CDP message (UTF-8 bytes): default and ceiling. A larger
   * one closes the connection and fails every pending call; it is never
   * buffered past the limit where the socket can refuse it first (`ws`).
   */
  /** 64 MiB. */
  messageBytesDefault: 67_108_864,
  /** 256 MiB. */
  messageBytesMax: 268_435_456,
  /** Time limit of one CDP call when the caller sets none, and the ceiling of any (ms). */
  callTimeoutDefaultMs: 30_000,
  callTimeoutMaxMs: 600_000,
  /** Time limit of opening the WebSocket: default and ceiling (ms). */
  connectTimeoutDefaultMs: 30_000,
  connectTimeoutMaxMs: 120_000,
} as const;
