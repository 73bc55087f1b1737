import { errors as playwrightErrors, type FrameLocator, type Locator, type Page } from "playwright-core";
import { AmbiguousTargetError, NotFoundError, StaleRefError } from "../errors.js";
import { describeTarget, type Target } from "../protocol/target.js";
import { strictModeCount } from "./playwright-errors.js";
import type { EngineSession, PageState } from "./session.js";

type Scope = Page | FrameLocator;

const describe = describeTarget;

function locate(scope: Scope, target: Exclude<Target, { by: "ref" }>): Locator {
  const exact = target.exact === undefined ? {} : { exact: target.exact };
  switch (target.by) {
    case "selector":
      return scope.locator(target.selector);
    case "role":
      return scope.getByRole(target.role, { ...exact, ...(target.name === undefined ? {} : { name: target.name }) });
    case "text":
      return scope.getByText(target.value, exact);
    case "label":
      return scope.getByLabel(target.value, exact);
    case "placeholder":
      return scope.getByPlaceholder(target.value, exact);
    case "testId":
      return scope.getByTestId(target.value);
  }
}

/**
 * A locator for a non-ref target through its iframe chain, without waiting or
 * checking how many elements match (for waiting on absence).
 */
export function locateUnchecked(state: PageState, target: Exclude<Target, { by: "ref" }>): Locator {
  let scope: Scope = state.page;
  for (const frameSelector of target.frame ?? []) {
    scope = scope.locator(frameSelector).contentFrame();
  }
  const locator = locate(scope, target);
  return target.nth === undefined ? locator : locator.nth(target.nth);
}

/**
 * A locator for a target of the selected page: through its iframe chain (open
 * shadow roots are pierced by Playwright's engines), honouring `nth`. A plain
 * target costs no round trip here: Playwright's strict mode refuses several
 * matches when the action runs, and {@link actOn} maps that (and a target that
 * never appeared) to our errors. A ref is checked for staleness and an `nth`
 * against the match count first, so that both fail at once rather than after
 * the whole timeout.
 */
export async function resolveTarget(session: EngineSession, state: PageState, target: Target): Promise<Locator> {
  if (target.by === "ref") {
    const playwrightRef = session.refs.resolve(state.id, target.ref);
    const locator = state.page.getByRef(playwrightRef);
    // A ref into a frame that is gone (an out-of-process one removed) makes Playwright refuse the selector itself: stale too, and nothing was sent.
    const count = await locator.count().catch((error: unknown) => {
      if (error instanceof Error && /Invalid frame in aria-ref selector/.test(error.message)) return 0;
      throw error;
    });
    if (count === 0) throw staleRef(target.ref, state.id);
    return locator;
  }
  if (target.nth === undefined) return locateUnchecked(state, target);
  const locator = locateUnchecked(state, { ...target, nth: undefined });
  const count = await locator.count();
  // None yet: the action waits for one to appear (and fails as not found if none does).
  if (count > 0 && target.nth >= count) throw nthOutOfRange(target, count);
  return locator.nth(target.nth);
}

/**
 * Runs `act` on the one element `target` names (see {@link resolveTarget}).
 * Several matches fail with {@link AmbiguousTargetError} saying how many; a
 * target that never appeared within `timeoutMs` with {@link NotFoundError}.
 */
export async function actOn<T>(
  session: EngineSession,
  state: PageState,
  target: Target,
  timeoutMs: number,
  act: (locator: Locator) => Promise<T>,
): Promise<T> {
  const locator = await resolveTarget(session, state, target);
  try {
    return await act(locator);
  } catch (error) {
    throw await targetFailure(error, state, target, timeoutMs);
  }
}

/** What a failed action on `target` is reported as. */
async function targetFailure(error: unknown, state: PageState, target: Target, timeoutMs: number): Promise<unknown> {
  const message = error instanceof Error ? error.message : String(error);
  const count = strictModeCount(message);
  if (count !== undefined) {
    // The cause (with its call log) stays: the outcome rule reads it.
    return new AmbiguousTargetError(count, `${describe(target)} matched ${count} elements; give nth (0–${count - 1}) or a more specific target`, {
      cause: error,
    });
  }
  if (!(error instanceof playwrightErrors.TimeoutError) || resolvedOnce(error)) return error;
  // The locator never resolved to an element: nothing was sent to the page.
  if (target.by === "ref") return staleRef(target.ref, state.id);
  if (target.nth !== undefined) {
    const matches = await locateUnchecked(state, { ...target, nth: undefined })
      .count()
      .catch(() => 0);
    if (matches > 0) return matches > target.nth ? error : nthOutOfRange(target, matches);
  }
  const within = target.frame?.length ? ` inside frame ${target.frame.join(" > ")}` : "";
  return new NotFoundError(`No element matches ${describe(target)}${within} (waited ${timeoutMs} ms)`);
}

/** Whether Playwright's call log shows the locator matching an element at some point. */
function resolvedOnce(error: Error): boolean {
  const log = (error as { log?: unknown }).log;
  return Array.isArray(log) && log.some((line) => typeof line === "string" && /locator resolved to /.test(line));
}

function staleRef(ref: string, pageId: string): StaleRefError {
  return new StaleRefError(ref, `Ref ${ref} no longer matches an element on page ${pageId}; take a new accessibility snapshot.`);
}

function nthOutOfRange(target: Exclude<Target, { by: "ref" }>, count: number): NotFoundError {
  return new NotFoundError(`${describe(target)} matched ${count} element${count === 1 ? "" : "s"}; nth ${target.nth} is out of range`);
}
