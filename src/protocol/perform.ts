import { ValidationError } from "../errors.js";
import type { BrowserCommandInput } from "./commands.js";

/** The short actions of `perform`, in one list: the worker's `action` method and the manager's `perform` take these. */
export const performActions = ["navigate", "evaluate", "click", "type", "press", "screenshot"] as const;
export type PerformAction = (typeof performActions)[number];

const builders: Record<PerformAction, { needs?: string; build: (value: string) => BrowserCommandInput }> = {
  navigate: { needs: "URL", build: (url) => ({ op: "navigate", url }) },
  evaluate: { needs: "expression", build: (expression) => ({ op: "evaluate", expression }) },
  click: { needs: "selector", build: (selector) => ({ op: "click", selector }) },
  type: { needs: "text", build: (text) => ({ op: "type", text }) },
  press: { needs: "key", build: (key) => ({ op: "press", key }) },
  screenshot: { build: () => ({ op: "screenshot" }) },
};

/**
 * The command a `perform(id, action, value)` call stands for: `navigate`
 * (URL), `evaluate` (expression), `click` (selector), `type` (text into the
 * focused element), `press` (key), `screenshot`.
 *
 * @example
 * ```ts
 * performCommand("navigate", "https://example.com/"); // { op: "navigate", url: "https://example.com/" }
 * ```
 */
export function performCommand(action: PerformAction, value?: string): BrowserCommandInput {
  const builder = Object.hasOwn(builders, action) ? builders[action] : undefined;
  if (!builder) throw new ValidationError("action", `expected one of ${Object.keys(builders).join(", ")}`);
  if (builder.needs !== undefined && typeof value !== "string") throw new ValidationError("value", `${action} needs a ${builder.needs} string`);
  return builder.build(value ?? "");
}
