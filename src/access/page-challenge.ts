import { classifyChallenge, type ChallengeSignals, type ChallengeState } from "./challenge.js";
import type { ChallengeResult, SolverSignal } from "../protocol/results.js";

/** States where the site, not the agent, owns the page: a challenge, a block, a throttle. */
const holdStates = new Set<ChallengeState>(["challenge", "blocked", "rate_limited"]);

/**
 * What challenge detection knows of one page, kept with its {@link PageState}:
 * the classification of its current document, the challenge it showed last
 * (to tell when it was solved), and the last solver signal a provider gave.
 */
export interface PageChallenge {
  /**
   * The classification of the document read last, with the page's main-frame
   * navigation count then; `plain` is the same without `solved`, reported once.
   */
  last?: { result: ChallengeResult; navigations: number; plain: ChallengeResult };
  /** A challenge, block or throttle the page showed and has not shown itself past yet. */
  held?: { state: ChallengeState; vendor?: string; navigations: number };
  /** The last solver signal of a provider (Browserbase's console markers), with the page's navigation count then. */
  solver?: SolverSignal & { navigations: number };
  /** A response since the last read looked like a mitigation: the next action result reads the page again. */
  stale: boolean;
}

/**
 * Classifies `signals` of a page whose main frame has navigated `navigations`
 * times and notes it in `tracker`. "Solved" means the site let the browser
 * in: the page showed a challenge (or block, or throttle), then a navigation
 * led to a document without one (`solved` names what it was). Markers that go
 * away without a navigation (a token appearing in place) solve nothing: the
 * challenge is just no longer reported.
 */
export function judgeChallenge(tracker: PageChallenge, signals: ChallengeSignals, navigations: number): ChallengeResult {
  const classified: ChallengeResult = classifyChallenge(signals);
  const held = tracker.held;
  let solved: ChallengeResult["solved"];
  let note: string | undefined;
  if (holdStates.has(classified.state)) {
    tracker.held = { state: classified.state, ...(classified.vendor ? { vendor: classified.vendor } : {}), navigations };
  } else if (held) {
    if (navigations > held.navigations) {
      solved = { state: held.state, ...(held.vendor ? { vendor: held.vendor } : {}) };
      note = `the ${held.vendor ? `${held.vendor} ` : ""}${held.state.replace("_", " ")} page navigated to one without it`;
    }
    tracker.held = undefined;
  }
  // A solver's signal counts on the document it came from, and on the first one past the challenge it worked on.
  const signal = tracker.solver;
  const current = signal !== undefined && (signal.navigations === navigations || (held !== undefined && signal.navigations >= held.navigations));
  const solver = current ? { provider: signal.provider, state: signal.state } : undefined;
  if (!current) tracker.solver = undefined;
  const working = solver !== undefined && !solved && (holdStates.has(classified.state) || solver.state === "solving");
  const plain = working ? { ...classified, solver } : classified;
  const result = solved ? { ...classified, evidence: [...classified.evidence, note!], solved, ...(solver ? { solver } : {}) } : plain;
  if (solved) tracker.solver = undefined;
  tracker.last = { result, plain, navigations };
  tracker.stale = false;
  return result;
}

/**
 * Whether an action result carries `challenge`: anything but `none` and
 * `passive` (a vendor's sensor sits on many ordinary pages; reporting it on
 * every action would only teach the model to ignore the field), and a
 * challenge just solved or a provider's solver at work.
 */
export const reportable = (result: ChallengeResult): boolean =>
  (result.state !== "none" && result.state !== "passive") || result.solved !== undefined || result.solver !== undefined;

/** Browserbase's solver logs these to the page's console (`browserbase-solving-started/finished/errored`). */
const browserbaseMarker = /^browserbase-solving-(started|finished|errored)$/;

/** The solver signal a console message gives, if it is one. "Finished" does not mean the site let the browser in. */
export function solverOfConsole(text: string): SolverSignal | undefined {
  const found = browserbaseMarker.exec(text.trim());
  if (!found) return undefined;
  return { provider: "browserbase", state: found[1] === "started" ? "solving" : found[1] === "finished" ? "finished" : "failed" };
}

/** Mitigation headers of the vendors the classifier knows (a sub-request answered by one hints at a challenge). */
const mitigationHeaders = ["cf-mitigated", "x-datadome", "x-amzn-waf-action", "x-vercel-mitigated", "x-kpsdk-ct"];

/**
 * Whether a response of a page's own request (not its main document) hints
 * that the page may now show a challenge: a 403 or 429 to a fetch, XHR or
 * frame, or a vendor's mitigation header. Costs nothing: read from the
 * response as it arrives.
 */
export function hintsChallenge(resourceType: string, status: number, headers: Record<string, string>): boolean {
  if (!["fetch", "xhr", "document"].includes(resourceType)) return false;
  return status === 403 || status === 429 || mitigationHeaders.some((name) => name in headers);
}
