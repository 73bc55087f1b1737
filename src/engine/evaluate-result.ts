import type { Page } from "playwright-core";
import { ActionFailedError } from "../errors.js";
import { callInPage, decodeEvaluateResult, evaluateAsJsonExpression } from "../protocol/evaluate-encoding.js";

export { callInPage, decodeEvaluateResult, evaluateAsJsonExpression };

/**
 * Evaluates `expression` in the page and returns its result as plain JSON
 * data; fails with `ActionFailedError` when the expression throws (the
 * outcome rule then decides whether it ran), or with `OutcomeUnknownError`
 * when it ran but its result cannot be returned (saying why).
 */
export async function evaluateAsJson(page: Page, expression: string): Promise<unknown> {
  let encoded: unknown;
  try {
    encoded = await page.evaluate(evaluateAsJsonExpression(expression));
  } catch (error) {
    const message = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    throw new ActionFailedError(`evaluate: ${message.replace(/^page\.evaluate: /, "")}`, { cause: error });
  }
  return decodeEvaluateResult(encoded);
}
