/**
 * Every number the design fixes, in one place. Code elsewhere imports these;
 * it never repeats a literal.
 */
const KiB = 1024;
const MiB = 1024 * KiB;

/** Limits of the command vocabulary and its results. */
export const limits = {
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
  /** Longest `evaluate` expression (characters). */
  expressionLength: 64 * KiB,
  /** Largest JSON result of `evaluate` (UTF-8 bytes). */
  evaluateResultBytes: 1 * MiB,
  /** Deepest nesting of arrays and objects in an `evaluate` result. */
  evaluateResultDepth: 100,
  /** Largest `content` result (UTF-8 bytes); longer HTML is cut and marked. */
  contentBytes: 4 * MiB,
  /** Action timeouts: default and ceiling (ms). */
  actionTimeoutDefaultMs: 10_000,
  actionTimeoutMaxMs: 120_000,
  /** Navigation timeouts: default and ceiling (ms). */
  navigationTimeoutDefaultMs: 30_000,
  navigationTimeoutMaxMs: 120_000,
  /** Largest CSS-pixel coordinate accepted by mouse commands. */
  coordinateMax: 100_000,
  /** Steps of `dragCoordinates`: default and ceiling. */
  dragStepsDefault: 10,
  dragStepsMax: 100,
  /** Largest scroll delta (CSS pixels). */
  scrollDeltaMax: 100_000,
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
  text: {
    /** Visible text returned by `text` (UTF-8 bytes): default and ceiling; longer text is cut and marked. */
    bytesDefault: 16 * KiB,
    bytesMax: 256 * KiB,
  },
  /** An action's change in visible text (`textChange: true`). */
  textChange: {
    /** Lines listed per side (added, removed). */
    lines: 40,
    /** Characters per listed line; longer ones end in `…`. */
    lineLength: 240,
    /** Time each read of the page (before, after) may take; past it the change is left out. */
    readTimeoutMs: 2_000,
  },
  accessibility: {
    bytesDefault: 256 * KiB,
    bytesMax: 1 * MiB,
    depthDefault: 20,
    depthMax: 20,
  },
  screenshot: {
    /** The agent path never returns a larger image (CSS pixels × scale). */
    agentMaxWidth: 1280,
    agentMaxHeight: 800,
    jpegQualityDefault: 80,
  },
  upload: {
    files: 16,
    decodedBytes: 4 * MiB,
    fileNameLength: 255,
  },
  downloads: {
    /** Downloads kept per session; the oldest is deleted past this. */
    perSession: 16,
    /** Largest download kept (bytes); larger ones are cancelled and reported. */
    fileBytes: 32 * MiB,
    /** Largest chunk returned by one `downloadRead` (bytes, before base64). */
    readBytesMax: 4 * MiB,
  },
  dialog: {
    policyDefaultMs: 10_000,
    policyMaxMs: 30_000,
    /** Dialog messages kept in results (characters). */
    messageLength: 1024,
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
  waitFor: {
    timeoutDefaultMs: 10_000,
    timeoutMaxMs: 120_000,
  },
  viewport: {
    widthMin: 200,
    widthMax: 3840,
    heightMin: 200,
    heightMax: 2160,
    widthDefault: 1280,
    heightDefault: 800,
  },
  manager: {
    idleTimeoutDefaultMs: 15 * 60_000,
    idleTimeoutMinMs: 1_000,
    idleTimeoutMaxMs: 24 * 60 * 60_000,
    /** Journal (audit) entries kept: default and ceiling. */
    journalEntriesDefault: 1000,
    journalEntriesMax: 10_000,
    /** Journal size ceiling (UTF-8 bytes of its JSON). */
    journalBytesMax: 8 * MiB,
    checkpointsMax: 64,
    /** Human control lease: range and default (ms). */
    controlTtlMinMs: 1_000,
    controlTtlMaxMs: 120_000,
    controlTtlDefaultMs: 30_000,
    maxSessionsMax: 256,
  },
  recording: {
    frameIntervalMs: 5_000,
    framesPerRecording: 120,
    recordingsPerManager: 16,
    bytesPerManager: 64 * MiB,
    ttlDefaultMs: 7 * 24 * 60 * 60_000,
  },
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
