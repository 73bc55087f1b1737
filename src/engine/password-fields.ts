import type { Frame, Locator, Page } from "playwright-core";

/**
 * Whether text the engine just put into a page may sit in a password field,
 * decided without giving the text, or anything else, to page code. Every read
 * goes through Playwright locator methods that run in its utility world (an
 * isolated world of each frame: `count`, `inputValue`), so a page that
 * overrides `document.activeElement`, `querySelectorAll` or
 * `String.prototype.includes` in its own world changes nothing here, and the
 * values read stay in Node. Cross-origin iframes are frames of the page like
 * any other. Anything that cannot be read counts as a password.
 */

const passwordInput = "input[type=password i]";
/** Frames, and password inputs per frame, read before giving up and answering "may be a password". */
const maxFrames = 64;
const maxFieldsPerFrame = 16;
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
export async function mayHoldPassword(page: Page, typed: string, target?: Locator): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const giveUp = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), checkTimeoutMs)));
  try {
    return await Promise.race([check(page, typed, target), giveUp]);
  } catch {
    return true;
  } finally {
    clearTimeout(timer);
  }
}

/** Every read runs at once (frames, and the reads of a frame, are independent): any "yes", or any failure, answers yes. */
async function check(page: Page, typed: string, target: Locator | undefined): Promise<boolean> {
  const frames = page.frames().filter((frame) => !frame.isDetached());
  if (frames.length > maxFrames) return true;
  const targetIsPassword = target ? target.locator(`:scope:is(${passwordInput})`).count().then((count) => count > 0) : false;
  const answers = await Promise.all([targetIsPassword, ...frames.map((frame) => frameMayHold(frame, typed))]);
  return answers.some(Boolean);
}

async function frameMayHold(frame: Frame, typed: string): Promise<boolean> {
  const fields = frame.locator(passwordInput);
  // `:focus` matches only in the focused frame: the element keys go to.
  const [count, focused] = await Promise.all([fields.count(), frame.locator(`${passwordInput}:focus`).count()]);
  if (count === 0) return false;
  if (count > maxFieldsPerFrame || focused > 0) return true;
  if (typed === "") return false;
  const values = await Promise.all(Array.from({ length: count }, (_, index) => fields.nth(index).inputValue({ timeout: valueTimeoutMs })));
  return values.some((value) => value !== "" && (typed.includes(value) || value.includes(typed)));
}
