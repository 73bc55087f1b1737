import type { FrameLocator, Locator, Page } from "playwright-core";
import { AmbiguousTargetError, NotFoundError, StaleRefError } from "../errors.js";
import type { Target } from "../protocol/target.js";
import type { EngineSession, PageState } from "./session.js";

type Scope = Page | FrameLocator;

function describe(target: Target): string {
  switch (target.by) {
    case "selector":
      return `selector ${JSON.stringify(target.selector)}`;
    case "role":
      return `role ${target.role}${target.name === undefined ? "" : ` named ${JSON.stringify(target.name)}`}`;
    case "ref":
      return `ref ${target.ref}`;
    default:
      return `${target.by} ${JSON.stringify(target.value)}`;
  }
}

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
 * Resolves a target to exactly one element of the selected page: through its
 * iframe chain (open shadow roots are pierced by Playwright's engines), honouring
 * `nth`. Zero matches wait up to `timeoutMs` for one to appear; several matches
 * without `nth` fail with {@link AmbiguousTargetError} saying how many.
 */
export async function resolveTarget(
  session: EngineSession,
  state: PageState,
  target: Target,
  timeoutMs: number,
): Promise<Locator> {
  if (target.by === "ref") {
    const playwrightRef = session.refs.resolve(state.id, target.ref);
    const locator = state.page.getByRef(playwrightRef);
    if ((await locator.count()) === 0) {
      throw new StaleRefError(target.ref, `Ref ${target.ref} no longer matches an element on page ${state.id}; take a new accessibility snapshot.`);
    }
    return locator;
  }
  const locator = locateUnchecked(state, { ...target, nth: undefined });
  let count = await locator.count();
  if (count === 0) {
    try {
      await locator.first().waitFor({ state: "attached", timeout: timeoutMs });
    } catch {
      const within = target.frame?.length ? ` inside frame ${target.frame.join(" > ")}` : "";
      throw new NotFoundError(`No element matches ${describe(target)}${within} (waited ${timeoutMs} ms)`);
    }
    count = await locator.count();
  }
  if (target.nth !== undefined) {
    if (target.nth >= count) {
      throw new NotFoundError(`${describe(target)} matched ${count} element${count === 1 ? "" : "s"}; nth ${target.nth} is out of range`);
    }
    return locator.nth(target.nth);
  }
  if (count > 1) {
    throw new AmbiguousTargetError(count, `${describe(target)} matched ${count} elements; give nth (0–${count - 1}) or a more specific target`);
  }
  return locator;
}
