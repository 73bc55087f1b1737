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

async function check(page: Page, typed: string, target: Locator | undefined): Promise<boolean> {
  if (target && (await target.locator(`:scope:is(${passwordInput})`).count()) > 0) return true;
  const frames = page.frames().filter((frame) => !frame.isDetached());
  if (frames.length > maxFrames) return true;
  for (const frame of frames) if (await frameMayHold(frame, typed)) return true;
  return false;
}

async function frameMayHold(frame: Frame, typed: string): Promise<boolean> {
  const fields = frame.locator(passwordInput);
  const count = await fields.count();
  if (count === 0) return false;
  if (count > maxFieldsPerFrame) return true;
  // `:focus` matches only in the focused frame: the element keys go to.
  if ((await frame.locator(`${passwordInput}:focus`).count()) > 0) return true;
  if (typed === "") return false;
  for (let index = 0; index < count; index++) {
    const value = await fields.nth(index).inputValue({ timeout: valueTimeoutMs });
    if (value !== "" && (typed.includes(value) || value.includes(typed))) return true;
  }
  return false;
}
