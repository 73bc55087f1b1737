import type { Frame, Locator, Page } from "playwright-core";
import type { FillWatch, MainFrameProbe, PasswordFieldsAfterFill } from "./isolated-world.js";

/**
 * Whether text the engine just put into a page may sit in a password field,
 * decided without giving the text, or anything else, to page code. Every read
 * goes through Playwright locator methods that run in its utility world (an
 * isolated world of each frame: `count`, `inputValue`), so a page that
 * overrides `document.activeElement`, `querySelectorAll` or
 * `String.prototype.includes` in its own world changes nothing here, and the
 * values read stay in Node. Cross-origin iframes are frames of the page like
 * any other. Anything that cannot be read counts as a password.
 *
 * A page without password inputs costs one read per frame (their count), all
 * at once: with none in any frame, neither the target nor the focused element
 * can be one. Only frames that have some are read further. A page of one
 * frame is counted with one CDP request in the engine's own isolated world
 * ({@link MainFrameProbe}), when it can be. For a fill, that request went out
 * before the fill and was answered as its text arrived ({@link FillWatch}),
 * with the focus and the values of the password inputs read there too: only
 * the target is left to check through Playwright, and only when none of them
 * is focused or holds the text.
 */

const passwordInput = "input[type=password i]";
/** Frames, and password inputs per frame, read before giving up and answering "may be a password". */
const maxFrames = 64;
const maxFieldsPerFrame = 16;
/** Password inputs of a frame whose values are read at most; more count as holding the text. */
export const maxPasswordFieldsRead = maxFieldsPerFrame;
/** Time for all the reads together; past it, the answer is "may be a password". */
const checkTimeoutMs = 3_000;
const valueTimeoutMs = 1_000;

/**
 * True when `typed` may sit in a password field of `page`: the target (if
 * any) is a password input, the focused element of the focused frame is one,
 * or a password input of any frame holds part of the typed text, or the
 * typed text holds its value (PIN boxes that move focus on, a field that lost
 * focus). Never throws.
 */
export async function mayHoldPassword(page: Page, typed: string, target?: Locator, probe?: MainFrameProbe | FillWatch): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const giveUp = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), checkTimeoutMs)));
  try {
    return await Promise.race([check(page, typed, target, probe), giveUp]);
  } catch {
    return true;
  } finally {
    clearTimeout(timer);
  }
}

/** One count per frame first (with focus and values, from a fill's watch); then, where a frame has password inputs, the target, the focus and the values (any "yes", or any failure, answers yes). */
async function check(page: Page, typed: string, target: Locator | undefined, probe: MainFrameProbe | FillWatch | undefined): Promise<boolean> {
  const frames = page.frames().filter((frame) => !frame.isDetached());
  // A frame appeared during the fill: the watch of the main frame is not enough, and is let go.
  if (frames.length !== 1 && probe && "read" in probe) probe.cancel();
  if (frames.length > maxFrames) return true;
  const read: PasswordFieldsAfterFill | undefined = frames.length === 1 && probe ? await readMainFrame(probe) : undefined;
  if (read?.count === 0) return false;
  if (read?.focusedOrHolding) return true;
  // The engine's count of the one frame stands for Playwright's (both pierce open shadow roots).
  const counts = read === undefined ? await Promise.all(frames.map((frame) => frame.locator(passwordInput).count())) : [read.count];
  if (counts.every((count) => count === 0)) return false;
  if (counts.some((count) => count > maxFieldsPerFrame)) return true;
  const targetIsPassword = target ? target.locator(`:scope:is(${passwordInput})`).count().then((count) => count > 0) : false;
  // Focus and values were read with the count already: only the target is left to check.
  if (read?.focusedOrHolding === false) return targetIsPassword;
  const holding = frames.flatMap((frame, index) => (counts[index]! > 0 ? [frameMayHold(frame, typed, counts[index]!)] : []));
  const answers = await Promise.all([targetIsPassword, ...holding]);
  return answers.some(Boolean);
}

/** The engine's own read of the main frame: from the fill's watch, or a count now. */
async function readMainFrame(probe: MainFrameProbe | FillWatch): Promise<PasswordFieldsAfterFill | undefined> {
  if ("read" in probe) return probe.read();
  const count = await probe.countPasswordInputs();
  return count === undefined ? undefined : { count };
}

/** Whether a frame with `count` password inputs has one focused, or one whose value and `typed` overlap. */
async function frameMayHold(frame: Frame, typed: string, count: number): Promise<boolean> {
  const fields = frame.locator(passwordInput);
  // `:focus` matches only in the focused frame: the element keys go to.
  const focused = frame.locator(`${passwordInput}:focus`).count();
  const values = typed === "" ? [] : Array.from({ length: count }, (_, index) => fields.nth(index).inputValue({ timeout: valueTimeoutMs }));
  const [focusedCount, read] = await Promise.all([focused, Promise.all(values)]);
  if (focusedCount > 0) return true;
  return read.some((value) => value !== "" && (typed.includes(value) || value.includes(typed)));
}
