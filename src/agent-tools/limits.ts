/**
 * Every number the agent tools fix, in one place. Limits of the command
 * vocabulary itself live in `src/protocol/limits.ts`.
 */
const KiB = 1024;

/** Defaults and bounds of {@link createBrowserAgentTools}. */
export const agentToolLimits = {
  /** Text returned to the model per call (UTF-8 bytes): default, floor and ceiling. */
  textBytesDefault: 16 * KiB,
  textBytesMin: 1 * KiB,
  textBytesMax: 1024 * KiB,
  /** The "what changed on the page" part of an action result (UTF-8 bytes): default and ceiling; 0 turns it off. */
  changeSummaryBytesDefault: 1 * KiB,
  changeSummaryBytesMax: 16 * KiB,
  /** Visible text read from a page per probe (UTF-8 bytes, at most the protocol's `text` ceiling), before the text budget applies. */
  pageTextBytes: 100 * KiB,
  /** Fields one `fill` call may set. */
  formFields: 50,
  /** Host secrets: how many, name length, shortest and longest value. */
  secrets: 64,
  secretNameLength: 64,
  secretValueMin: 4,
  /** Values typed into password fields shorter than this are not redacted (they would blank ordinary text). */
  typedPasswordMin: 3,
  /** Granted profile ids per toolset. */
  profileIds: 256,
  /** Random bytes in an untrusted-content fence nonce (hex-encoded: twice as many characters). */
  fenceNonceBytes: 8,
  /** Lines of page text a change summary shows, added and removed, before the byte budget applies (a removed line matters less: it is gone). */
  changeSummaryLines: [10, 5],
  /** The same after a navigation caused by an action (added lines only, and their bytes). */
  changeSummaryNavigated: [3, 160],
  /** Elements listed by `observe` in DOM mode: default. */
  domElementsDefault: 150,
  /** How long a probe of the page (visible text, focused field) may take (ms). */
  probeTimeoutMs: 5_000,
} as const;
